#!/bin/sh
# tests/net/test_cons.sh — --synch=cons runs the network models: the
# lookahead is the smallest link latency (or the network's own smallest
# delay), a rank and its NIC form one group, and the committed digest and
# network summary equal seq's and opt's on 1, 2 and 4 processes for every
# topology, the analytic and optical networks and a replay. Runs without a
# lookahead are refused with one line naming the cause.
. "$(dirname "$0")/lib.sh"
C="${top_srcdir:-.}/examples/configs"
T="${top_srcdir:-.}/examples/traces/stencil2d-32.wtt"

small_torus "$TMP/torus.ini"
small_fattree "$TMP/ft4.ini"

# UGAL-G adds the occupancy reports (watcher delay: the local latency).
for cfg in "$TMP/torus.ini" "$TMP/ft4.ini" "$C/slimfly-q5.ini --engine.end=3us --workload.warmup=0ns" \
           "$C/dragonfly-a4.ini --engine.end=3us --workload.warmup=0ns --dragonfly.routing=ugal-g" \
           "$C/optical-rack-pair.ini" "$C/simplenet-64.ini --engine.end=20us --workload.warmup=0ns" \
           "$C/loggp-64.ini --engine.end=100us" "$C/replay-jacobi-torus.ini --job.0.trace=$T"; do
    name=$(basename "${cfg%% *}" .ini)
    before=$fail
    # shellcheck disable=SC2086 # cfg holds the file and its overrides
    same_everywhere "$name" "seq cons1 cons2 cons4 opt2" $cfg
    [ "$fail" = "$before" ] && echo "ok   $name: cons on 1, 2, 4 commits seq's and opt's digest and summary"
done
# The topology partition moves routers, terminals and their ranks together.
same_everywhere "torus, topology partition" "seq cons2" "$TMP/torus.ini" --partition=topology

refused "replay on loggp" "cannot run workload replay: it acknowledges rendezvous" \
    "$WARPNET" "$C/replay-jacobi-torus.ini" "--job.0.trace=$T" --network.topology=loggp \
    --loggp.nodes=32 --synch=cons
# Links of 0 ns still take a packet's bytes' time (and a credit waits for
# it), so traffic of known sizes keeps a lookahead; with no router delay
# either, a packet into a router takes none.
same_everywhere "zero latency" "seq cons2" "$TMP/torus.ini" --network.link_latency=0ns
refused "zero latency and router delay" "cannot run torus: a link or delay of 0 ns leaves no lookahead" \
    "$WARPNET" "$TMP/torus.ini" --network.link_latency=0ns --network.router_delay=0ns --synch=cons
exit $fail
