#!/usr/bin/env bash
# bench/partition_measured.sh — partitions from measured traffic (issue 49):
# for each case and rank count, the placement `warpnet tune --partition=N`
# writes from a short probe's traffic (its default probe: a twentieth of
# [engine] end) against topology and metis, counted in conservative runs
# (--synch=cons) to RUN_END on N processes: the share of processed events
# sent to another rank (remote_sent / processed) and the committed events on
# the busiest rank over the mean (committed_per_rank imbalance). Counts only:
# valid on an oversubscribed, loaded machine, since a conservative run
# processes exactly the committed events and sends exactly the remote ones.
# Also prints tune's own estimate (remote share of the probe's link
# traversals). Writes bench/results/partition_measured.csv.
#   bench/partition_measured.sh [RANKS...]      (default: 2 4 8 16)
set -u
. "$(dirname "$0")/lib.sh"
ranks=${*:-2 4 8 16}
out=$here/results/partition_measured.csv
tmp=$(mktemp -d /tmp/partition-measured.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mpiexec=${MPIEXEC:-mpiexec}
# CASE|RUN FILE|RUN_END (past the probe, so the placement is judged on
# traffic it was not measured on as well)
cases="fattree-codes|$top/examples/configs/fattree-8p3l-codes.ini|60us
slimfly-q13|$top/examples/configs/slimfly-q13.ini|20us"

echo "case,ranks,partition,remote_share,committed_imbalance,probe_link_share,committed,digest" >"$out"
while IFS='|' read -r name ini run_end; do
    for n in $ranks; do
        (cd "$tmp" && "$warpnet" tune --partition="$n" "$ini" --write-partition="$name.$n" \
            --out="tune.$name.$n" </dev/null >"tune.$name.$n.out" 2>&1) || {
            echo "tune --partition=$n $name failed:" >&2; cat "$tmp/tune.$name.$n.out" >&2; exit 1; }
        for part in topology metis "file:$tmp/$name.$n"; do
            label=${part%%:*}
            [ "$label" = file ] && label=measured
            probe=$(sed -n "s/^  $label *\([0-9.]*\) %.*/\1/p" "$tmp/tune.$name.$n.out")
            "$mpiexec" -n "$n" "$warpnet" "$ini" --engine.end="$run_end" --workload.warmup=0ns \
                --synch=cons --quiet --partition="$part" --stats-json="$tmp/s.json" </dev/null >"$tmp/run.out" 2>&1 || {
                echo "$name $n $part failed:" >&2; tail -3 "$tmp/run.out" >&2; exit 1; }
            python3 - "$tmp/s.json" "$name" "$n" "$label" "$probe" >>"$out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("%s,%s,%s,%.4f,%.4f,%s,%d,%s" % (sys.argv[2], sys.argv[3], sys.argv[4],
      d["remote_sent"] / d["processed"], d["committed_per_rank"]["imbalance"],
      sys.argv[5], d["committed"], d["committed_digest"]))
PY
            tail -1 "$out"
        done
    done
done <<<"$cases"
