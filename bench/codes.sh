#!/usr/bin/env bash
# bench/codes.sh — CODES's synthetic-traffic runs side by side with the
# Warpnet run `warpnet convert codes` makes of the same network conf (issue
# 48 item 2; issues 46 and 47 for the new topologies). Builds nothing of
# CODES: CODES_BIN is the folder holding CODES's model-net-synthetic*
# programs (a CMake build's src/), CODES_SRC the codes-org/codes checkout
# whose confs (and the wiring files they name, opened relative to the
# checkout) are read.
#
# Offered load: a fraction L of one NIC port's cn_bandwidth per node, as
# messages of the case's payload with a per-node mean interval
# I = payload / (L x cn_bandwidth). CODES gets --arrival_time = I x its
# servers per node (nw-lp / the network's LPs; each server sends on its
# own), Warpnet --workload.interval = I, both until the end time; the same
# arrival process (CODES's dragonfly-all sends at fixed intervals, the
# others Poisson). Latency is CODES's "average chunk latency" (per packet
# where a packet is one chunk) against Warpnet's packet latency; hops are
# the switches a packet crossed (Warpnet's router-to-router links + 1).
# Wall time is the whole process, start-up included, each run alone.
#
# Writes bench/results/codes.csv and prints it; bench/results/codes.md is
# the table for docs/validation.md, and with gnuplot bench/results/codes.png
# plots wall time per case, CODES beside Warpnet, and the ratio of
# their mean latencies.
#   CODES_BIN=.../codes/build/src CODES_SRC=.../codes bench/codes.sh
#   CASES="fattree slimfly ..." (default: all), LOADS="0.05 0.5"
#   TABLE_ONLY=1 redraws codes.md and codes.png from codes.csv, no runs.
# Skips (exit 77) without CODES. The dual-plane conf makes CODES allocate
# about 17 GB: CASES without dualplane on a smaller machine.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
codes_bin=${CODES_BIN:-}
codes_src=${CODES_SRC:-}
table_only=${TABLE_ONLY:-}
if [ -z "$table_only" ] && { [ -z "$codes_bin" ] || [ -z "$codes_src" ] || [ ! -x "$codes_bin/model-net-synthetic" ] \
    || [ ! -d "$codes_src/src/network-workloads/conf" ]; }; then
    echo "SKIP: set CODES_BIN (the folder with model-net-synthetic) and CODES_SRC (a codes-org/codes checkout)"
    exit 77
fi
cases=${CASES:-fattree summit dualplane slimfly dragonfly dfplus dfdally theta dfplus8k dfdally3k}
loads=${LOADS:-0.05 0.5}
out=$here/results
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
conf_dir=$codes_src/src/network-workloads/conf
# CODES runs in a folder beside a link to the checkout's src/: its confs name
# wiring files as ../src/network-workloads/..., relative to a build folder,
# and it writes its output folders into the folder it runs in
mkdir -p "$tmp/run"
ln -s "$codes_src/src" "$tmp/src"

# case -> program, conf (under src/network-workloads/conf), payload (B),
# end time at the low and at the high load (ns)
case_def() {
    case $1 in
    fattree) echo "model-net-synthetic-fattree modelnet-synthetic-fattree.conf 512 500000 100000" ;;
    summit) echo "model-net-synthetic-fattree modelnet-synthetic-fattree-summit-k36-n3564.conf 512 10000 2000" ;;
    dualplane) echo "model-net-synthetic-fattree dual-plane-fattree.conf 512 10000 2000" ;;
    slimfly) echo "model-net-synthetic-slimfly modelnet-synthetic-slimfly-min.conf 256 200000 50000" ;;
    dragonfly) echo "model-net-synthetic modelnet-synthetic-dragonfly.conf 2048 50000 10000" ;;
    dfplus) echo "model-net-synthetic-dragonfly-all dragonfly-plus/dfp-test.conf 2048 200000 50000" ;;
    dfdally) echo "model-net-synthetic-dragonfly-all dragonfly-dally/dfdally_72.conf 2048 500000 20000" ;;
    theta) echo "model-net-synthetic-dragonfly-all dragonfly-custom/modelnet-test-dragonfly-theta.conf 2048 20000 5000" ;;
    dfplus8k) echo "model-net-synthetic-dragonfly-all dragonfly-plus/dfp_8k.conf 2048 20000 5000" ;;
    dfdally3k) echo "model-net-synthetic-dragonfly-all dragonfly-dally/dfdally_3k.conf 2048 50000 10000" ;;
    *) echo "bench/codes.sh: unknown case '$1' (fattree summit dualplane slimfly dragonfly dfplus dfdally theta dfplus8k dfdally3k)" >&2; exit 2 ;;
    esac
}

