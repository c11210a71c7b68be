#!/bin/sh
# bench/booksim.sh — Warpnet's two router models against BookSim2 (issue 21)
# with per-hop costs matched to what BookSim's code does (src/routers/
# iq_router.cpp, networks/kncube.cpp, fattree.cpp, routefunc.cpp): 1 cycle =
# 1 ns, 1 flit = 1 byte at 1 GB/s; a router 4 cycles (route, VC allocation,
# switch allocation, crossbar); router-router channels 2 cycles on the torus
# (BookSim's default use_noc_latency = 1 doubles them for the wrap-around)
# and 1 on the fat-tree, terminal channels 1; a VC's next packet reaches
# switch allocation 3 cycles after its predecessor's (route, VC and switch
# allocation again: alloc_delay = 2 after that tail has left); an output VC
# freed at its tail's switch allocation is reallocated a cycle later
# (lane_hold = 1); the torus's VC class fixed for a whole dimension by
# whether the route crosses the wrap (dateline = dimension) and injection on
# any VC (injection_vcs = all), as dim_order_torus and BookSim's sources do;
# one allocator round (alloc_iters = 1) and the output VC allocated before
# the switch (vc_allocation = before-switch), as BookSim's iq_router does by
# default (islip allocators of one iteration, speculative = 0), and that
# allocation once per cycle at the cycle boundary over every request of the
# cycle (alloc_timing = per-cycle; the cycle is the credit unit's 1 ns), as
# BookSim's clocked router runs its allocators; sources that inject on the
# cycle grid as BookSim's do, each cycle a packet with probability
# load / packet flits (arrivals = bernoulli, arrival_slot = 1 ns), latency
# counted from that cycle;
# 8-flit VC buffers; credits per flit (credit_unit = 1B). Cases: 8x8 torus,
# dimension order, uniform (1-flit packets with 2, 4, 8 VCs; 8-flit packets
# with 2 VCs) and transpose (1-flit, 4 VCs); fat-tree uniform (BookSim's
# 4-ary 3-tree, topology = fattree with nca routing, a random up port per
# packet; Warpnet examples/configs/fattree-4ary3tree.ini, the same tree as
# the XGFT (3; 4,4,4; 1,4,4) with per-packet ECMP; 2 VCs, 1 and 8 flits,
# internal speed-up 1 on both sides); BookSim's
# dragonfly example (src/examples/dragonflyconfig at k = 2: 72 nodes, a = 4
# routers of p = 2 nodes and h = 2 global links per group, 9 groups; local
# channels 10 cycles, global 100; 256-flit VC buffers; routing delay 0;
# internal_speedup = 2, which Warpnet's input-queued router runs as
# internal_speedup = 2 with its pipeline stages at half a cycle each,
# router_delay 1.5, alloc_delay and lane_hold 0.5) with 1-flit packets,
# uniform, minimal (2 VCs) and UGAL (3 VCs; BookSim's ugal_dragonflynew with
# its threshold of 30 flits, Warpnet's ugal-l with ugal_threshold = 30B).
# Each case runs a load sweep on
# BookSim, Warpnet output-queued and Warpnet input-queued; zero-load latency
# is the mean packet latency at the lowest load, saturation throughput the
# highest accepted load (flits/cycle/node) of the sweep, and the accepted
# load at offered load 1 is shown too (BookSim's torus loses up to a fifth
# of its throughput beyond saturation). Also the input-queued router's
# cost per committed event against the output-queued one (16x16 torus).
# Writes bench/results/booksim.csv, bench/results/booksim.md (the table
# for bench/RESULTS.md and docs/routers.md) and, with gnuplot, booksim.png.
# Usage: BOOKSIM=/path/to/booksim bench/booksim.sh [BUILD_DIR]
#   TABLE_ONLY=1 redraws booksim.md and booksim.png from the CSVs, no runs.
#   COST_ONLY=1 reruns only the cost per event (COST_REPS rounds, default 5;
#   best rate per router), then redraws; time it on an idle machine.
#   LOADS: the coarse sweep (default 0.02 0.2 0.4 0.6 0.8 1.0; the first
#   load gives the zero-load latency); REFINE: steps by which each curve's
#   sweep then bisects towards its saturation knee (default 0.1 0.05
#   0.025: the knee to 0.025 of offered load, three more runs a curve); LOADS="0.02 0.3 1.0" REFINE= for a quick look. BookSim rows of
#   the previous booksim.csv with the same case and load are reused
#   (BookSim runs with a fixed seed and this script's fixed configuration,
#   so a rerun gives the same numbers); REUSE=0 reruns them.
# BookSim2 is not part of Warpnet: git clone https://github.com/booksim/booksim2
# outside this tree, then make -C booksim2/src (needs g++, flex, bison).
B=${1:-_build}
W="$B/tools/warpnet/warpnet"
HERE=$(cd "$(dirname "$0")" && pwd)
C="$HERE/../examples/configs"
OUT="$HERE/results"
LOADS=${LOADS:-0.02 0.2 0.4 0.6 0.8 1.0}
REFINE=${REFINE-0.1 0.05 0.025}
TABLE_ONLY=${TABLE_ONLY:-0}
if [ "$TABLE_ONLY" != 1 ] && { [ -z "${BOOKSIM:-}" ] || [ ! -x "$BOOKSIM" ]; }; then
    echo "bench/booksim.sh: set BOOKSIM to the booksim binary (now '${BOOKSIM:-}'): git clone" \
         "https://github.com/booksim/booksim2 outside this tree, make -C booksim2/src," \
         "then BOOKSIM=\$PWD/booksim2/src/booksim $0" >&2
    exit 2
