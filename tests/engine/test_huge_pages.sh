#!/bin/sh
# --huge-pages (auto, on, off) only changes how the LP states, records and
# the event pool are mapped, never what runs: every setting commits the
# digest of the default run, sequentially, under forced rollbacks and on 2
# optimistic ranks, and from a run file ([engine] huge_pages = on); a Slim
# Fly's too (its warp_alloc blocks and dense LP table). PHOLD's
# states here are small, so auto means off: on is the setting that maps them
# 2 MiB-aligned and madvised.
. "$top_srcdir/tests/engine/test_torture_lib.sh"

common="--total-lps=4096 --remote=0.25 --end=40"
ref=$(sig 0 "$PHOLD" --synch=seq $common)
is_sig "$ref" || fail "seq PHOLD failed: $ref"
for h in auto on off; do
    got=$(sig 0 "$PHOLD" --synch=seq --huge-pages=$h $common)
    same "seq --huge-pages=$h" "$ref" "$got"
    got=$(sig 0 "$PHOLD" --synch=debug --huge-pages=$h $common)
    same "debug --huge-pages=$h" "$ref" "$got"
    got=$(sig 2 "$PHOLD" --synch=opt --huge-pages=$h $common)
    same "2 ranks --huge-pages=$h" "$ref" "$got"
done
# A network model: huge pages also map its dense LP table and carve its
# warp_alloc slabs (router queues, NIC messages) from 2 MiB chunks, rolled
# back (debug) and committed across 2 ranks alike.
WARPNET=$top_builddir/tools/warpnet/warpnet
sf="$top_srcdir/examples/configs/slimfly-q5.ini --end=6us"
sfref=$(sig 0 "$WARPNET" --synch=seq --huge-pages=off $sf)
is_sig "$sfref" || fail "seq Slim Fly failed: $sfref"
got=$(sig 0 "$WARPNET" --synch=debug --huge-pages=on $sf)
same "Slim Fly debug --huge-pages=on" "$sfref" "$got"
got=$(sig 2 "$WARPNET" --synch=opt --huge-pages=on $sf)
same "Slim Fly 2 ranks --huge-pages=on" "$sfref" "$got"
cfg=$TT_DIR/huge.ini
printf '[engine]\nhuge_pages = on\n' >"$cfg"
got=$(sig 0 "$PHOLD" --synch=seq --config="$cfg" $common)
same "run file huge_pages = on" "$ref" "$got"
finish "huge pages"