# conf_value FILE KEY: a PARAMS or LPGROUPS value, quotes stripped
conf_value() { sed -n "s/^[[:space:]]*$2[[:space:]]*=[[:space:]]*\"\{0,1\}\([^\";]*\)\"\{0,1\};.*/\1/p" "$1" | head -1; }

# servers per node: nw-lp over the network's own LPs (modelnet_X, not its routers or switches)
servers_per_node() {
    local nw net
    nw=$(conf_value "$1" nw-lp)
    net=$(sed -n 's/^[[:space:]]*modelnet_[a-z_]*[[:space:]]*=[[:space:]]*"\([0-9]*\)".*/&/p' "$1" \
        | grep -v -e _router -e _switch | sed 's/.*"\([0-9]*\)".*/\1/' | head -1)
    echo $((nw / net))
}

# wall_of CMD...: runs CMD, its output in $tmp/log; prints the wall seconds
wall_of() {
    local t0 t1
    t0=$(date +%s.%N)
    "$@" > "$tmp/log" 2>&1 || { echo "bench/codes.sh: failed: $*" >&2; tail -5 "$tmp/log" >&2; exit 1; }
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}

csv=$out/codes.csv
[ -n "$table_only" ] && cases=
[ -n "$table_only" ] || echo "case,nodes,load,sim,end_ns,mean_latency_ns,max_latency_ns,hops,delivered,events,wall_s,command" | tee "$csv"
for c in $cases; do
    read -r prog conf payload end_low end_high <<< "$(case_def "$c")"
    f=$conf_dir/$conf
    cn=$(conf_value "$f" cn_bandwidth)
    spn=$(servers_per_node "$f")
    # CODES opens wiring files relative to the checkout: convert and run from there
    (cd "$codes_src" && "$warpnet" convert codes "src/network-workloads/conf/$conf") > "$tmp/$c.ini" 2> "$tmp/conv.err" \
        || { echo "bench/codes.sh: $conf does not convert: $(tail -1 "$tmp/conv.err")" >&2; exit 1; }
    # the converter writes a default load; the interval below replaces it
    sed -i '/^load = /d' "$tmp/$c.ini"
    arrivals=poisson
    [ "$prog" = model-net-synthetic-dragonfly-all ] && arrivals=fixed
    for load in $loads; do
        end=$end_low
        awk -v l="$load" 'BEGIN { exit !(l > 0.2) }' && end=$end_high
        node_iv=$(awk -v p="$payload" -v l="$load" -v b="$cn" 'BEGIN { printf "%.3f", p / (l * b) }')
        svr_iv=$(awk -v i="$node_iv" -v s="$spn" 'BEGIN { printf "%.3f", i * s }')
        case $prog in
        model-net-synthetic-fattree) extra=(--payload_size="$payload") ;;
        model-net-synthetic-dragonfly-all) extra=(--payload_sz="$payload" --num_messages=100000000) ;;
        *) extra=(--payload_size="$payload" --num_messages=100000000) ;;
        esac
        cmd=("$codes_bin/$prog" --synch=1 --traffic=1 --arrival_time="$svr_iv" "${extra[@]}" --end="$end"
            -- "../src/network-workloads/conf/$conf")
        wall=$(cd "$tmp/run" && wall_of "${cmd[@]}")
        # the programs print these with or without colons and semicolons
        lat=$(sed -n 's/.*average chunk latency:\{0,1\} \([0-9.]*\) us;\{0,1\} maximum chunk latency:\{0,1\} \([0-9.]*\) us.*/\1 \2/p' "$tmp/log" | head -1)
        hops=$(sed -n 's/.*Average number of \(router \)\{0,1\}hops traversed:\{0,1\} \([0-9.]*\).*/\2/p' "$tmp/log" | head -1)
        done_pk=$(sed -n 's/.*Total packets generated:\{0,1\} [0-9]*;\{0,1\} finished:\{0,1\} \([0-9]*\).*/\1/p' "$tmp/log" | head -1)
        ev=$(sed -n 's/^[[:space:]]*Net Events Processed[[:space:]]*\([0-9]*\).*/\1/p' "$tmp/log" | head -1)
        nodes=$(awk -v r="$(conf_value "$f" repetitions)" -v n="$(conf_value "$f" nw-lp)" -v s="$spn" 'BEGIN { print r * n / s }')
        [ -n "$lat" ] && [ -n "$hops" ] && [ -n "$ev" ] \
            || { echo "bench/codes.sh: no result in CODES's output for $c at load $load" >&2; tail -5 "$tmp/log" >&2; exit 1; }
        read -r mean max <<< "$lat"
        echo "$c,$nodes,$load,codes,$end,$(awk -v m="$mean" 'BEGIN { printf "%.1f", m * 1000 }'),$(awk -v m="$max" 'BEGIN { printf "%.1f", m * 1000 }'),$hops,$done_pk,$ev,$wall,\"(cd \$CODES_SRC/build && \$CODES_BIN/${cmd[*]#"$codes_bin/"})\"" | tee -a "$csv"

        wcmd=("$warpnet" "$tmp/$c.ini" --end="${end}ns" --workload.pattern=uniform --workload.interval="${node_iv}ns"
            --workload.message_size="${payload}B" --workload.arrivals="$arrivals" --quiet --out="$tmp/out")
        wall=$(wall_of "${wcmd[@]}")
        s=$tmp/out/summary.json
        row=$(python3 - "$s" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
def find(d, *keys):
    for k in keys:
        d = d[k]
    return d
print(",".join(str(x) for x in (
    j["nodes"],
    "%.1f" % find(j, "packet_latency_ns", "mean"),
    "%.1f" % find(j, "packet_latency_ns", "max"),
    "%.4f" % (j["hops_mean"] + 1),
    j["delivered_packets"],
    find(j, "engine", "committed"))))
EOF
)
        IFS=, read -r wnodes wmean wmax whops wdone wev <<< "$row"
        echo "$c,$wnodes,$load,warpnet,$end,$wmean,$wmax,$whops,$wdone,$wev,$wall,\"warpnet <(warpnet convert codes $conf) --end=${end}ns --workload.interval=${node_iv}ns --workload.message_size=${payload}B --workload.arrivals=$arrivals\"" | tee -a "$csv"
    done
