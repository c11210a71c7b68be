#!/bin/sh
# test_installed_pc.sh — a model of the user's own, built with
# `cc $(pkg-config --cflags --libs warp)`, finds libwarp.so without
# LD_LIBRARY_PATH: warp.pc's Libs carry the run path to the installed
# library (issue 53: they did not). Reads the warp.pc this build would
# install, links a model with it (against the build's own library, found
# first) and checks the model's RUNPATH names the install's libdir.
set -u
S=$(cd "${top_srcdir:-.}" && pwd)
B=$(cd "${top_builddir:-_build}" && pwd)
for tool in pkg-config readelf; do
    command -v $tool >/dev/null 2>&1 || { echo "SKIP $tool missing"; exit 77; }
done
[ -f "$B/warp.pc" ] && [ -f "$B/.libs/libwarp.so" ] || { echo "SKIP libwarp.so or warp.pc not built"; exit 77; }
CC=$(sed -n 's/^CC = //p' "$B/Makefile")
libdir=$(PKG_CONFIG_PATH="$B" pkg-config --variable=libdir warp)
tmp=$(mktemp -d /tmp/warpnet-pc.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/model.c" <<'EOC'
#include <warp.h>
int main(int argc, char **argv) { warp_ctx *w = warp_init(&argc, &argv); warp_finalize(w); return 0; }
EOC
libs=$(PKG_CONFIG_PATH="$B" pkg-config --libs warp) || { echo "FAIL pkg-config --libs warp"; exit 1; }
# shellcheck disable=SC2086
$CC -I"$S/engine" -I"$S/config" -I"$S/rng" -o "$tmp/model" "$tmp/model.c" -L"$B/.libs" $libs \
    > "$tmp/log" 2>&1 || { echo "FAIL building a model with: $libs"; cat "$tmp/log"; exit 1; }
path=$(readelf -d "$tmp/model" | sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\]/\2/p')
case ":$path:" in
*":$libdir:"*) echo "ok   a model linked with warp.pc's '$libs' has run path $path" ;;
*) echo "FAIL a model linked with warp.pc's '$libs' has run path '$path', not $libdir: it needs LD_LIBRARY_PATH"; exit 1 ;;
esac
