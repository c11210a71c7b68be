#!/bin/sh
# test_golden.sh — every shipped run file (examples/configs/*.ini) and PHOLD
# give the committed digests and summary figures recorded below. A refactor
# that means to change no behaviour must leave every line as it is; change a
# recorded value only in a commit that says why the model changed (print the
# current values with GOLDEN_PRINT=1 sh tests/golden/test_golden.sh).
# Runs are sequential at short end times; the small ones also run on 2 ranks
# (optimistic), which must commit the same digest and figures. The largest
# networks are checked by their --describe lines (size, links, memory).
set -u
W="${top_builddir:-.}/tools/warpnet/warpnet"
P="${top_builddir:-.}/examples/phold/phold"
C="${top_srcdir:-.}/examples/configs"
TRACES="${top_srcdir:-.}/../shared/traces"
[ -x "$W" ] && [ -x "$P" ] || { echo "SKIP: warpnet or phold not built"; exit 77; }
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
W=$(limited "$W"); P=$(limited "$P")
TMP=$(mktemp -d "${TMPDIR:-/tmp}/warpnet-golden.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
fail=0
print=${GOLDEN_PRINT:-}
shipped=$(cd "$C" && ls *.ini)
covered=""

# figures DIR: digest, committed events, injected/delivered packets, delivered
# messages, mean packet latency and last delivery (ns) from summary.json.
figures() {
    j="$1/summary.json"
    printf '%s %s %s %s %s %.9g %.9g\n' \
        "$(sed -n 's/.*"committed_digest": "\([0-9a-f]*\)".*/\1/p' "$j")" \
        "$(sed -n 's/.*"committed_digest": "[0-9a-f]*", "committed": \([0-9]*\),.*/\1/p' "$j")" \
        "$(sed -n 's/.*"injected_packets": \([0-9]*\),.*/\1/p' "$j")" \
        "$(sed -n 's/.*"delivered_packets": \([0-9]*\),.*/\1/p' "$j")" \
        "$(sed -n 's/.*"delivered_messages": \([0-9]*\),.*/\1/p' "$j")" \
        "$(sed -n 's/.*"packet_latency_ns": {"mean": \([-0-9.eE+]*\),.*/\1/p' "$j")" \
        "$(sed -n 's/.*"last_delivery_ns": \([-0-9.eE+]*\),.*/\1/p' "$j")"
}

# run NAME NP ARGS...: warpnet on NP processes (1: no mpiexec); prints the figures.
run() {
    name=$1 np=$2; shift 2
    out="$TMP/$name.$np"
    if [ "$np" = 1 ]; then
        timeout 120 "$W" --quiet --synch=seq "$@" --out="$out" > "$TMP/log" 2>&1
    else
        timeout 120 ${MPIEXEC:-mpiexec} -n "$np" "$W" --quiet --synch=opt "$@" --out="$out" \
            > "$TMP/log" 2>&1
    fi || { echo "FAIL $name on $np: warpnet exits $?"; tail -5 "$TMP/log"; fail=1; return 1; }
    figures "$out"
}

# golden CONFIG.ini NP2 "ARGS" DIGEST COMMITTED INJ DELIV MSGS LAT LAST: one
# run file at the given options; NP2 = 2 also runs it on two processes.
golden() {
    ini=$1 np2=$2 args=$3; shift 3
    want="$*"
    covered="$covered $ini"
    # shellcheck disable=SC2086
    file="$C/$ini"
    case $ini in /*) file=$ini ;; esac
    # run reports a failed run on stdout and marks it in the subshell of
    # $(...), where fail=1 is lost: mark it here (a crashing warpnet once
    # gave 16 "ok" lines and exit 0).
    got=$(run "$(basename "$ini")" 1 "$file" $args) || { echo "$got"; fail=1; return; }
    if [ -n "$print" ]; then
        echo "golden $ini $np2 \"$args\" $got"; return
    fi
    [ "$got" = "$want" ] && echo "ok   $ini $args" ||
        { echo "FAIL $ini $args"; echo "     got  $got"; echo "     want $want"; fail=1; }
    [ "$np2" = 2 ] && [ -n "${MPIEXEC:-}" ] || return 0
    # shellcheck disable=SC2086
    got2=$(run "$(basename "$ini")" 2 "$file" $args) || { echo "$got2"; fail=1; return; }
    [ "$got2" = "$want" ] && echo "ok   $ini $args on 2 ranks" ||
        { echo "FAIL $ini $args on 2 ranks"; echo "     got  $got2"; echo "     want $want"; fail=1; }
}

# described CONFIG.ini: a network too large to run here; its --describe
# lines must equal the recorded ones (read from stdin).
described() {
    ini=$1
    covered="$covered $ini"
    # the available-memory line names this machine's free memory: not recorded
    timeout 60 "$W" --describe "$C/$ini" > "$TMP/describe.all" 2>&1 || {
        echo "FAIL $ini --describe exits $?"; cat "$TMP/describe.all"; fail=1; return; }
    grep -v '^memory_available_per_rank_bytes:' "$TMP/describe.all" > "$TMP/describe"
    if [ -n "$print" ]; then
        echo "described $ini <<'EOF'"; cat "$TMP/describe"; echo "EOF"; cat > /dev/null; return
    fi
    if cmp -s "$TMP/describe" -; then echo "ok   $ini --describe"; else
        echo "FAIL $ini --describe differs from the recorded lines:"; cat "$TMP/describe"; fail=1; fi
}

# phold NP DIGEST COMMITTED ARGS...: PHOLD's digest and committed count.
phold() {
    np=$1 want="$2 $3"; shift 3
    if [ "$np" = 1 ]; then
        timeout 60 "$P" --synch=seq "$@" > "$TMP/phold" 2>&1
    else
        timeout 60 ${MPIEXEC:-mpiexec} -n "$np" "$P" --synch=opt "$@" > "$TMP/phold" 2>&1
    fi || { echo "FAIL phold $* on $np: exits $?"; tail -5 "$TMP/phold"; fail=1; return; }
    got="$(sed -n 's/.*committed digest: //p' "$TMP/phold") $(sed -n \
        's/^ *committed events  *\([0-9,]*\)$/\1/p' "$TMP/phold" | tr -d ,)"
    if [ -n "$print" ]; then echo "phold $np $got $*"; return; fi
    [ "$got" = "$want" ] && echo "ok   phold $* on $np" ||
        { echo "FAIL phold $* on $np: got $got, want $want"; fail=1; }
}

golden dragonfly-a4.ini 2 "--end=2us --workload.warmup=0ns" 56039647e8ed049e 57909 3619 2353 2353 674.371428 1999.9507
golden dragonfly-a4.ini 2 "--end=2us --workload.warmup=0ns --dragonfly.routing=par --workload.pattern=worst" debc1472932a2f67 65786 3583 1605 1605 948.248815 1999.15092
golden dragonfly-codes-1056.ini 2 "" 498bc167c4dc9c86 499343 21120 21120 5280 838.732394 16824.6905
golden dragonfly-codes-1056.ini 2 "--dragonfly.routing=ugal-g" faa780226b4b6d24 963088 21120 21120 5280 862.142413 16824.6905
golden dragonfly-xc.ini 1 "--end=1us --workload.warmup=0ns" b9a6fab9133b6442 302295 29326 5806 484 667.890825 999.88077
golden dragonfly-theta.ini 2 "--end=5us" f9a53a07aebd66c2 135003 14264 5125 5125 2587.40385 4999.2578
golden dragonfly-dally-codes-72.ini 2 "--end=20us" d3a6f2d9e622fcf4 1387 208 32 32 13987.9624 19548.4816
golden dragonflyplus-small.ini 2 "--end=2us --workload.warmup=0ns" 8a8def44bcb39b28 113778 6966 3717 3717 809.363343 1999.24235
golden dragonflyplus-small.ini 2 "--end=2us --workload.warmup=0ns --dragonflyplus.routing=par --workload.pattern=worst" 06806fcedde54712 99785 6875 1553 1553 1195.44788 1999.80787
golden dragonflyplus-1024.ini 1 "--end=3us --workload.warmup=0ns" 2a10c84567747be6 84558 6484 2315 327 1692.85598 2997.63333
golden dragonflyplus-codes-8448.ini 1 "" bf7b3d7169572a2f 569107 42240 42240 42240 1201.27569 18731.6558
# With 1 % of the router links failed, routed by table around them.
golden fattree-16p3l-failed.ini 2 "--end=1us --workload.warmup=0ns" 719aa22360becaf8 100542 7478 1345 1345 758.781874 999.904202
golden dragonfly-a8-failed.ini 2 "--end=1us --workload.warmup=0ns" 39f2b677798abb4d 185096 15327 4563 4563 667.976051 999.987723
golden fattree-8p3l.ini 2 "--end=2us --workload.warmup=0ns" 12745299e27e4af5 36423 2645 1122 229 945.419701 1990.74483
golden fattree-8p3l-codes.ini 1 "--end=2us" 76b4d8a242c79fca 58579 3076 1823 1823 740.72279 1999.37137
golden fattree-32p3l.ini 1 "--end=1us --workload.warmup=0ns" fee84cf4c07f793d 667419 59028 4252 4252 860.879582 999.994843
golden fattree-4ary3tree.ini 2 "--end=2us --workload.warmup=0ns" e59f8d8c5de53670 193483 8149 7937 7937 70.5949849 1999.69133
golden fattree-dual-plane.ini 1 "--end=2us --workload.warmup=0ns" a4ccccfb8c21ee6b 78623 15892 31 31 787.423986 1999.52935
golden fattree-summit-codes.ini 1 "--end=2us --workload.warmup=0ns" 741d7151dce3abdb 96486 7157 6026 6026 331.877491 1999.72318
golden leafspine-3to1.ini 2 "--end=2us --workload.warmup=0ns" 5dc1fb9383438f03 90244 8887 4264 891 800.744332 1999.21618
# A network read from a file (its path relative to where warpnet runs).
golden graph-leafspine.ini 2 "--end=2us --workload.warmup=0ns --graph.file=${top_srcdir:-.}/examples/configs/leafspine-8x4.anynet" 6c4577d17b77f4c5 21707 1554 1006 1006 622.697351 1999.97201
golden hyperx-4x4.ini 2 "--end=2us --workload.warmup=0ns" b7ee57cdf7677a1b 44392 3203 2347 2347 523.986229 1999.2964
golden hyperx-4x4.ini 2 "--end=2us --workload.warmup=0ns --hyperx.routing=dal --workload.pattern=worst" 6862091b2ef5c0aa 38498 3216 1919 1919 610.382992 1998.35234
golden hyperx-8x8x8.ini 1 "--end=1us --workload.warmup=0ns" 867d1230c20846aa 1075277 79685 25715 25715 626.820228 999.968349
golden loggp-64.ini 2 "--end=100us" 42c5b7309e91bd53 1600 320 320 320 4000 84000
golden simplenet-64.ini 2 "--end=20us --workload.warmup=0ns" 0c771f14f05cd410 6030 1242 1163 1163 1474.21478 20201.2417
golden slimfly-q5.ini 2 "--end=2us --workload.warmup=0ns" 18aa6a577832e826 107254 7242 5241 5241 539.624204 1999.81292
golden slimfly-q13.ini 1 "--end=2us --workload.warmup=0ns" 3d74069d9026e43c 373088 29796 22167 22167 514.140736 1999.99883
golden optical-rack-pair.ini 2 "" 4f6d229bd9e5a58d 300 20 20 20 7833 156660
golden optical-dc-32x32.ini 2 "--end=51ms" 7772da074591663b 510688 101184 73728 3072 202480.97 50882273.6
golden torus-8x8x8.ini 2 "--end=2us --workload.warmup=0ns" 826226c0a8c2c3af 438062 24000 8111 1801 1113.09175 1999.49018
golden torus-16x16x16.ini 1 "--end=1us --workload.warmup=0ns" b39f8f622f96feb7 178282 18849 105 22 700.399991 997.52781
if [ -d "$TRACES/bigsim-jacobi2d-32" ]; then
    # Replay over LogGOPS with an eager limit below the trace's larger
    # messages: every rank's CPU waits in a rendezvous send while the
    # receive that would match it queues behind, so the halo exchange
    # deadlocks after 510 of 5616 tasks. That shows that replay reads the
    # network's eager limit; the run must fail naming the blocked ranks (it
    # once exited 0 with the partial figures), on 1 and on 2 processes.
    printf '[engine]\nend = 1s\n[network]\ntopology = loggp\n[loggp]\nnodes = 32\nS = 256B\n' \
        > "$TMP/replay-loggp.ini"
    printf '[workload]\ntype = replay\n[job.0]\ntrace = %s\n' "$TRACES/bigsim-jacobi2d-32" \
        >> "$TMP/replay-loggp.ini"
    for np in 1 2; do
        rm -rf "$TMP/deadlock"
        timeout 120 ${MPIEXEC:-mpiexec} -n $np "$W" --quiet "$TMP/replay-loggp.ini" --out="$TMP/deadlock" \
            > "$TMP/log" 2> "$TMP/err"
        rc=$?
        want="replay deadlock: 5106 of 5616 tasks never ran, 32 ranks blocked: job 0 rank 0 task 19 waits for rank 1 to receive its rendezvous send"
        if [ $rc != 2 ] || ! grep -q "^warpnet: $want" "$TMP/err" || [ -e "$TMP/deadlock/summary.json" ]; then
            echo "FAIL replay-loggp on $np: exit $rc (want 2, '$want', no summary.json)"; cat "$TMP/err"; fail=1
        fi
    done
    golden replay-jacobi-torus.ini 2 "--job.0.trace=$TRACES/bigsim-jacobi2d-32" bc74cbede1a4a375 20911 1680 1680 1008 366.219433 47750
else
    echo "skip the BigSim sample replays: $TRACES is absent"
fi
# The shipped 2-D halo exchange (examples/traces, 32 ranks, 2,240 tasks) on
# the 4x4x2 torus: the run file as it is in a plain clone.
golden replay-jacobi-torus.ini 2 "--job.0.trace=${top_srcdir:-.}/examples/traces/stencil2d-32.wtt" b1dbed9b187191a8 32892 2560 2560 1280 560.862984 15744.16
# The Dimemas test stencil (16 tasks, rendezvous halos, collectives) on a fat-tree.
golden replay-dimemas-fattree.ini 2 "--job.0.trace=${top_srcdir:-.}/tests/replay/dimemas/stencil.dim" 4773dd3df4afc051 397092 20277 20277 498 20796.2046 202264.64
golden mapreduce-fattree.ini 2 "" 4b5a93ade7af3389 74590 5665 5665 268 13880.8657 906141.92
golden mapreduce-leafspine.ini 2 "" e6d2cf6ca98bc27b 90282 9023 9023 524 9775.92775 894722.12
golden mapreduce-optical.ini 2 "" 8c5a66ff2dbe0da4 92524 8906 8906 838 1046965.29 10559996
golden optical-study-flow.ini 2 "" accd3fce33beca77 30 2 2 2 2508 900002508
golden optical-study-electrical.ini 2 "" 92721108bf5dfc20 28 2 2 2 864 900000864
described dragonfly-a16p8h8.ini <<'EOF'
topology: dragonfly
nodes: 16512
routers: 2064
links: 23736
radix: 31
groups: 129
routers_per_group: 16
terminals_per_router: 8
global_links_per_router: 8
arrangement: relative
local_links: 15480
global_links: 8256
links_per_group_pair: 1
routing: ugal-l
ranks: 16512
vcs: 3
injection_bandwidth_GBps: 12.5
router_links_GBps: 12.5 x 23736
terminal_links_GBps: 12.5 x 16512
lookahead_ns: 90.96 (the least delay between groups: --synch=cons's window, the safe bound's step; 0: none)
memory_state_bytes: 26336824 (25.1 MiB, 1595 bytes per node; LP states, outputs, tables)
memory_events_bytes: 69871119 (66.6 MiB; 13.2 events of 320 bytes per node in flight at load 0.20, 919 ns zero-load per packet)
memory_saturated_bytes: 2027673600 (1933.7 MiB, 122800 bytes per node; every buffer full of events, a saturated network's ceiling)
memory_per_rank_bytes: 125865031 (0.12 GiB expected peak on each of 1 rank(s), 24 MiB of them the program and MPI: give a rank this much, --mem-per-rank or the job's memory per task)
EOF
described fattree-128p3l.ini <<'EOF'
topology: fattree
nodes: 524288
routers: 20480
links: 1048576
radix: 128
xgft_down: 64,64,128
xgft_up: 1,64,64
top_fold: 1
switches_per_level: 8192,8192,4096
links_per_level: 524288,524288,524288
bisection_GBps: 3.2768e+06 (1 of injection)
ranks: 524288
vcs: 1
injection_bandwidth_GBps: 12.5
router_links_GBps: 12.5 x 1048576
terminal_links_GBps: 12.5 x 524288
lookahead_ns: 90.96 (the least delay between groups: --synch=cons's window, the safe bound's step; 0: none)
memory_state_bytes: 691275984 (659.3 MiB, 1319 bytes per node; LP states, outputs, tables)
memory_events_bytes: 1061347868 (1012.2 MiB; 6.3 events of 320 bytes per node in flight at load 0.08, 993 ns zero-load per packet)
memory_saturated_bytes: 5704253440 (5440.0 MiB, 10880 bytes per node; every buffer full of events, a saturated network's ceiling)
memory_per_rank_bytes: 1914628844 (1.78 GiB expected peak on each of 1 rank(s), 24 MiB of them the program and MPI: give a rank this much, --mem-per-rank or the job's memory per task)
EOF
described slimfly-q37.ini <<'EOF'
topology: slimfly
nodes: 73926
routers: 2738
links: 75295
radix: 82
ranks: 73926
vcs: 2
injection_bandwidth_GBps: 12.5
router_links_GBps: 12.5 x 75295
terminal_links_GBps: 12.5 x 73926
lookahead_ns: 70.48 (the least delay between groups: --synch=cons's window, the safe bound's step; 0: none)
memory_state_bytes: 68458996 (65.3 MiB, 926 bytes per node; LP states, outputs, tables)
memory_events_bytes: 180386940 (172.0 MiB; 7.6 events of 320 bytes per node in flight at load 0.10, 518 ns zero-load per packet)
memory_saturated_bytes: 28257912320 (26948.8 MiB, 382246 bytes per node; every buffer full of events, a saturated network's ceiling)
memory_per_rank_bytes: 293287280 (0.27 GiB expected peak on each of 1 rank(s), 24 MiB of them the program and MPI: give a rank this much, --mem-per-rank or the job's memory per task)
EOF
described torus-32k-codes.ini <<'EOF'
topology: torus
nodes: 32768
routers: 32768
links: 98304
radix: 7
ranks: 32768
vcs: 2
injection_bandwidth_GBps: 2.14748
router_links_GBps: 2.14748 x 98304
terminal_links_GBps: 2.14748 x 32768
lookahead_ns: 150 (the least delay between groups: --synch=cons's window, the safe bound's step; 0: none)
memory_state_bytes: 58327352 (55.6 MiB, 1780 bytes per node; LP states, outputs, tables)
memory_events_bytes: 237237185 (226.2 MiB; 22.6 events of 320 bytes per node in flight at load 0.38, 3987 ns zero-load per packet)
memory_saturated_bytes: 1363148800 (1300.0 MiB, 41600 bytes per node; every buffer full of events, a saturated network's ceiling)
memory_per_rank_bytes: 333313273 (0.31 GiB expected peak on each of 1 rank(s), 24 MiB of them the program and MPI: give a rank this much, --mem-per-rank or the job's memory per task)
EOF
# The scale cases of issue 18 (their scaled-down runs: tests/replay/test_scale_cases.sh).
described replay-stencil-512k-torus.ini <<'EOF'
topology: torus
nodes: 524288
routers: 524288
links: 1572864
radix: 7
ranks: 524288
vcs: 2
injection_bandwidth_GBps: 11.9
router_links_GBps: 11.9 x 1572864
terminal_links_GBps: 11.9 x 524288
lookahead_ns: 80 (the least delay between groups: --synch=cons's window, the safe bound's step; 0: none)
memory_state_bytes: 1021313336 (974.0 MiB, 1948 bytes per node; LP states, outputs, tables)
memory_events_bytes: 2786713600 (2657.6 MiB; 16.6 events of 320 bytes per node in flight at load 0.50, 898 ns zero-load per packet)
memory_workload_bytes: 407488512 (388.6 MiB; the workload's tables beside its LP states)
memory_saturated_bytes: 21810380800 (20800.0 MiB, 41600 bytes per node; every buffer full of events, a saturated network's ceiling)
memory_per_rank_bytes: 4442007864 (4.14 GiB expected peak on each of 1 rank(s), 24 MiB of them the program and MPI: give a rank this much, --mem-per-rank or the job's memory per task)
EOF
described replay-stencil-512k-simplenet.ini <<'EOF'
topology: simplenet
nodes: 524288
routers: 0
links: 0
radix: 0
ranks: 524288
lookahead_ns: 500 (the least delay between groups: --synch=cons's window, the safe bound's step; 0: none)
memory_state_bytes: 247463936 (236.0 MiB, 472 bytes per node; LP states, outputs, tables)
memory_events_bytes: 2294648576 (2188.3 MiB; 16.1 events of 272 bytes per node in flight at load 0.50, 11514 ns zero-load per message)
memory_workload_bytes: 407488512 (388.6 MiB; the workload's tables beside its LP states)
memory_saturated_bytes: 570425344 (544.0 MiB, 1088 bytes per node; every buffer full of events, a saturated network's ceiling)
memory_per_rank_bytes: 3108984576 (2.90 GiB expected peak on each of 1 rank(s), 24 MiB of them the program and MPI: give a rank this much, --mem-per-rank or the job's memory per task)
EOF
described replay-stencil-32k-torus.ini <<'EOF'
topology: torus
nodes: 32768
routers: 32768
links: 98304
radix: 7
ranks: 32768
vcs: 2
injection_bandwidth_GBps: 11.9
router_links_GBps: 11.9 x 98304
terminal_links_GBps: 11.9 x 32768
lookahead_ns: 80 (the least delay between groups: --synch=cons's window, the safe bound's step; 0: none)
memory_state_bytes: 63832376 (60.9 MiB, 1948 bytes per node; LP states, outputs, tables)
memory_events_bytes: 174169600 (166.1 MiB; 16.6 events of 320 bytes per node in flight at load 0.50, 898 ns zero-load per packet)
memory_workload_bytes: 13904896 (13.3 MiB; the workload's tables beside its LP states)
memory_saturated_bytes: 1363148800 (1300.0 MiB, 41600 bytes per node; every buffer full of events, a saturated network's ceiling)
memory_per_rank_bytes: 289655608 (0.27 GiB expected peak on each of 1 rank(s), 24 MiB of them the program and MPI: give a rank this much, --mem-per-rank or the job's memory per task)
EOF
described replay-stencil-32k-simplenet.ini <<'EOF'
topology: simplenet
nodes: 32768
routers: 0
links: 0
radix: 0
ranks: 32768
lookahead_ns: 500 (the least delay between groups: --synch=cons's window, the safe bound's step; 0: none)
memory_state_bytes: 15466496 (14.8 MiB, 472 bytes per node; LP states, outputs, tables)
memory_events_bytes: 143415536 (136.8 MiB; 16.1 events of 272 bytes per node in flight at load 0.50, 11514 ns zero-load per message)
memory_workload_bytes: 25577472 (24.4 MiB; the workload's tables beside its LP states)
memory_saturated_bytes: 35651584 (34.0 MiB, 1088 bytes per node; every buffer full of events, a saturated network's ceiling)
memory_per_rank_bytes: 218013936 (0.20 GiB expected peak on each of 1 rank(s), 24 MiB of them the program and MPI: give a rank this much, --mem-per-rank or the job's memory per task)
EOF
described slimfly-q163.ini <<'EOF'
topology: slimfly
nodes: 1009622
routers: 53138
links: 6509405 (at most: router ports not holding a node, halved; counted exactly up to 4194304 ports)
radix: 264
ranks: 1009622
vcs: 2
injection_bandwidth_GBps: 12.5
memory_state_bytes: 4130047972 (3938.7 MiB, 4091 bytes per node; LP states, outputs, tables)
memory_events_bytes: 2469742354 (2355.3 MiB; 7.6 events of 320 bytes per node in flight at load 0.10, 520 ns zero-load per packet)
memory_saturated_bytes: 1761018826240 (1679438.4 MiB, 1744236 bytes per node; every buffer full of events, a saturated network's ceiling)
memory_per_rank_bytes: 6890221046 (6.42 GiB expected peak on each of 1 rank(s), 24 MiB of them the program and MPI: give a rank this much, --mem-per-rank or the job's memory per task)
EOF
described slimfly-q41.ini <<'EOF'
topology: slimfly
nodes: 63878
routers: 3362
links: 102541
radix: 80
ranks: 63878
vcs: 2
injection_bandwidth_GBps: 12.5
router_links_GBps: 12.5 x 102541
terminal_links_GBps: 12.5 x 63878
lookahead_ns: 70.48 (the least delay between groups: --synch=cons's window, the safe bound's step; 0: none)
memory_state_bytes: 74216988 (70.8 MiB, 1162 bytes per node; LP states, outputs, tables)
memory_events_bytes: 155738841 (148.5 MiB; 7.6 events of 320 bytes per node in flight at load 0.10, 518 ns zero-load per packet)
memory_saturated_bytes: 33820106240 (32253.4 MiB, 529448 bytes per node; every buffer full of events, a saturated network's ceiling)
memory_per_rank_bytes: 271904757 (0.25 GiB expected peak on each of 1 rank(s), 24 MiB of them the program and MPI: give a rank this much, --mem-per-rank or the job's memory per task)
EOF
described fattree-128p3l-fts.ini <<'EOF'
topology: fattree
nodes: 524288
routers: 20480
links: 1048576
radix: 128
xgft_down: 64,64,128
xgft_up: 1,64,64
top_fold: 1
switches_per_level: 8192,8192,4096
links_per_level: 524288,524288,524288
bisection_GBps: 3.2768e+06 (1 of injection)
ranks: 524288
vcs: 1
injection_bandwidth_GBps: 12.5
router_links_GBps: 12.5 x 1048576
terminal_links_GBps: 12.5 x 524288
lookahead_ns: 90.96 (the least delay between groups: --synch=cons's window, the safe bound's step; 0: none)
memory_state_bytes: 691275984 (659.3 MiB, 1319 bytes per node; LP states, outputs, tables)
memory_events_bytes: 2430444097 (2317.9 MiB; 14.5 events of 320 bytes per node in flight at load 0.20, 993 ns zero-load per packet)
memory_saturated_bytes: 5704253440 (5440.0 MiB, 10880 bytes per node; every buffer full of events, a saturated network's ceiling)
memory_per_rank_bytes: 3283725073 (3.06 GiB expected peak on each of 1 rank(s), 24 MiB of them the program and MPI: give a rank this much, --mem-per-rank or the job's memory per task)
EOF
described fattree-50p3l-fts.ini <<'EOF'
topology: fattree
nodes: 31250
routers: 3125
links: 62500
radix: 50
xgft_down: 25,25,50
xgft_up: 1,25,25
top_fold: 1
switches_per_level: 1250,1250,625
links_per_level: 31250,31250,31250
bisection_GBps: 195312 (1 of injection)
ranks: 31250
vcs: 1
injection_bandwidth_GBps: 12.5
router_links_GBps: 12.5 x 62500
terminal_links_GBps: 12.5 x 31250
lookahead_ns: 90.96 (the least delay between groups: --synch=cons's window, the safe bound's step; 0: none)
memory_state_bytes: 41327256 (39.4 MiB, 1322 bytes per node; LP states, outputs, tables)
memory_events_bytes: 144065722 (137.4 MiB; 14.4 events of 320 bytes per node in flight at load 0.20, 987 ns zero-load per packet)
memory_saturated_bytes: 340000000 (324.2 MiB, 10880 bytes per node; every buffer full of events, a saturated network's ceiling)
memory_per_rank_bytes: 218958802 (0.20 GiB expected peak on each of 1 rank(s), 24 MiB of them the program and MPI: give a rank this much, --mem-per-rank or the job's memory per task)
EOF
phold 1 0f2ae5bfb330c6ff 6336 --total-lps=64 --end=100 --seed=1
phold 1 7c2c77af1b8f2f1e 12544 --total-lps=256 --end=50 --seed=7 --remote=0.5
if [ -n "${MPIEXEC:-}" ]; then
    phold 2 0f2ae5bfb330c6ff 6336 --total-lps=64 --end=100 --seed=1
    phold 2 7c2c77af1b8f2f1e 12544 --total-lps=256 --end=50 --seed=7 --remote=0.5
fi

# Every shipped run file is covered: a new one needs its line above.
for f in $shipped; do
    case " $covered " in *" $f "*) ;; *) echo "FAIL $f is shipped but has no golden line"; fail=1 ;; esac
done
exit $fail
