#!/bin/sh
# test_dist_manifest.sh — every file git tracks goes into `make dist`'s
# tarball (DISTFILES, listed by the build into distfiles.list), so a config,
# script or figure a test or doc names cannot be forgotten until distcheck.
# Skipped outside a git checkout (the tarball's own make check).
set -u
S="${top_srcdir:-.}"
B="${top_builddir:-_build}"
list="$B/tests/arch/distfiles.list"
srcabs=$(cd "$S" && pwd -P)
# The source must be a checkout's top, not a tarball unpacked inside one
# (make distcheck unpacks it under the build folder of a checkout).
top=$(command -v git >/dev/null 2>&1 && git -C "$S" rev-parse --show-toplevel 2>/dev/null)
[ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$srcabs" ] || { echo "SKIP not a git checkout"; exit 77; }
[ -f "$list" ] || { echo "FAIL $list was not generated"; exit 1; }
# Tracked but deliberately not shipped: git's own metadata.
not_shipped='.gitignore
tools/report/.gitignore'
# DISTFILES names files as $(srcdir)/x, $(top_srcdir)/x or x; strip to x.
dist=$(sed -e "s|^$srcabs/||" -e "s|^$(cd "$S" && pwd)/||" -e "s|^$S/||" -e 's|^\./||' "$list")
fail=0 n=0
for f in $(git -C "$S" ls-files); do
    n=$((n + 1))
    printf '%s\n' "$not_shipped" | grep -qxF "$f" && continue
    # A file is shipped when it, or a folder above it, is in the list.
    d=$f found=
    while :; do
        printf '%s\n' "$dist" | grep -qxF "$d" && { found=1; break; }
        case $d in */*) d=${d%/*} ;; *) break ;; esac
    done
    [ -n "$found" ] || { echo "FAIL $f is tracked but not distributed: add it to a dist_*/EXTRA_DIST list in its local.mk"; fail=1; }
done
[ "$n" -ge 100 ] || { echo "FAIL git ls-files listed only $n files"; fail=1; }
[ $fail = 0 ] && echo "ok   all $n tracked files are distributed"
exit $fail
