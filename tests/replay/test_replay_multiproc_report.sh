#!/bin/sh
# The per-job replay report (completion, tasks, compute, messages, bytes)
# covers every rank on any number of processes: 1 and 2 processes print the
# same lines for two jobs (a generated all-to-all and a stencil). Then the
# committed timeline renders as a Gantt chart in warpnet report.
set -u
wn="$top_builddir/tools/warpnet/warpnet"
[ -x "$wn" ] || { echo "SKIP: no warpnet binary"; exit 77; }
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
wn=$(limited "$wn")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/r.ini" <<INI
[engine]
end = 1s
[network]
topology = torus
link_bandwidth = 12.5GB/s
link_latency = 50ns
router_delay = 100ns
packet_size = 256B
vc_buffer = 4KiB
[torus]
dims = 4,4
[workload]
type = replay
[job.0]
trace = gen:alltoall:ranks=8,iters=2
[job.1]
trace = gen:stencil2d:px=2,py=4,iters=3
placement = random
INI
"$wn" --quiet "$dir/r.ini" > "$dir/one" 2>&1 || { cat "$dir/one"; echo "FAIL: 1 process"; exit 1; }
$MPIEXEC -n 2 "$wn" --quiet --synch=opt "$dir/r.ini" > "$dir/two" 2>&1 || { cat "$dir/two"; echo "FAIL: 2 processes"; exit 1; }
sed -n '/^replay job/,/messages/p' "$dir/one" > "$dir/one.jobs"
sed -n '/^replay job/,/messages/p' "$dir/two" > "$dir/two.jobs"
[ "$(grep -c '^replay job' "$dir/one.jobs")" = 2 ] || { echo "FAIL: expected two job reports:"; cat "$dir/one"; exit 1; }
if ! cmp -s "$dir/one.jobs" "$dir/two.jobs"; then
    echo "FAIL: per-job report differs between 1 and 2 processes"
    diff "$dir/one.jobs" "$dir/two.jobs"
    exit 1
fi
echo "per-job reports identical on 1 and 2 processes"

command -v gnuplot >/dev/null 2>&1 || { echo "no gnuplot: Gantt chart not checked"; exit 0; }
mkdir "$dir/o"
"$wn" --quiet "$dir/r.ini" --out="$dir/o" --replay.timeline="$dir/o/timeline.csv" > "$dir/tl" 2>&1 ||
    { cat "$dir/tl"; echo "FAIL: run with a timeline"; exit 1; }
rows=$(($(wc -l < "$dir/o/timeline.csv") - 1))
tasks=$(sed -n 's/^  tasks  *\([0-9]*\) of.*/\1/p' "$dir/one" | awk '{ s += $1 } END { print s }')
[ "$rows" = "$tasks" ] || { echo "FAIL: timeline has $rows tasks, the report says $tasks ran"; exit 1; }
"$wn" report "$dir/o" > "$dir/rep" 2>&1 || { cat "$dir/rep"; echo "FAIL: warpnet report"; exit 1; }
[ "$(head -c 4 "$dir/o/gantt.png" | od -An -c | tr -d ' ')" = "211PNG" ] ||
    { echo "FAIL: gantt.png is not a PNG"; exit 1; }
grep -q "gantt.png" "$dir/o/report.md" || { echo "FAIL: report.md does not show gantt.png"; exit 1; }
echo "timeline: $rows tasks, Gantt chart drawn"
