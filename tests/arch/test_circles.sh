#!/bin/sh
# test_circles.sh — no circle of includes or calls between the files outside
# engine/ (circles.sh over the sources and the built objects), and
# circles.sh finds each kind when one is planted in a copy: two headers
# that include each other, and two files that call each other (an object
# of the network layer's accessors that calls back into the terminal).
set -u
S="${top_srcdir:-.}"
B="${top_builddir:-.}"
C="$S/tests/arch/circles.sh"
. "$S/tests/arch/lib.sh"
fail=0
if [ ! -f "$B/models/net/libwarpnet_la-model.o" ]; then
    echo "FAIL no objects under $B/models/net: build first (make), or set top_builddir"
    exit 1
fi
out=$(sh "$C" "$S" "$B") || { echo "FAIL circles in the sources:"; echo "$out"; fail=1; }
[ $fail = 0 ] && echo "ok   no circle of includes or calls outside engine/"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/warpnet-circles.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
(cd "$S" && tar cf - config rng models tools examples) | (cd "$TMP" && mkdir src && cd src && tar xf -)
# An include circle: stats.h <- net_impl.h includes it; now it includes net_impl.h.
printf '#include "net/net_impl.h"\n' >> "$TMP/src/models/net/stats.h"
# A call circle: the terminal calls model.c's net_event_name; a model.c
# that calls the terminal's net_terminal_type back.
mkdir -p "$TMP/build/models/net"
cp "$B"/models/net/*.o "$TMP/build/models/net/"
cat > "$TMP/plant.c" <<'PLANT'
const char *net_event_name(const void *msg);
const char *net_event_name(const void *msg) { return msg ? "planted" : 0; }
void net_terminal_type(void *n, void *t);
void planted(void);
void planted(void) { net_terminal_type(0, 0); }
PLANT
CC=${CC:-cc}
if "$CC" -c -o "$TMP/build/models/net/libwarpnet_la-model.o" "$TMP/plant.c"; then
    out=$(sh "$C" "$TMP/src" "$TMP/build"); rc=$?
    [ $rc = 1 ] || { echo "FAIL circles.sh exits $rc on a tree with planted circles, want 1"; fail=1; }
    expect_found "$out" 2 'circle: models/net/model.c -> models/net/terminal.c -> models/net/model.c' \
        'circle: models/net/net_impl.h -> models/net/stats.h -> models/net/net_impl.h'
else
    echo "FAIL $CC cannot compile the planted object"; fail=1
fi
exit $fail
