/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_DEBUGINFOD_DLOPEN_H
#define __PERF_DEBUGINFOD_DLOPEN_H

#ifdef HAVE_DEBUGINFOD_SUPPORT
#include <elfutils/debuginfod.h>

/*
 * libdebuginfod's client calls, loaded with dlopen() when perf first asks a
 * debuginfod server for a file: linking the library loads libcurl and a
 * TLS, HTTP and Kerberos stack (27 shared objects on Debian 12) as every
 * perf command starts.  perf_debuginfod_begin() returns NULL when the
 * library cannot be loaded, as debuginfod_begin() does when it fails.
 */
debuginfod_client *perf_debuginfod_begin(void);
int perf_debuginfod_find_debuginfo(debuginfod_client *client,
				   const unsigned char *build_id,
				   int build_id_len, char **path);
int perf_debuginfod_find_source(debuginfod_client *client,
				const unsigned char *build_id,
				int build_id_len, const char *filename,
				char **path);
void perf_debuginfod_end(debuginfod_client *client);
#endif

#endif /* __PERF_DEBUGINFOD_DLOPEN_H */
