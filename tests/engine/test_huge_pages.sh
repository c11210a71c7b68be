#!/bin/sh
# --huge-pages (auto, on, off) only changes how the LP states, records and
# the event pool are mapped, never what runs: every setting commits the
# digest of the default run, sequentially, under forced rollbacks and on 2
# optimistic ranks, and from a run file ([engine] huge_pages = on). PHOLD's
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
cfg=$TT_DIR/huge.ini
printf '[engine]\nhuge_pages = on\n' >"$cfg"
got=$(sig 0 "$PHOLD" --synch=seq --config="$cfg" $common)
same "run file huge_pages = on" "$ref" "$got"
finish "huge pages"
