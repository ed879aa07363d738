#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# test-install.sh MAKE SRCDIR OUTPUT VERSION MAJOR: "make install DESTDIR=
# prefix=" lays out the headers (with the UAPI header it ships), both
# libraries, their symlinks, the .pc and the command, and a program builds
# against them with pkg-config and no other include path. TAP.
make=$1 srcdir=$2 out=$3 version=$4 major=$5
dest=$out/install-test
n=0 failed=0

check() {
	desc=$1
	shift
	n=$((n + 1))
	if "$@" >"$out/install-test.log" 2>&1; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		failed=1
		tail -n 15 "$out/install-test.log" | sed 's/^/# /'
	fi
}

rm -rf "$dest"
check "make install DESTDIR=... prefix=/usr" \
	$make -s -C "$srcdir" O="$out" install DESTDIR="$dest" prefix=/usr
files() {
	for f in include/taskdiag/taskdiag.h include/taskdiag/linux/task_diag.h \
		 lib/libtaskdiag.a lib/libtaskdiag.so.$version \
		 lib/pkgconfig/libtaskdiag.pc bin/taskdiag; do
		test -f "$dest/usr/$f" || { echo "missing $f"; return 1; }
	done
	test "$(readlink "$dest/usr/lib/libtaskdiag.so")" = libtaskdiag.so.$major &&
	test "$(readlink "$dest/usr/lib/libtaskdiag.so.$major")" = libtaskdiag.so.$version &&
	objdump -p "$dest/usr/lib/libtaskdiag.so.$version" |
		grep -q "SONAME *libtaskdiag.so.$major$"
}
check "headers, libraries, symlinks, .pc and command installed" files

build() {
	cat >"$dest/prog.c" <<-'PROG'
	#include <stdio.h>
	#include <taskdiag/taskdiag.h>

	int main(void)
	{
		struct taskdiag_opts opts = {
			.sz = sizeof(opts), .backend = TASKDIAG_BACKEND_PROCFS,
		};
		struct taskdiag_request_opts req = {
			.sz = sizeof(req), .strategy = TASK_DIAG_DUMP_ALL,
			.show_flags = TASK_DIAG_SHOW_BASE,
		};
		struct taskdiag *td = taskdiag__new(&opts);
		struct taskdiag_task *task;
		size_t size;
		int n = 0, err;

		if (!td)
			return 1;
		err = taskdiag__request(td, &req);
		while (!err && (err = taskdiag__next(td, &task)) > 0) {
			if (!taskdiag_task__base(task, &size) ||
			    size != sizeof(struct task_diag_base))
				return 1;
			n++, err = 0;
		}
		taskdiag__delete(td);
		printf("%d tasks\n", n);
		return err < 0 || !n;
	}
	PROG
	pc=$dest/usr/lib/pkgconfig
	cflags=$(PKG_CONFIG_PATH=$pc PKG_CONFIG_SYSROOT_DIR=$dest pkg-config --cflags libtaskdiag) &&
	libs=$(PKG_CONFIG_PATH=$pc PKG_CONFIG_SYSROOT_DIR=$dest pkg-config --libs libtaskdiag) &&
	${CC:-cc} -Wall -Werror $cflags -o "$dest/prog" "$dest/prog.c" $libs &&
	LD_LIBRARY_PATH=$dest/usr/lib "$dest/prog"
}
check "a program builds with pkg-config and runs on the .so" build
echo "1..$n"
exit $failed
