#!/usr/bin/env bash
# bench/gvt_round.sh — what one GVT round costs, against the rank count and
# the way its reduction travels (issue 49: "measure the round cost against
# the rank count"). PHOLD (4,096 LPs a rank, no remote events: no rollback,
# the same work on every rank) with --safe-events=off runs the same events
# twice on N ranks: once asking for a round every batch (--gvt-interval=1: a
# round starts as soon as the last one ends) and once every 64 batches; the
# extra run time over the extra rounds is what a round costs the busiest
# rank, whatever it spends it on (the reduction, waiting for the slowest
# rank, fossil collection). TRANSPORTS: the --transport values to
# compare (mpi: an MPI_Iallreduce per round; auto: through shared memory
# when every rank is on one node).
#   bench/gvt_round.sh            (RANKS="2" TRANSPORTS="mpi auto" REPS=3)
# Writes bench/results/gvt_round.csv; prints the cost per round. Ranks
# beyond the cores are oversubscribed: their rows are counts, not timings
# (the script says so). Time it on an idle machine.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
reps=${REPS:-3}
mpiexec=${MPIEXEC:-mpiexec}
out=$here/results
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/scenarios.sh"
cores=$(nproc)

csv=$out/gvt_round.csv
echo "ranks,transport,gvt_interval,rep,rounds,committed,run_s,gvt_s,fossil_s,digest,load,oversubscribed,command" | tee "$csv"
for n in ${RANKS:-2}; do
    for t in ${TRANSPORTS:-mpi auto}; do
        for r in $(seq 1 "$reps"); do
            for iv in 1 64; do
                j=$tmp/g.json
                cmd="$mpiexec -n $n $phold --remote=0 --mean=1.0 --lookahead=0.1 --start-events=1 \
--total-lps=$((n * 4096)) --end=100 --synch=opt --safe-events=off --batch=16 --gvt-interval=$iv --transport=$t"
                l=$(load)
                timeout 1200 $cmd --stats-json="$j" --quiet >/dev/null
                printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,"%s"\n' "$n" "$t" "$iv" "$r" \
                    "$(json gvt_rounds "$j")" "$(json committed "$j")" "$(json run_s "$j")" \
                    "$(split gvt "$j")" "$(split fossil "$j")" "$(json committed_digest "$j")" "$l" \
                    "$([ "$n" -gt "$cores" ] && echo yes || echo no)" "$cmd" | tee -a "$csv"
            done
        done
    done
done

# Per rank count and transport: the median over repetitions of
# (run time at interval 1 - at 64) / (rounds at 1 - at 64).
echo "# cost of one GVT round, the busiest rank's run time (median of $reps repetitions; min-max)"
tail -n +2 "$csv" | awk -F, '
    { k = $1 "," $2 "," $4; if ($3 == 1) { r1[k] = $5; t1[k] = $7 } else { r64[k] = $5; t64[k] = $7 }; over[$1] = $12 }
    END { for (k in r1) if (k in r64 && r1[k] > r64[k]) { split(k, p, ","); print p[1], p[2], 1e6 * (t1[k] - t64[k]) / (r1[k] - r64[k]), over[p[1]] } }' |
    sort -k1,1n -k2,2 -k3,3g | awk '
    { k = $1 " " $2; v[k] = v[k] " " $3; n[k]++; o[k] = $4 }
    END { for (k in v) { split(substr(v[k], 2), a, " "); m = (n[k] % 2) ? a[(n[k] + 1) / 2] : (a[n[k] / 2] + a[n[k] / 2 + 1]) / 2
          split(k, p, " ")
          printf "# %s ranks, --transport=%s: %.2f us a round (%.2f-%.2f)%s\n", p[1], p[2], m, a[1], a[n[k]],
                 (o[k] == "yes") ? "  OVERSUBSCRIBED: not a timing" : "" } }' | sort -k2,2n
digests=$(tail -n +2 "$csv" | cut -d, -f1,10 | sort -u | cut -d, -f1 | uniq -d)
[ -z "$digests" ] || echo "# DIGESTS DIFFER at ranks: $digests"
