#!/usr/bin/env bash
# bench/remote_instr.sh — what a remote event costs in instructions, per
# transport (issue 49): callgrind on both ranks of PHOLD --remote=0.9 on 2
# ranks, --cross=1 (90 % of the events cross) against --cross=0 (the same
# random destinations, none on the other rank), the difference per remote
# event sent. Load does not change an instruction count, but how often a
# waiting rank polls does, so the whole loop (warp_run) moves from run to
# run; its parts say where the difference goes: the send (packing), the
# flush (handing buffers to MPI or a ring), the poll (MPI's progress engine
# or the rings, and unpacking: a pool slot, the copy, the queue insert),
# GVT, and the MPI libraries (libmpich, UCX) however they were reached.
#   bench/remote_instr.sh [mpi] [shm]   (default both; LPS=N, default 65536)
# EVENT=DLmr (or DLmw) counts last-level cache read (write) misses instead,
# with callgrind's cache simulation (D1 48 KiB, LL 2 MiB: this VM's L1d and
# L2 per core; it does not model two cores sharing a line). Prints one CSV
# row per transport and cross; then per transport the count per remote
# event by part.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null || { echo "bench/remote_instr.sh: needs valgrind" >&2; exit 1; }
phold=$build/examples/phold/.libs/phold # libtool's wrapper would be measured too
[ -x "$phold" ] || phold=$build/examples/phold/phold
export LD_LIBRARY_PATH=$build/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mpiexec=${MPIEXEC:-mpiexec}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args="--mean=1.0 --lookahead=0.1 --start-events=1 --total-lps=${LPS:-65536} --end=2 --synch=opt --remote=0.9"
ev=${EVENT:-Ir}
sim=()
[ "$ev" = Ir ] || sim=(--cache-sim=yes --D1=49152,12,64 --LL=2097152,16,64)
parts="warp_run transport_send_event transport_flush transport_poll gvt_step"
json() { sed -n "s/^ *\"$1\": *\"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$2" | head -1; }

# inclusive Ir of each part, then the MPI libraries' own Ir, summed over ranks
count() { # callgrind files...
    for p in $parts; do
        for f in "$@"; do
            callgrind_annotate --show="$ev" --inclusive=yes --threshold=100 "$f" 2>/dev/null |
                awk -v p="$p" '{ n = $0; sub(/^ *[0-9,]+ +\([^)]*\) +/, "", n); sub(/ .*/, "", n)
                                 if (n ~ ("(^|:)" p "$")) { v = $1; gsub(",", "", v); print v; exit } }'
        done | awk '{ s += $1 } END { printf "%d ", s }'
    done
    for f in "$@"; do
        callgrind_annotate --show="$ev" --threshold=100 "$f" 2>/dev/null |
            awk '/\[.*lib(mpi|ucp|uct|ucs)[^/]*\]/ { v = $1; gsub(",", "", v); s += v } END { print s + 0 }'
    done | awk '{ s += $1 } END { printf "%d\n", s }'
}

echo "# $ev"
echo "transport,cross,committed,remote_sent,digest,warp_run,send,flush,poll,gvt,mpi_libs,load"
for tr in ${*:-mpi shm}; do
    for x in 0 1; do
        rm -f "$tmp"/cg.*
        $mpiexec -n 2 valgrind --tool=callgrind "${sim[@]}" --callgrind-out-file="$tmp/cg.%p" "$phold" $args \
            --cross=$x --transport="$tr" --quiet --stats-json="$tmp/j" >/dev/null 2>"$tmp/log" ||
            { cat "$tmp/log" >&2; exit 1; }
        echo "$tr,$x,$(json committed "$tmp/j"),$(json remote_sent "$tmp/j"),$(json committed_digest "$tmp/j"),$(count "$tmp"/cg.* | tr ' ' ,),$(cut -d' ' -f1 /proc/loadavg)"
    done
done | tee "$tmp/rows"
awk -F, '{ for (i = 6; i <= 11; i++) v[$1, $2, i] = $i; r[$1, $2] = $4; t[$1] = 1 }
    END { split("warp_run,send,flush,poll,gvt,mpi_libs", n, ",")
          for (k in t) { d = r[k, 1] - r[k, 0]; if (d <= 0) continue; line = ""
              for (i = 6; i <= 11; i++) line = line sprintf(" %s %.2f", n[i - 5], (v[k, 1, i] - v[k, 0, i]) / d)
              printf "# %s: %s per remote event (cross 1 - cross 0):%s\n", k, ev, line } }' ev="$ev" "$tmp/rows"