fi
[ "$TABLE_ONLY" = 1 ] || [ -x "$W" ] || { echo "bench/booksim.sh: $W not built (./quickstart build)" >&2; exit 2; }
mkdir -p "$OUT"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
CSV="$OUT/booksim.csv"
PREV="$T/prev.csv"
: > "$PREV"
EV="$OUT/booksim-events.csv"
# COST_ONLY=1 keeps the sweeps' CSV (it used to empty it: the commit that
# reran only the cost left booksim.csv with its header alone).
if [ "$TABLE_ONLY" != 1 ] && [ "${COST_ONLY:-0}" != 1 ]; then
    [ "${REUSE:-1}" = 1 ] && [ -f "$CSV" ] && cp "$CSV" "$PREV"
    echo "case,simulator,offered,accepted,latency_cycles" > "$CSV"
fi

# sweep CASE SIMULATOR RUN ARGS...: RUN CASE LOAD ARGS... for each load of
# LOADS, then for each step of REFINE at the knee less the step: the knee
# is the lowest load run so far whose accepted load falls 3 % short of it.
# A curve that falls beyond saturation (BookSim's torus) peaks between the
# last load accepted in full and the knee, where the coarse sweep has no
# point; loads at or below the first and those run already are skipped.
sweep() {
    c=$1 sim=$2 run=$3; shift 3
    for load in $LOADS; do
        "$run" "$c" "$load" "$@"
    done
    lo=$(echo $LOADS | awk '{ print $1 }')
    for step in $REFINE; do
        load=$(awk -F, -v c="$c" -v s="$sim" -v d="$step" -v lo="$lo" '
                   $1 == c && $2 == s && $4 < 0.97 * $3 && (k == "" || $3 < k + 0) { k = $3 }
                   $1 == c && $2 == s { run[sprintf("%.4f", $3)] = 1 }
                   END { if (k != "" && k - d > lo + 1e-9 && !(sprintf("%.4f", k - d) in run))
                             printf "%g", k - d }' "$CSV")
        [ -n "$load" ] && "$run" "$c" "$load" "$@"
    done
}

# bs_run CASE LOAD TOPOLOGY-LINES VCS FLITS TRAFFIC: one BookSim run (or
# the previous CSV's row for it); the topology lines come last and so
# override the defaults above them (BookSim takes a key's last value).
bs_run() {
    row=$(awk -F, -v c="$1" -v l="$2" '$1 == c && $2 == "booksim" && ($3 - l) ^ 2 < 1e-12 { r = $0 }
                                     END { print r }' "$PREV")
    if [ -n "$row" ]; then
        echo "$row" >> "$CSV"
        return
    fi
    cat > "$T/bs.cfg" <<CFG
num_vcs = $4;
vc_buf_size = 8;
packet_size = $5;
traffic = $6;
injection_rate = $(awk -v l="$2" -v f="$5" 'BEGIN { printf "%.6f", l / f }');
injection_process = bernoulli;
sim_type = throughput;
sample_period = 1000;
warmup_periods = 3;
max_samples = 3;
routing_delay = 1;
vc_alloc_delay = 1;
sw_alloc_delay = 1;
st_final_delay = 1;
$3
CFG
    "$BOOKSIM" "$T/bs.cfg" > "$T/bs.out" 2>&1
    acc=$(sed -n 's/^Accepted flit rate average = \([0-9.e+-]*\) .*/\1/p' "$T/bs.out" | tail -1)
    lat=$(sed -n 's/^Packet latency average = \([0-9.e+-]*\) .*/\1/p' "$T/bs.out" | tail -1)
    echo "$1,booksim,$2,${acc:-nan},${lat:-nan}" >> "$CSV"
}
booksim() { # CASE TOPOLOGY-LINES VCS FLITS TRAFFIC
    c=$1; shift
    sweep "$c" booksim bs_run "$@"
}

json_count() { sed -n 's/.*"latency_packets": \([0-9]*\).*/\1/p' "$1"; }

# wn_run CASE LOAD ROUTER FLITS ARGS...: one Warpnet run. [network]
# preset = booksim sets the cycle, pipeline, allocator, buffers, credits
# and sources described above (and each topology's BookSim routing:
# the torus's dateline and ties, the fat-tree's per-packet up ports); the
# output-queued router has no allocator, and ignores those keys. $IQX is
# added to input-queued runs (the dragonfly's internal speed-up).
wn_run() {
    c=$1 load=$2 r=$3 f=$4; shift 4
    iq=
    [ "$r" = input-queued ] && iq=${IQX:-}
    # A failed run stops the script: the dragonfly case once read the
    # previous run's summary.json for every one of its runs.
    rm -rf "$T/o"
    # shellcheck disable=SC2086 # $iq is a list of options
    "$W" --quiet "$@" $iq --network.router="$r" \
        --network.packet_size=${f}B --workload.message_size=${f}B --workload.load="$load" \
        --end=10us --workload.warmup=3us --out="$T/o" > "$T/w.out" 2>&1 ||
        { echo "bench/booksim.sh: $c at offered $load ($r) failed:" >&2; cat "$T/w.out" >&2; exit 1; }
    acc=$(sed -n 's/.*"accepted_load": \([-0-9.eE+]*\).*/\1/p' "$T/o/summary.json")
    lat=$(sed -n 's/.*"packet_latency_ns": {"mean": \([-0-9.eE+]*\).*/\1/p' "$T/o/summary.json")
    [ "$(json_count "$T/o/summary.json")" = 0 ] && lat=nan # nothing sent after warm-up arrived
    echo "$c,warpnet-$r,$load,${acc:-nan},${lat:-nan}" >> "$CSV"
}
warpnet() { # CASE ROUTER FLITS ARGS...
    c=$1 r=$2; shift 2
    sweep "$c" "warpnet-$r" wn_run "$r" "$@"
}

both() { # CASE FLITS ARGS...
    c=$1 f=$2; shift 2
    warpnet "$c" output-queued "$f" "$@"
    warpnet "$c" input-queued "$f" "$@"
}

TORUS_BS="topology = torus;
k = 8;
n = 2;
routing_function = dim_order;"
FT_BS="topology = fattree;
k = 4;
n = 3;
routing_function = nca;"
# The networks alone: every other key comes from the preset (a key a run
# file sets would win over the preset's).
printf '[network]
topology = torus
preset = booksim
[torus]
dims = 8,8
' > "$T/torus.ini"
TORUS_W="$T/torus.ini"
# The fat-tree: the shipped 4-ary 3-tree run file, BookSim's own tree, under
# the preset; the two keys where the run file differs from BookSim are given
# (its 64-byte buffers and Poisson sources: BookSim's are 8 flits and
# Bernoulli); packet sizes and loads come with every run.
FT_W="$C/fattree-4ary3tree.ini --network.preset=booksim --network.vc_buffer=8B --workload.arrivals=bernoulli"
DF_BS="topology = dragonflynew;
k = 2;
n = 1;
vc_buf_size = 256;
wait_for_tail_credit = 0;
vc_allocator = separable_input_first;
sw_allocator = separable_input_first;
credit_delay = 2;
routing_delay = 0;
internal_speedup = 2.0;"
# dragonfly-a4.ini sets its own link_bandwidth, which would win over the
# preset's 1 GB/s (and refuse the preset's 1-ns slot at that rate).
DF_W="$C/dragonfly-a4.ini --network.preset=booksim --network.link_bandwidth=1GB/s --dragonfly.arrangement=absolute --network.link_latency=10ns
    --dragonfly.global_latency=100ns --network.router_delay=1.5ns --network.vc_buffer=256B
    --network.alloc_delay=0.5ns --network.lane_hold=0.5ns"

[ "$TABLE_ONLY" != 1 ] && [ "${COST_ONLY:-0}" != 1 ] && {
for vcs in 2 4 8; do
    booksim "torus-uniform-1flit-${vcs}vc" "$TORUS_BS" $vcs 1 uniform
    # shellcheck disable=SC2086
    both "torus-uniform-1flit-${vcs}vc" 1 $TORUS_W --network.lanes=$((vcs / 2))
done
booksim torus-uniform-8flit-2vc "$TORUS_BS" 2 8 uniform
both torus-uniform-8flit-2vc 8 $TORUS_W
booksim torus-transpose-1flit-4vc "$TORUS_BS" 4 1 transpose
both torus-transpose-1flit-4vc 1 $TORUS_W --network.lanes=2 --workload.pattern=transpose
for f in 1 8; do
    booksim "fattree-uniform-${f}flit-2vc" "$FT_BS" 2 $f uniform
    both "fattree-uniform-${f}flit-2vc" $f $FT_W --network.lanes=2
done
IQX="--network.internal_speedup=2"
booksim dragonfly-uniform-1flit-min "$DF_BS
routing_function = min;" 2 1 uniform
# shellcheck disable=SC2086
both dragonfly-uniform-1flit-min 1 $DF_W --dragonfly.routing=minimal
booksim dragonfly-uniform-1flit-ugal "$DF_BS
routing_function = ugal;" 3 1 uniform
# shellcheck disable=SC2086
both dragonfly-uniform-1flit-ugal 1 $DF_W --dragonfly.routing=ugal-l --dragonfly.ugal_threshold=30B
IQX=
}

# Cost per event: the same 16x16 torus run under both routers (and the
# input-queued one with the allocation the comparison uses), COST_REPS
# interleaved rounds; the table takes each router's best rate, since a
# single run of a fraction of a second moves by tens of percent with
# whatever else the machine does.
[ "$TABLE_ONLY" != 1 ] && {
echo "router,committed_events,run_s,events_per_s" > "$EV"
for rep in $(seq "${COST_REPS:-5}"); do
for r in output-queued input-queued input-queued-booksim; do
    a="--network.router=$r"
    [ $r = input-queued-booksim ] &&
        a="--network.router=input-queued --network.alloc_iters=1 --network.vc_allocation=before-switch --network.alloc_timing=per-cycle"
    # shellcheck disable=SC2086
    "$W" "$C/torus-8x8x8.ini" --torus.dims=16,16 --workload.load=0.5 --end=20us \
        $a --stats-json="$T/st.json" > /dev/null 2>&1
    j=$(tr -d '\n ' < "$T/st.json")
    get() { echo "$j" | sed -n "s/.*\"$1\":\([-0-9.eE+]*\).*/\1/p"; }
    echo "$r,$(get committed),$(get run_s),$(get event_rate)" >> "$EV"
done
done
}

# The table (TABLE_ONLY=1 redraws it and the plot from the CSVs): zero-load
# latency (the curve's lowest load), saturation (peak accepted) and the
# accepted load at offered 1.
awk -F, -v ev="$EV" '
    NR > 1 && (!(($1, $2) in lo) || $3 + 0 < lo[$1, $2]) { lo[$1, $2] = $3 + 0; z[$1, $2] = $5 }
    NR > 1 && $4 + 0 > s[$1, $2] + 0 { s[$1, $2] = $4 }
    NR > 1 && $3 == 1 { a[$1, $2] = $4 }
    NR > 1 && !($1 in seen) { seen[$1] = 1; order[++n] = $1 }
    END {
        printf "| case | zero-load latency (cycles): BookSim / Warpnet OQ / Warpnet IQ | saturation, peak accepted (flits/cycle/node): BookSim / OQ / IQ | accepted at offered 1: BookSim / OQ / IQ | IQ vs BookSim: zero-load, peak, at offered 1 |\n"
        printf "| --- | --- | --- | --- | --- |\n"
        for (i = 1; i <= n; i++) {
            c = order[i]; b = "booksim"; o = "warpnet-output-queued"; q = "warpnet-input-queued"
            printf "| %s | %.1f / %.1f / %.1f | %.3f / %.3f / %.3f | %.3f / %.3f / %.3f | %+.1f cycles, %+.0f %%, %+.0f %% |\n", c,
                z[c, b], z[c, o], z[c, q], s[c, b], s[c, o], s[c, q], a[c, b], a[c, o], a[c, q], z[c, q] - z[c, b],
                (s[c, b] > 0 ? 100 * (s[c, q] - s[c, b]) / s[c, b] : 0),
                (a[c, b] > 0 ? 100 * (a[c, q] - a[c, b]) / a[c, b] : 0)
        }
        while ((getline line < ev) > 0)
            if (line !~ /^router/) { split(line, f, ","); if (f[4] + 0 > rate[f[1]] + 0) rate[f[1]] = f[4] }
        if (rate["input-queued"] > 0)
            printf "\nCost per committed event, 16x16 torus at 50 %% load (seq, best run of each): output-queued %.0f events/s, input-queued %.0f events/s (%.2fx the time per event)",
                rate["output-queued"], rate["input-queued"], rate["output-queued"] / rate["input-queued"]
        if (rate["input-queued-booksim"] > 0)
            printf ", with before-switch VC allocation, 1 allocator round, per cycle %.0f events/s (%.2fx)",
                rate["input-queued-booksim"], rate["output-queued"] / rate["input-queued-booksim"]
        if (rate["input-queued"] > 0)
            printf ".\n"
    }' "$CSV" > "$OUT/booksim.md"
cat "$OUT/booksim.md"

if command -v gnuplot > /dev/null; then
    for c in $(awk -F, 'NR > 1 { print $1 }' "$CSV" | sort -u); do
        for s in booksim warpnet-output-queued warpnet-input-queued; do
            awk -F, -v c="$c" -v s="$s" '$1 == c && $2 == s { print $3, $4, $5 }' "$CSV" | sort -g > "$T/$c-$s.dat"
        done
    done
    {
        echo "set terminal png size 1400,900; set output '$OUT/booksim.png'"
        echo "set multiplot layout 3,4; set key top left; set xlabel 'offered'; set ylabel 'accepted'"
        for c in $(awk -F, 'NR > 1 { print $1 }' "$CSV" | sort -u); do
            echo "set title '$c'; plot '$T/$c-booksim.dat' u 1:2 w lp t 'BookSim', '$T/$c-warpnet-output-queued.dat' u 1:2 w lp t 'OQ', '$T/$c-warpnet-input-queued.dat' u 1:2 w lp t 'IQ'"
        done
        echo "unset multiplot"
    } > "$T/plot.gp"
    gnuplot "$T/plot.gp" && echo "plot: $OUT/booksim.png"
fi
