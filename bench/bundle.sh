#!/usr/bin/env bash
# bench/bundle.sh OUT.tar.xz | DIR — pack the built warpnet and phold, MPICH's
# mpiexec (hydra) and every shared library they load, the C library and its
# loader included, into one archive that runs on another x86-64 Linux
# machine with neither MPICH nor jemalloc installed, whatever its glibc:
# a borrowed many-core box for strong scaling (bench/scaling.sh), say.
# Unpack it anywhere (or name an existing DIR: the bundle is written there,
# as DIR/warpnet-bundle, unpacked) and put its bin/ first on PATH; each program there is
# a small script that starts the real one through the bundled loader.
# Run bench/scaling.sh there with WARPNET=.../bin/warpnet PHOLD=.../bin/phold.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -eq 1 ] || { echo "usage: bench/bundle.sh OUT.tar.xz | DIR" >&2; exit 2; }
out=$(realpath -m "$1")
if [ -d "$out" ]; then
    stage=$out
    [ ! -e "$stage/warpnet-bundle" ] || { echo "bundle: $stage/warpnet-bundle exists; remove it first" >&2; exit 1; }
else
    stage=$(mktemp -d)
    trap 'rm -rf "$stage"' EXIT
fi
root=$stage/warpnet-bundle
mkdir -p "$root/bin" "$root/lib"

# libtool leaves the real warpnet in .libs and finds libwarp through the
# build tree; the bundle finds it in lib/ instead.
libpath=$build/.libs
real_warpnet=$build/tools/warpnet/.libs/warpnet
[ -x "$real_warpnet" ] || real_warpnet=$warpnet
phold=$build/examples/phold/phold
[ -x "$build/examples/phold/.libs/phold" ] && phold=$build/examples/phold/.libs/phold
mpiexec=$(readlink -f "$(command -v mpiexec.hydra || command -v mpiexec)")
proxy=$(dirname "$mpiexec")/hydra_pmi_proxy
[ -x "$proxy" ] || { echo "bundle: no hydra_pmi_proxy beside $mpiexec (MPICH's hydra is needed)" >&2; exit 1; }

add() { # NAME ELF: the program as bin/NAME.elf, its libraries into lib/
    cp "$2" "$root/bin/$1.elf"
    LD_LIBRARY_PATH=$libpath ldd "$2" | awk '/=> \// {print $3} /^\t\/.*ld-linux/ {print $1}' |
        while read -r lib; do cp -nL "$lib" "$root/lib/"; done
    # Started through the loader, the program's argv[0] is bin/NAME.elf, so
    # hydra looks for its proxy in bin/ and finds the script below.
    cat >"$root/bin/$1" <<EOF
#!/bin/sh
d=\$(cd "\$(dirname "\$0")" && pwd)
exec "\$d/../lib/$(basename "$(ls "$root"/lib/ld-linux*)")" --library-path "\$d/../lib" "\$d/$1.elf" "\$@"
EOF
    chmod +x "$root/bin/$1"
}
add warpnet "$real_warpnet"
add phold "$phold"
add mpiexec "$mpiexec"
add hydra_pmi_proxy "$proxy"
# UCX loads its transports from ucx/ beside libucs; shared memory and CMA
# are all one machine needs.
if [ -e "$root/lib/libucs.so.0" ] && [ -d /usr/lib/x86_64-linux-gnu/ucx ]; then
    mkdir -p "$root/lib/ucx"
    cp -L /usr/lib/x86_64-linux-gnu/ucx/libuct_cma.so.0 "$root/lib/ucx/" 2>/dev/null || true
fi
if [ "$stage" = "$out" ]; then
    echo "bundle: $root; PATH=$root/bin:\$PATH"
else
    tar -C "$stage" -cJf "$out" warpnet-bundle
    echo "bundle: $out ($(du -h "$out" | cut -f1)); unpack, then PATH=.../warpnet-bundle/bin:\$PATH"
fi
