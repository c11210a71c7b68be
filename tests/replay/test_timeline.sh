#!/bin/sh
# test_timeline.sh — [replay] timeline = FILE.json / FILE.prv on the BigSim
# sample (32 ranks, 4x4x2 torus). The JSON is trace-event JSON by schema
# (every event's phase and fields, slices of a track never overlap, each
# message one flow start and one flow end bound to send/arrive anchors at its
# times); its task slices are exactly the CSV timeline's rows; its flows are
# the run's messages. The Paraver trace parses by the .prv grammar (header,
# state/event/communication records within the header's objects and time,
# sorted), with its .pcf naming every state and event used and its .row every
# thread. timeline_ranks limits both; a timeline changes no result; the files
# are the same on 2 processes. Perfetto's trace processor loads the JSON when
# trace_processor_shell is installed (no Debian or npm package provides it).
set -u
W="${top_builddir:-.}/tools/warpnet/warpnet"
S="${top_srcdir:-..}/../shared/traces"
[ -x "$W" ] || { echo "SKIP: $W not built"; exit 77; }
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
W=$(limited "$W")
command -v python3 > /dev/null || { echo "SKIP: python3 checks the files"; exit 77; }
tmp=$(mktemp -d /tmp/warpnet-timeline.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# The shared BigSim sample where it is beside the checkout; in a plain clone a
# 32-rank stencil generated here, so the writers are tested in every clone.
trace="$S/bigsim-jacobi2d-32"
if [ ! -d "$trace" ]; then
    echo "note: sample traces not found in $S; a generated 32-rank stencil instead"
    T="${top_builddir:-.}/tools/trace/warpnet-trace"
    trace="$tmp/stencil32"
    "$(limited "$T")" gen stencil2d px=8 py=4 iters=3 --binary -o "$trace" > /dev/null 2>&1 ||
        { echo "FAIL: warpnet-trace gen stencil2d"; exit 1; }
fi
fail=0
die() { echo "FAIL: $*"; fail=1; }
digest() { sed -n 's/.*committed digest: //p' "$1"; }

printf '[engine]\nend = 1s\n[network]\ntopology = torus\nlink_bandwidth = 12.5GB/s\npacket_size = 256B\n' > "$tmp/r.ini"
printf 'vc_buffer = 4KiB\n[torus]\ndims = 4,4,2\n[workload]\ntype = replay\n[job.0]\ntrace = %s\n' \
    "$trace" >> "$tmp/r.ini"
run() { # OUT ARGS...
    out=$1; shift
    timeout 120 "$W" "$tmp/r.ini" "$@" > "$out" 2>&1 || die "warpnet $*: $(tail -3 "$out")"
}
run "$tmp/plain"
run "$tmp/csv" --replay.timeline="$tmp/t.csv"
run "$tmp/json" --replay.timeline="$tmp/t.json"
run "$tmp/prv" --replay.timeline="$tmp/t.prv"
run "$tmp/json8" --replay.timeline="$tmp/t8.json" --replay.timeline_ranks=8
run "$tmp/prv8" --replay.timeline="$tmp/t8.prv" --replay.timeline_ranks=8
for f in csv json prv; do
    [ "$(digest "$tmp/$f")" = "$(digest "$tmp/plain")" ] || die "timeline $f changed the digest"
done
msgs=$(awk '$1 == "messages" && $2 ~ /^[0-9]+$/ { print $2; exit }' "$tmp/plain")

python3 - "$tmp" "$msgs" <<'EOF' || fail=1
import json, sys, collections
tmp, msgs = sys.argv[1], int(sys.argv[2])
bad = []
def check(cond, what):
    if not cond:
        bad.append(what)

def load_json(path, limit):
    d = json.load(open(path))
    check(isinstance(d, dict) and isinstance(d.get("traceEvents"), list), path + ": no traceEvents list")
    ev = d["traceEvents"]
    tracks = collections.defaultdict(list)
    flows = collections.defaultdict(list)
    anchors = set()
    for e in ev:
        ph = e.get("ph")
        check(ph in ("M", "X", "s", "f"), "phase %r" % ph)
        check(isinstance(e.get("pid"), int) and isinstance(e.get("tid"), int), "pid/tid of %r" % e)
        check(isinstance(e.get("name"), str), "name of %r" % e)
        if ph == "M":
            check(e["name"] in ("process_name", "thread_name", "thread_sort_index") and "args" in e, "M %r" % e)
            continue
        check(isinstance(e.get("ts"), (int, float)) and e["ts"] >= 0, "ts of %r" % e)
        check(isinstance(e.get("cat"), str), "cat of %r" % e)
        if ph == "X":
            check(isinstance(e.get("dur"), (int, float)) and e["dur"] >= 0, "dur of %r" % e)
            if e["cat"] == "task":
                tracks[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"], e["name"], e["args"]["task"]))
            else:
                anchors.add((e["tid"], e["ts"], e["name"]))
        else:
            check("id" in e, "flow without id %r" % e)
            flows[e["id"]].append(e)
    for k, sl in tracks.items():
        sl.sort()
        for a, b in zip(sl, sl[1:]):
            check(a[1] <= b[0] + 1e-6, "track %r: slices overlap %r %r" % (k, a, b))
    for i, pair in flows.items():
        phs = sorted(p["ph"] for p in pair)
        check(phs == ["f", "s"], "flow %r: phases %r" % (i, phs))
        for p in pair:
            check((p["tid"], p["ts"], "send" if p["ph"] == "s" else "arrive") in anchors,
                  "flow %r %s has no anchor slice" % (i, p["ph"]))
            if p["ph"] == "f":
                check(p.get("bp") == "e", "flow end without bp=e")
        if len(pair) == 2:
            s, f = sorted(pair, key=lambda p: p["ph"], reverse=True)
            check(s["ts"] <= f["ts"], "flow %r arrives before it is sent" % i)
    check(len(tracks) == limit, "%s: %d tracks, want %d" % (path, len(tracks), limit))
    return tracks, flows

tracks, flows = load_json(tmp + "/t.json", 32)
check(len(flows) == msgs, "%d flows, the run sent %d messages" % (len(flows), msgs))
# the CSV timeline's rows, per rank: (start, end, task)
rows = collections.defaultdict(list)
for line in open(tmp + "/t.csv").read().split("\n")[1:]:
    if line:
        job, rank, task, a, b = line.split(",")
        rows[int(rank)].append((round(float(a), 3), round(float(b), 3), task))
got = collections.defaultdict(list)
for (pid, tid), sl in tracks.items():
    for a, b, name, task in sl:
        got[tid - 1].append((round(a * 1e3, 3), round(b * 1e3, 3),
                             ("rx%d" if name == "receive overhead" else "%d") % task))
for r in range(32):
    check(sorted(rows[r]) == sorted(got[r]), "rank %d: JSON slices differ from the CSV rows" % r)
tracks8, flows8 = load_json(tmp + "/t8.json", 8)
check(all(tid <= 8 for (pid, tid) in tracks8), "timeline_ranks=8 drew rank >= 8")

def load_prv(path, ntasks):
    lines = open(path).read().split("\n")
    import re
    m = re.match(r"#Paraver \((\d\d/\d\d/\d{4}) at (\d\d:\d\d)\):(\d+)_ns:(\d+)\(([\d,]+)\):(\d+):(.*)$", lines[0])
    check(m is not None, "%s: header %r" % (path, lines[0][:80]))
    if not m:
        return
    ftime, nodes, nappl = int(m.group(3)), int(m.group(4)), int(m.group(6))
    cpus = [int(x) for x in m.group(5).split(",")]
    check(len(cpus) == nodes and nappl == 1, "header counts")
    appl = re.match(r"(\d+)\(([\d:,]+)\)$", m.group(7))
    check(appl is not None and int(appl.group(1)) == ntasks, "application list %r" % m.group(7)[:60])
    threads = [tuple(map(int, x.split(":"))) for x in appl.group(2).split(",")]
    check(len(threads) == ntasks and all(t == 1 and 1 <= n <= nodes for t, n in threads), "task list")
    last, states, events, comms = -1, set(), set(), 0
    for ln in lines[1:]:
        if not ln:
            continue
        f = [int(x) for x in ln.split(":")]
        check(f[0] in (1, 2, 3), "record type %r" % ln)
        check(1 <= f[1] <= sum(cpus) and f[2] == 1 and 1 <= f[3] <= ntasks and f[4] == 1, "object of %r" % ln)
        t = f[5]
        check(t >= last, "records not sorted at %r" % ln)
        last = t
        if f[0] == 1:
            check(len(f) == 8 and f[5] < f[6] <= ftime, "state %r" % ln)
            states.add(f[7])
        elif f[0] == 2:
            check(len(f) >= 8 and len(f) % 2 == 0 and f[5] <= ftime, "event %r" % ln)
            events.update(f[6::2])
        else:
            check(len(f) == 15 and f[5] <= f[6] and f[11] <= f[12] <= ftime and f[5] <= f[11], "comm %r" % ln)
            check(1 <= f[7] <= sum(cpus) and f[8] == 1 and 1 <= f[9] <= ntasks and f[10] == 1,
                  "comm receiver %r" % ln)
            comms += 1
    base = path[:-4]
    pcf = open(base + ".pcf").read()
    for s in states:
        check(re.search(r"^%d\s+\S" % s, pcf.split("STATES\n")[1], re.M) is not None, "state %d not in .pcf" % s)
    for e in events:
        check(re.search(r"^0\s+%d\s+\S" % e, pcf, re.M) is not None, "event %d not in .pcf" % e)
    row = open(base + ".row").read()
    check(("LEVEL THREAD SIZE %d" % ntasks) in row and row.count("\nTHREAD 1.") == ntasks, ".row threads")
    return comms

check(load_prv(tmp + "/t.prv", 32) == msgs, "Paraver communications != messages")
load_prv(tmp + "/t8.prv", 8)
for b in bad[:10]:
    print("FAIL:", b)
if bad:
    sys.exit(1)
print("ok   JSON schema, %d flows, slices = CSV rows; Paraver grammar, %d communications" % (len(flows), msgs))
EOF

if [ -n "${MPIEXEC:-}" ]; then
    timeout 120 $MPIEXEC -n 2 "$W" --synch=opt "$tmp/r.ini" --replay.timeline="$tmp/t2.json" > "$tmp/opt" 2>&1 \
        || die "2 processes: $(tail -3 "$tmp/opt")"
    cmp -s "$tmp/t.json" "$tmp/t2.json" && echo "ok   the same JSON on 2 processes" || die "JSON differs on 2 processes"
fi
if command -v trace_processor_shell > /dev/null; then
    n=$(echo "select count(*) from flow;" | timeout 60 trace_processor_shell -q /dev/stdin "$tmp/t.json" 2>/dev/null | tail -1)
    [ "$n" = "$msgs" ] && echo "ok   Perfetto's trace processor: $n flows" || die "trace processor: '$n' flows, want $msgs"
else
    echo "note: trace_processor_shell not installed (no Debian or npm package has it); Perfetto load skipped"
fi
exit $fail
