#!/bin/sh
# bench/ai_collectives.sh — AI-cluster collectives on packet networks (issue
# 52): allreduce and all-to-all completion time against message size and
# node count on a rail-optimised fat-tree (2 planes: every node has a NIC
# port on each rail), a dragonfly and a torus, each against its bandwidth
# bound (allreduce 2(n-1)/n S/B, all-to-all (n-1)/n S/B, B the 100 Gb/s
# injection link), for the algorithms in ALGS; then one Chakra trace (ASTRA-
# sim's 4-rank 1 MiB allreduce, tests/replay/chakra) end to end on 2
# processes. Writes bench/results/ai_collectives.csv (a header row, one row
# per run with its exact command), ai_collectives-allreduce.png and
# ai_collectives-alltoall.png (gnuplot, from the CSV), and prints a one-line
# median summary (completion / bound).
# Usage: bench/ai_collectives.sh [BUILD_DIR]
#   SIZES (default 1KiB 32KiB 1MiB 32MiB; the issue's 1GiB runs with
#   SIZES="1KiB 1MiB 1GiB"), NODES (default 16 64), ALGS (allreduce
#   algorithms, default ring halving-doubling tree), NETS (default
#   fattree dragonfly torus), NP (processes per run, default 1).
#   BIG=1: only the 1,024-rank 1 GiB ring allreduce on a 3-level fat-tree
#   (16 ports, 1 MiB packets), with its wall time and peak memory.
set -u
B=${1:-_build}
W="$B/tools/warpnet/warpnet"
HERE=$(cd "$(dirname "$0")" && pwd)
OUT="$HERE/results"
SIZES=${SIZES:-1KiB 32KiB 1MiB 32MiB}
NODES=${NODES:-16 64}
ALGS=${ALGS:-ring halving-doubling tree}
NETS=${NETS:-fattree dragonfly torus}
NP=${NP:-1}
MPIEXEC=${MPIEXEC:-mpiexec}
[ -x "$W" ] || { echo "bench/ai_collectives.sh: build first ($W missing)" >&2; exit 2; }
mkdir -p "$OUT/tmp"
tmp="$OUT/tmp/ai_collectives"
mkdir -p "$tmp"
B_NS=12.5 # bytes per ns of a 100 Gb/s link

bytes_of() { # 1KiB -> 1024
    case $1 in
    *GiB) echo $((${1%GiB} * 1073741824)) ;; *MiB) echo $((${1%MiB} * 1048576)) ;;
    *KiB) echo $((${1%KiB} * 1024)) ;; *) echo "$1" ;;
    esac
}

network() { # name nodes: the [network] and topology sections
    printf '[network]\nlink_bandwidth = 100Gbps\nlink_latency = 50ns\nrouter_delay = 100ns\n'
    printf 'packet_size = %s\nvc_buffer = %s\n' "${PKT:-4KiB}" "${VCBUF:-64KiB}"
    case $1 in
    fattree) # 2 levels of 16-port switches: 128 nodes; 3 levels: 1,024
        lv=2; [ "$2" -gt 128 ] && lv=3
        printf 'topology = fattree\n[fattree]\nports = 16\nlevels = %s\nplanes = 2\nrail_select = static\n' "$lv"
        printf 'routing = adaptive\nhost_bandwidth = 100Gbps\nswitch_bandwidth = 100Gbps\n' ;;
    dragonfly) # a = 8, p = 4, h = 4: 33 groups, 1,056 nodes
        printf 'topology = dragonfly\n[dragonfly]\na = 8\np = 4\nh = 4\nrouting = ugal-l\nglobal_latency = 100ns\n' ;;
    torus)
        case $2 in 16) d=4,4 ;; 64) d=4,4,4 ;; 256) d=4,8,8 ;; 1024) d=8,8,16 ;; *) d=$2 ;; esac
        printf 'topology = torus\n[torus]\ndims = %s\n' "$d" ;;
    esac
}

run_ini() { # ini -> "completion_ns wall_s rss_kb" (or "" on failure)
    if [ "$NP" -gt 1 ]; then
        /usr/bin/time -f '%e %M' -o "$tmp/time" $MPIEXEC -n "$NP" "$W" --synch=opt "$1" > "$tmp/out" 2>&1 || return 1
    else
        /usr/bin/time -f '%e %M' -o "$tmp/time" "$W" "$1" > "$tmp/out" 2>&1 || return 1
    fi
    c=$(sed -n 's/^  completion_ns *//p' "$tmp/out" | head -1)
    echo "$c $(tail -1 "$tmp/time")"
}

