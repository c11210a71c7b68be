#!/bin/sh
# test_replay_loggp.sh — GOAL schedules replayed on the loggp network give
# the finish times of LogGOPS rules, computed by hand here with LogGOPSim's
# defaults (L 2500, o 1500, g 1000, G 6, O 0 ns, S 65535 B): a send occupies
# the CPU o after the NIC gap, the message is at the receiver o + L after the
# send starts, its processing occupies the receiver's CPU o + (s-1)G, and a
# send above S ends only when the receiver matches it.
set -u
W="${top_builddir:-.}/tools/warpnet/warpnet"
[ -x "$W" ] || { echo "SKIP: $W not built"; exit 77; }
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
W=$(limited "$W")
tmp=$(mktemp -d /tmp/warpnet-replay-loggp.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
die() { echo "FAIL: $*"; fail=1; }

run() { # name goal-file expected "r0 r1 ..." [engine options]
    name=$1 goal=$2 want=$3; shift 3
    n=$(sed -n 's/^num_ranks //p' "$goal")
    printf '[engine]\nend = 1s\n[network]\ntopology = loggp\n[loggp]\nnodes = %s\n' "$n" > "$tmp/l.ini"
    printf '[workload]\ntype = replay\n[job.0]\ntrace = %s\n[replay]\nranks_csv = %s\n' "$goal" "$tmp/r.csv" >> "$tmp/l.ini"
    "$W" "$@" "$tmp/l.ini" > "$tmp/out" 2>&1 || { die "$name: $(tail -3 "$tmp/out")"; return; }
    got=$(awk -F, 'NR > 1 { printf "%s%.10g", sep, $3; sep = " " }' "$tmp/r.csv")
    [ "$got" = "$want" ] && echo "ok   $name $*: $got" || die "$name $*: rank finishes '$got', want '$want'"
}

cat > "$tmp/pp.goal" <<'GOAL'
num_ranks 2
rank 0 {
 a: send SIZE to 1 tag 0
 b: recv SIZE from 1 tag 0
 b requires a
}
rank 1 {
 a: recv SIZE from 0 tag 0
 b: send SIZE to 0 tag 0
 b requires a
}
GOAL
sed 's/SIZE/1b/' "$tmp/pp.goal" > "$tmp/pp1.goal"
sed 's/SIZE/1024b/' "$tmp/pp.goal" > "$tmp/pp1k.goal"
# 1 byte: round trip 2 (2o + L) = 11000; rank 1 ends when its send has left: 5500 + o
run "ping-pong 1B" "$tmp/pp1.goal" "11000 7000"
# 1 KiB: 2 (2o + L + 1023 G) = 23276; rank 1: 1500 + 2500 + 1500 + 6138 + o
run "ping-pong 1KiB" "$tmp/pp1k.goal" "23276 13138"

cat > "$tmp/bc.goal" <<'GOAL'
num_ranks 4
rank 0 {
 a: send 1024b to 2 tag 0
 b: send 1024b to 1 tag 0
 b requires a
}
rank 1 {
 a: recv 1024b from 0 tag 0
}
rank 2 {
 a: recv 1024b from 0 tag 0
 b: send 1024b to 3 tag 0
 b requires a
}
rank 3 {
 a: recv 1024b from 2 tag 0
}
GOAL
# root: 2nd send waits for the NIC gap g + 1023 G = 7138, ends 8638;
# rank 1: 7138 + o + L + o + 1023 G = 18776; rank 2 receives at 4000 + 7638,
# sends until 13138; rank 3: 11638 + 4000 + 7638 = 23276
run "binomial broadcast 1KiB" "$tmp/bc.goal" "8638 18776 13138 23276"

cat > "$tmp/red.goal" <<'GOAL'
num_ranks 4
rank 0 {
 a: recv 1b from 1 tag 0
 b: recv 1b from 2 tag 0
 c: calc 100
 c requires a
 c requires b
}
rank 1 {
 a: send 1b to 0 tag 0
}
rank 2 {
 a: recv 1b from 3 tag 0
 b: send 1b to 0 tag 0
 b requires a
}
rank 3 {
 a: send 1b to 2 tag 0
}
GOAL
# rank 2: 4000 + o = 5500, its send ends 7000; root gets rank 2's message at
# 5500 + 4000, processes it until 11000, then calc 100
run "binomial reduce 1B" "$tmp/red.goal" "11100 1500 7000 1500"
run "binomial reduce 1B" "$tmp/red.goal" "11100 1500 7000 1500" --synch=check
run "binomial broadcast 1KiB" "$tmp/bc.goal" "8638 18776 13138 23276" --synch=debug

# The timeline holds committed task spans; rank 2 pays the receive overhead
# 4000 .. 11638 before its receive task runs.
printf '[engine]\nend = 1s\n[network]\ntopology = loggp\n[loggp]\nnodes = 4\n[workload]\ntype = replay\n' > "$tmp/t.ini"
printf '[job.0]\ntrace = %s\n[replay]\ntimeline = %s\n' "$tmp/bc.goal" "$tmp/tl.csv" >> "$tmp/t.ini"
"$W" --synch=debug "$tmp/t.ini" > "$tmp/out" 2>&1 || die "timeline run: $(tail -2 "$tmp/out")"
for row in "0,2,rx0,4000.000,11638.000" "0,2,0,11638.000,11638.000" "0,3,0,23276.000,23276.000"; do
    grep -qx "$row" "$tmp/tl.csv" || die "timeline lacks $row"
done
[ "$(wc -l < "$tmp/tl.csv")" = 10 ] || die "timeline has $(wc -l < "$tmp/tl.csv") lines, want header + 9 spans"

# Rendezvous above S = 65535: the send ends when the receiver matches it.
sed 's/SIZE/100000b/' "$tmp/pp.goal" > "$tmp/ppbig.goal"
# rank 1 takes the first message at 4000 + o + 99999 G = 605494 and matches it
# then (rank 0's send ends), answers; rank 0 matches at 605494 + 4000 + 601494
run "ping-pong 100000B (rendezvous)" "$tmp/ppbig.goal" "1210988 1210988"
cat > "$tmp/late.goal" <<'GOAL'
num_ranks 2
rank 0 {
 a: send SIZE to 1 tag 0
 b: calc 10
 b requires a
}
rank 1 {
 a: calc 50000
 b: recv SIZE from 0 tag 0
 b requires a
}
GOAL
# eager (1000 B): the send ends after o, the calc at 1510; rank 1 processes the
# message after its calc, 50000 + o + 999 G
sed 's/SIZE/1000b/' "$tmp/late.goal" > "$tmp/late1k.goal"
run "late receiver, eager" "$tmp/late1k.goal" "1510 57494"
# rendezvous (100000 B): rank 0 waits for the match at 50000 + o + 99999 G
sed 's/SIZE/100000b/' "$tmp/late.goal" > "$tmp/late100k.goal"
run "late receiver, rendezvous" "$tmp/late100k.goal" "651504 651494"
run "late receiver, rendezvous" "$tmp/late100k.goal" "651504 651494" --synch=check

printf '[engine]\nend = 1s\n[network]\ntopology = loggp\n[loggp]\nnodes = 4\n[workload]\ntype = replay\n[job.0]\ntrace = x\n' > "$tmp/b.ini"
printf 'num_ranks 1\nrank 0 {\n a: calc 5 cpu 1\n}\n' > "$tmp/cpu.goal"
sed "s|trace = .*|trace = $tmp/cpu.goal|; s|nodes = 4|nodes = 1|" "$tmp/b.ini" > "$tmp/c.ini"
"$W" "$tmp/c.ini" > "$tmp/out" 2>&1 && die "cpu clause accepted silently"
grep -q "task 0 uses cpu 1 / nic 0: the replay runs one CPU" "$tmp/out" || die "cpu clause: $(tail -2 "$tmp/out")"
exit $fail
