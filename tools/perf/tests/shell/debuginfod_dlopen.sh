#!/bin/bash
# perf: libdebuginfod is loaded only when a debuginfod server is asked
# SPDX-License-Identifier: GPL-2.0
#
# perf loads libdebuginfod, and libcurl behind it, with dlopen() when it
# first asks a debuginfod server for a file, not as every command starts.
# A perf built with debuginfod support loads no libdebuginfod to print its
# version, and still fetches a debug file: perf buildid-cache --add of a
# file whose debug file is nowhere on this system asks the server named by
# --debuginfod, here a local HTTP server, and caches what it sends.

if ! perf version --build-options | grep -q 'debuginfod: \[ on'; then
	echo "perf is built without debuginfod support (NO_LIBDEBUGINFOD)"
	exit 2
fi
if ! command -v python3 > /dev/null; then
	echo "python3 is not installed"
	exit 2
fi

tmp=$(mktemp -d /tmp/perf-debuginfod.XXXXXX)
server=""
# shellcheck disable=SC2317 # run by the traps
cleanup() {
	[ -z "${server}" ] || kill "${server}" 2>/dev/null
	rm -rf "${tmp}"
	trap - EXIT TERM INT
}
trap cleanup EXIT
trap 'cleanup; exit 1' TERM INT

# LD_DEBUG=files: glibc names each shared object as it is loaded
if LD_DEBUG=files perf --version 2>&1 | grep -q 'file=libdebuginfod'; then
	echo "perf --version loaded libdebuginfod"
	exit 1
fi
echo "perf --version loaded no libdebuginfod"

cp "$(type -P true)" "${tmp}/true"
bid=$(perf buildid-list -i "${tmp}/true")
if [ -z "${bid}" ]; then
	echo "no build ID in ${tmp}/true"
	exit 1
fi
mkdir -p "${tmp}/srv/buildid/${bid}" "${tmp}/home"
cp "${tmp}/true" "${tmp}/srv/buildid/${bid}/debuginfo"

python3 - "${tmp}/srv" "${tmp}/port" 2> "${tmp}/server.log" <<'PY' &
import functools, http.server, os, sys
handler = functools.partial(http.server.SimpleHTTPRequestHandler,
                            directory=sys.argv[1])
httpd = http.server.HTTPServer(("127.0.0.1", 0), handler)
with open(sys.argv[2] + ".new", "w") as f:
    f.write(str(httpd.server_port))
os.rename(sys.argv[2] + ".new", sys.argv[2])
httpd.serve_forever()
PY
server=$!
for _ in $(seq 100); do
	[ -s "${tmp}/port" ] && break
	sleep 0.1
done
if [ ! -s "${tmp}/port" ]; then
	echo "the local HTTP server did not start:"
	cat "${tmp}/server.log"
	exit 1
fi
url="http://127.0.0.1:$(cat "${tmp}/port")"

if ! HOME="${tmp}/home" XDG_CACHE_HOME="${tmp}/home/.cache" DEBUGINFOD_URLS='' \
	LD_DEBUG=files perf buildid-cache -v --debuginfod="${url}" \
	-a "${tmp}/true" > "${tmp}/add.log" 2>&1; then
	echo "perf buildid-cache --add failed:"
	grep -v 'file=\|^ *[0-9]*: *$' "${tmp}/add.log" | tail -n 20
	exit 1
fi
err=0
if ! grep -q 'file=libdebuginfod.*dynamically loaded' "${tmp}/add.log"; then
	echo "perf buildid-cache did not load libdebuginfod"
	err=1
fi
if ! grep -q "GET /buildid/${bid}/debuginfo" "${tmp}/server.log"; then
	echo "perf did not ask ${url} for the debug file of ${bid}:"
	cat "${tmp}/server.log"
	err=1
fi
debug=$(find "${tmp}/home/.debug" -path "*/${bid}/debug" -type f | head -n 1)
if [ -z "${debug}" ] || ! cmp -s "${debug}" "${tmp}/true"; then
	echo "the build-id cache has not the debug file the server sent"
	find "${tmp}/home/.debug" | head -n 20
	err=1
else
	echo "fetched ${bid}'s debug file from ${url} into ${debug#"${tmp}"/home/}"
fi
exit ${err}