done

# the table: per case and load, Warpnet against CODES
python3 - "$csv" > "$out/codes.md" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("| case | nodes | load | mean latency ns, CODES / Warpnet (diff) | max ns | switches crossed | delivered | events | wall s | CODES / Warpnet wall |")
print("|---|---|---|---|---|---|---|---|---|---|")
by = {(r["case"], r["load"], r["sim"]): r for r in rows}
for (case, load, sim), c in by.items():
    if sim != "codes" or (case, load, "warpnet") not in by:
        continue
    w = by[(case, load, "warpnet")]
    d = (float(w["mean_latency_ns"]) / float(c["mean_latency_ns"]) - 1) * 100
    ratio = float(c["wall_s"]) / max(float(w["wall_s"]), 0.01)
    print(f"| {case} | {c['nodes']} | {load} | {c['mean_latency_ns']} / {w['mean_latency_ns']} ({d:+.1f} %) "
          f"| {c['max_latency_ns']} / {w['max_latency_ns']} | {c['hops']} / {w['hops']} "
          f"| {c['delivered']} / {w['delivered']} | {c['events']} / {w['events']} "
          f"| {c['wall_s']} / {w['wall_s']} | {ratio:.1f}x |")
EOF
cat "$out/codes.md"

if command -v gnuplot > /dev/null; then
    for sim in codes warpnet; do
        awk -F, -v s="$sim" 'NR > 1 && $4 == s { print $1 "," $3, $11, $6 }' "$csv" > "$tmp/$sim.dat"
    done
    paste -d' ' "$tmp/codes.dat" "$tmp/warpnet.dat" > "$tmp/both.dat"
    cat > "$tmp/plot.gp" <<EOF
set terminal png size 1400,600 noenhanced; set output '$out/codes.png'
set multiplot layout 1,2
set style data histograms; set style histogram clustered gap 1; set style fill solid 0.8 border -1
set xtics rotate by -45; set key top left; set grid ytics
set title 'wall time (s, log scale), whole process'; set logscale y
plot '$tmp/both.dat' u 2:xtic(1) t 'CODES', '' u 5 t 'Warpnet'
unset logscale y; set title 'mean packet latency, Warpnet / CODES'; set yrange [0:*]
plot '$tmp/both.dat' u (\$6 / \$3):xtic(1) t 'Warpnet / CODES', 1 w l lt -1 notitle
unset multiplot
EOF
    gnuplot "$tmp/plot.gp" && echo "plot: $out/codes.png"
fi
