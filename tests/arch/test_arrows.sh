#!/bin/sh
# test_arrows.sh — the sources keep the arrows of docs/architecture.md
# (arrows.sh), and arrows.sh finds each kind of forbidden arrow when one is
# planted in a copy of the tree: the engine including a model, the network
# layer including a topology or the catalogue, a model including another
# model or the network layer's private header, config including the
# engine, and a model using MPI_COMM_WORLD or mpi.h.
set -u
S="${top_srcdir:-.}"
A="$S/tests/arch/arrows.sh"
. "$S/tests/arch/lib.sh"
fail=0
out=$(sh "$A" "$S") || { echo "FAIL forbidden arrows in the sources:"; echo "$out"; fail=1; }
[ $fail = 0 ] && echo "ok   the sources keep the allowed arrows"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/warpnet-arrows.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
(cd "$S" && tar cf - config rng engine models tools examples) | (cd "$TMP" && tar xf -)
plant() { # file line
    printf '%s\n' "$2" >> "$TMP/$1"
}
plant engine/setup.c '#include "net/net.h"'
plant models/net/model.c '#include "torus/torus.h"'
plant models/net/send.c '#include "catalog/catalog.h"'
plant models/traffic/traffic.c '#include "fattree/fattree.h"'
plant models/simple/nic.c '#include "net/net_impl.h"'
plant config/ini.c '#include "warp.h"'
plant models/replay/workload.c 'static int world(void) { return MPI_COMM_WORLD != 0; }'
plant models/torus/torus_topo.c '#include <mpi.h>'
out=$(sh "$A" "$TMP"); rc=$?
[ $rc = 1 ] || { echo "FAIL arrows.sh exits $rc on a tree with forbidden arrows, want 1"; fail=1; }
expect_found "$out" 8 'engine/setup.c:.*engine includes "net/net.h"' \
    'models/net/model.c:.*net includes "torus/torus.h"' \
    'models/net/send.c:.*net includes "catalog/catalog.h"' \
    'models/traffic/traffic.c:.*model:traffic includes "fattree/fattree.h"' \
    'models/simple/nic.c:.*includes "net/net_impl.h" (net-private)' \
    'config/ini.c:.*config includes "warp.h"' \
    'models/replay/workload.c:.*mentions MPI_COMM_WORLD' \
    'models/torus/torus_topo.c:.*includes "mpi.h"'
exit $fail
