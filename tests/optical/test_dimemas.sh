#!/bin/sh
# test_dimemas.sh — Dimemas traces (tests/replay/dimemas) replayed on the
# optical network and on a fat-tree. Ping-pong (4 iterations: 1.5 us of
# compute, 4,096 bytes to the other task, 2.5 us there, 4,096 bytes back)
# between two racks, each message one photonic packet (photonic_packet =
# message): its three pieces pipeline through the rack switches, so a trip
# takes the one-packet closed form at s = 4,096 B,
#   OPS: T = 2 E(s) + D(s) + 2L + R + s/B_O, completion 4 (4,000 + 2T);
#   OCS: each direction's first trip also waits the set-up S (circuits
#   stay up: ocs_idle 1 s), completion 4 x 4,000 + 2S + 8 T_c with
#   T_c = 2 E(s) + D(s) + s/B_C + 2L + TAU.
# The 16-task stencil (halos of 96 KiB above the eager limit, allreduce,
# broadcast, reduction) runs to its end on 4 racks x 4 servers with every
# path policy and on the 4-port 3-level fat-tree of replay-dimemas-fattree.ini:
# every task runs and every message arrives; on the optical network the same
# digest sequentially, under --synch=check and on 2 processes.
. "${top_srcdir:-.}/tests/optical/lib.sh"
D="${top_srcdir:-.}/tests/replay/dimemas"
[ -f "$D/pingpong.dim" ] || { echo "SKIP: no Dimemas traces"; exit 77; }

dimemas() { # name racks servers trace [extra [optical] lines]
    name=$1; base "$2" "$3" > "$TMP/$name.ini"; trace=$4
    printf '%s\n' "${5:-}" >> "$TMP/$name.ini"
    printf '[workload]\ntype = replay\n[job.0]\ntrace = %s\nformat = dimemas\n[replay]\nranks_csv = %s\n' \
        "$trace" "$TMP/$name.csv" >> "$TMP/$name.ini"
}
SYMS="$SYMS -v s=4096 -v S=100000"
E="(2*lat + rd + s/be)"

dimemas pp-ops 2 1 "$D/pingpong.dim" "path = ops
photonic_packet = message"
run pp-ops "$TMP/pp-ops.ini" && close "Dimemas ping-pong over the OPS: 4 (4000 + 2T)" \
    "$(finish pp-ops 0)" "$(calc "4*(4000 + 2*(2*$E + su + pb*s + 2*L + R + s/bo))")"

dimemas pp-ocs 2 1 "$D/pingpong.dim" "path = ocs
photonic_packet = message
ocs_setup = 100us
ocs_reconfig = 20us
ocs_idle = 1s"
run pp-ocs "$TMP/pp-ocs.ini" && {
    close "Dimemas ping-pong over circuits: 16000 + 2S + 8 T_c" "$(finish pp-ocs 0)" \
        "$(calc "16000 + 2*S + 8*(2*$E + su + pb*s + s/bc + 2*L + tau)")"
    close "  two set-ups (one circuit each way)" "$(sub "$TMP/pp-ocs/summary.json" optical ocs setups)" 2
}

# The stencil: all 1,156 tasks and 498 messages, on every path and on a fat-tree.
tasks() { sed -n 's/^  tasks  *\([0-9]*\) of \([0-9]*\)$/\1 \2/p' "$TMP/$1.log"; }
for path in ops ocs hybrid; do
    dimemas st-$path 4 4 "$D/stencil.dim" "path = $path
ocs_setup = 100us
ocs_reconfig = 20us
ocs_threshold = 64KiB"
    run st-$path "$TMP/st-$path.ini" --synch=seq || continue
    [ "$(tasks st-$path)" = "1156 1156" ] && echo "ok   stencil.dim on the optical network, path $path: 1156 tasks" ||
        { echo "FAIL stencil.dim, path $path: tasks $(tasks st-$path)"; fail=1; }
    close "  498 messages delivered" "$(json "$TMP/st-$path/summary.json" delivered_messages)" 498
done
close "  hybrid puts the 96 KiB halos on circuits" \
    "$(awk -v n="$(sub "$TMP/st-hybrid/summary.json" paths ocs messages)" 'BEGIN { print (n > 0) }')" 1
want=$(digest "$TMP/st-hybrid/summary.json")
run st-check "$TMP/st-hybrid.ini" --synch=check && same "  the same digest under --synch=check" \
    "$(digest "$TMP/st-check/summary.json")" "$want"
if [ -n "${MPIEXEC:-}" ]; then
    timeout 120 $MPIEXEC -n 2 "$WARPNET" --quiet "$TMP/st-hybrid.ini" --synch=opt --out="$TMP/st-np2" \
        > "$TMP/st-np2.log" 2>&1 || { echo "FAIL stencil on 2 processes: exit $?"; fail=1; }
    same "  the same digest on 2 processes" "$(digest "$TMP/st-np2/summary.json")" "$want"
fi
sed "s|tests/replay/dimemas/stencil.dim|$D/stencil.dim|" "${top_srcdir:-.}/examples/configs/replay-dimemas-fattree.ini" \
    > "$TMP/ft.ini"
run ft "$TMP/ft.ini" && {
    [ "$(tasks ft)" = "1156 1156" ] && echo "ok   stencil.dim on the fat-tree: 1156 tasks" ||
        { echo "FAIL stencil.dim on the fat-tree: tasks $(tasks ft)"; fail=1; }
    close "  498 messages delivered" "$(json "$TMP/ft/summary.json" delivered_messages)" 498
}
exit $fail
