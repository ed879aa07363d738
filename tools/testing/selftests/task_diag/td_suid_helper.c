// SPDX-License-Identifier: GPL-2.0
/*
 * td_suid_helper: the program security.c's setuid_exec_never_leaks_maps
 * runs setuid root as nobody.  It lives a moment, for its mappings to be
 * looked for, and exits 0 only if it did run with euid 0 (3 otherwise).
 */
#include <unistd.h>

int main(void)
{
	if (geteuid() != 0)
		return 3;
	usleep(2000);
	return 0;
}
