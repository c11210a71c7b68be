#!/bin/sh
# test_quickstart_inplace.sh (make check-long: it builds the project twice
# over) — the README's "Building" used to run ./configure in the source
# folder, after which ./quickstart stopped with configure's "source directory
# already configured" (issue 53, item 12). Now quickstart builds in place in
# such a folder, and names `make distclean` when told to build elsewhere.
set -u
S=$(cd "${top_srcdir:-.}" && pwd)
command -v git >/dev/null 2>&1 && git -C "$S" rev-parse --show-toplevel >/dev/null 2>&1 ||
    { echo "SKIP not a git checkout"; exit 77; }
tmp=$(mktemp -d /tmp/warpnet-qs-inplace.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
git -C "$S" ls-files -z | (cd "$S" && xargs -0 cp --parents -t "$tmp/src")
cd "$tmp/src" || exit 1
{ autoreconf -fi && ./configure -q; } > "$tmp/log" 2>&1 || { echo "FAIL in-place configure:"; tail -5 "$tmp/log"; exit 1; }
fail=0
timeout 1800 ./quickstart build > "$tmp/log" 2>&1; rc=$?
if [ $rc = 0 ] && grep -q 'configured in place' "$tmp/log" && [ -x tools/warpnet/warpnet ]; then
    echo "ok   ./quickstart build after an in-place ./configure builds in place"
else
    echo "FAIL ./quickstart build after ./configure: exit $rc:"; tail -5 "$tmp/log"; fail=1
fi
WARPNET_BUILD=_elsewhere timeout 600 ./quickstart build > "$tmp/log" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "make distclean" "$tmp/log" && echo "ok   WARPNET_BUILD elsewhere: make distclean named" ||
    { echo "FAIL WARPNET_BUILD=_elsewhere: exit $rc:"; tail -3 "$tmp/log"; fail=1; }
exit $fail
