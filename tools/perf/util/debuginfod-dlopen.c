// SPDX-License-Identifier: GPL-2.0
/*
 * libdebuginfod loaded when first used: see debuginfod-dlopen.h.
 */
#include <dlfcn.h>
#include <pthread.h>

#include "debug.h"
#include "debuginfod-dlopen.h"

#define LIBDEBUGINFOD	"libdebuginfod.so.1"

static struct {
	debuginfod_client *(*begin)(void);
	int (*find_debuginfo)(debuginfod_client *client,
			      const unsigned char *build_id, int build_id_len,
			      char **path);
	int (*find_source)(debuginfod_client *client,
			   const unsigned char *build_id, int build_id_len,
			   const char *filename, char **path);
	void (*end)(debuginfod_client *client);
} lib;

static pthread_once_t lib_once = PTHREAD_ONCE_INIT;

/* Every call of lib, or none of them */
static void debuginfod__load(void)
{
	void *handle = dlopen(LIBDEBUGINFOD, RTLD_NOW | RTLD_LOCAL);

	if (!handle) {
		pr_debug("no debuginfod client: %s\n", dlerror());
		return;
	}
	lib.begin = dlsym(handle, "debuginfod_begin");
	lib.find_debuginfo = dlsym(handle, "debuginfod_find_debuginfo");
	lib.find_source = dlsym(handle, "debuginfod_find_source");
	lib.end = dlsym(handle, "debuginfod_end");
	if (lib.begin && lib.find_debuginfo && lib.find_source && lib.end)
		return;
	pr_debug("no debuginfod client: %s lacks a call\n", LIBDEBUGINFOD);
	lib.begin = NULL;
	dlclose(handle);
}

debuginfod_client *perf_debuginfod_begin(void)
{
	pthread_once(&lib_once, debuginfod__load);
	return lib.begin ? lib.begin() : NULL;
}

/* The calls below take a client, which only perf_debuginfod_begin() gives */
int perf_debuginfod_find_debuginfo(debuginfod_client *client,
				   const unsigned char *build_id,
				   int build_id_len, char **path)
{
	return lib.find_debuginfo(client, build_id, build_id_len, path);
}

int perf_debuginfod_find_source(debuginfod_client *client,
				const unsigned char *build_id,
				int build_id_len, const char *filename,
				char **path)
{
	return lib.find_source(client, build_id, build_id_len, filename, path);
}

void perf_debuginfod_end(debuginfod_client *client)
{
	lib.end(client);
}