row() { # net nodes op alg size trace-args...
    net=$1 n=$2 op=$3 alg=$4 size=$5
    S=$(bytes_of "$size")
    ini="$tmp/$net-$n-$op-$alg-$size.ini"
    { printf '[engine]\nend = 1000s\n'; network "$net" "$n"
      printf '[workload]\ntype = replay\n[job.0]\ntrace = gen:collective:op=%s,ranks=%s,bytes=%s\n' "$op" "$n" "$S"
      printf '[collectives]\n%s = %s\n' "$op" "$alg"; } > "$ini"
    res=$(run_ini "$ini") || { echo "bench/ai_collectives.sh: $ini failed: $(tail -2 "$tmp/out")" >&2; return; }
    set -- $res
    if [ "$op" = allreduce ]; then num=2; else num=1; fi
    bound=$(awk -v n="$n" -v s="$S" -v b="$B_NS" -v k="$num" 'BEGIN { printf "%.3f", k * (n - 1) / n * s / b }')
    ratio=$(awk -v c="$1" -v b="$bound" 'BEGIN { printf "%.4f", c / b }')
    echo "$net,$n,$op,$alg,$S,$1,$bound,$ratio,$2,$3,$W $ini" >> "$CSV"
    echo "$net n=$n $op $alg $size: $1 ns, bound $bound ns (x$ratio), ${2}s, ${3} KiB"
}

if [ "${BIG:-0}" = 1 ]; then
    CSV="$OUT/ai_collectives-big.csv"
    echo "network,nodes,op,algorithm,bytes,completion_ns,bound_ns,ratio,wall_s,peak_rss_kb,command" > "$CSV"
    PKT=1MiB VCBUF=4MiB row fattree 1024 allreduce ring 1GiB
    exit 0
fi

CSV="$OUT/ai_collectives.csv"
echo "network,nodes,op,algorithm,bytes,completion_ns,bound_ns,ratio,wall_s,peak_rss_kb,command" > "$CSV"
for net in $NETS; do
    for n in $NODES; do
        for size in $SIZES; do
            for alg in $ALGS; do
                row "$net" "$n" allreduce "$alg" "$size"
            done
            row "$net" "$n" alltoall direct "$size"
        done
    done
done

# One Chakra trace end to end on 2 processes (ASTRA-sim's 4-rank 1 MiB allreduce).
ini="$tmp/chakra.ini"
{ printf '[engine]\nend = 1s\n'; network fattree 4
  printf '[workload]\ntype = replay\n[job.0]\ntrace = %s/../tests/replay/chakra/all_reduce\n' "$HERE"
  printf '[replay]\nranks_csv = %s/chakra-ranks.csv\n' "$tmp"; } > "$ini"
rm -f "$tmp"/chakra-ranks.csv*
if $MPIEXEC -n 2 "$W" --synch=opt "$ini" > "$tmp/out" 2>&1; then
    c=$(sed -n 's/^  completion_ns *//p' "$tmp/out" | head -1)
    echo "chakra,4,allreduce,ring,1048576,$c,,,,,$MPIEXEC -n 2 $W --synch=opt $ini" >> "$CSV"
    # ranks_csv on 2 processes: one file per process, chakra-ranks.csv.P
    echo "Chakra all_reduce (ASTRA-sim sample) on 2 processes: $c ns; per rank (job,rank,finish_ns):" \
        "$(cat "$tmp"/chakra-ranks.csv* | grep -v '^job' | sort -t, -k2n | tr '\n' ' ')"
else
    echo "bench/ai_collectives.sh: the Chakra run failed: $(tail -2 "$tmp/out")" >&2
fi

if command -v gnuplot > /dev/null; then
    for op in allreduce alltoall; do
        awk -F, -v op="$op" 'NR > 1 && $3 == op && $1 != "chakra" { print > ("'"$tmp"'/" $1 "-" $2 "-" $4 ".dat") }' "$CSV"
        plots=""
        for f in "$tmp"/*.dat; do
            [ -f "$f" ] || continue
            t=$(basename "$f" .dat)
            plots="$plots${plots:+, }'$f' using 5:6 with linespoints title '$t'"
        done
        [ -n "$plots" ] && gnuplot <<EOF
set datafile separator ','
set terminal png size 900,600
set output '$OUT/ai_collectives-$op.png'
set logscale xy
set xlabel 'bytes'
set ylabel 'completion (ns)'
set title '$op completion time against size (bench/ai_collectives.sh)'
set key left top
plot $plots
EOF
        rm -f "$tmp"/*.dat
    done
fi
awk -F, 'NR > 1 && $8 != "" { print $8 }' "$CSV" | sort -n |
    awk '{ v[NR] = $1 } END { if (NR) printf "median completion / bound over %d runs: %.3f\n", NR, v[int((NR + 1) / 2)] }'
