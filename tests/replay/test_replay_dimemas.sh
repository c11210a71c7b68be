#!/bin/sh
# test_replay_dimemas.sh — Dimemas traces end to end: the shipped traces are
# what mktraces.sh writes; warpnet-trace info and convert read them (counts
# and zero-network times as derived in tests/replay/dimemas/README.md);
# replays on simplenet take their closed-form times (ping-pong, rendezvous
# and eager one-way transfers); the stencil on a fat-tree commits the same
# digest sequentially, under --synch=check and on 2 and 4 processes; a task
# -> node mapping file places the ranks; broken traces and mapping files
# stop with one line naming FILE:LINE and exit code 2.
set -u
W="${top_builddir:-.}/tools/warpnet/warpnet"
T="${top_builddir:-.}/tools/trace/warpnet-trace"
D="${top_srcdir:-..}/tests/replay/dimemas"
[ -x "$W" ] && [ -x "$T" ] || { echo "SKIP: warpnet or warpnet-trace not built"; exit 77; }
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
W=$(limited "$W"); T=$(limited "$T")
tmp=$(mktemp -d /tmp/warpnet-replay-dimemas.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
die() { echo "FAIL: $*"; fail=1; }
ok() { echo "ok   $*"; }
run() { timeout 60 "$@"; }

# The shipped traces are the generator's.
sh "$D/mktraces.sh" "$tmp" || die "mktraces.sh failed"
for t in pingpong ring stencil; do
    cmp -s "$tmp/$t.dim" "$D/$t.dim" && ok "$t.dim is what mktraces.sh writes" ||
        die "$t.dim differs from mktraces.sh's output; regenerate it"
done

# warpnet-trace info: the format is found from the header; hand-derived counts.
field() { run "$T" info "$1" | sed -n "s/^$2: //p"; }
check_info() { # trace tasks messages bytes compute ideal
    for kv in "format dimemas" "tasks $2" "messages $3" "message_bytes $4" "compute_ns $5" \
        "ideal_replay_ns $6" "tasks_never_run 0" "messages_unmatched 0"; do
        k=${kv%% *} want=${kv#* }
        got=$(field "$D/$1.dim" "$k")
        [ "$got" = "$want" ] || die "info $1.dim: $k $got, expected $want"
    done
    ok "info $1.dim: $2 tasks, $3 messages, $4 bytes, ideal replay $6 ns"
}
check_info pingpong 24 8 32768 16000 16000
check_info ring 40 8 16384 24000 9000
check_info stencil 1156 498 10229952 548000 36500

# convert: the native form holds the same graph.
run "$T" convert "$D/stencil.dim" "$tmp/stencil.txt" || die "convert stencil.dim"
for k in tasks messages message_bytes ideal_replay_ns dependencies; do
    [ "$(field "$tmp/stencil.txt" $k)" = "$(field "$D/stencil.dim" $k)" ] || die "convert: $k differs"
done
ok "convert stencil.dim -> native text keeps the graph"

ini() { # network-section-lines trace [extra lines]
    printf '[engine]\nend = 1s\n[network]\n%b\n[workload]\ntype = replay\n[job.0]\ntrace = %s\n%b\n' "$1" "$2" "${3:-}"
}
completion() { awk '/^replay job 0:/ { f = 1; next } f && /completion_ns/ { print $2; exit }' "$1"; }
same() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d < 1e-3 && d > -1e-3) }'; }
simplenet() { printf 'topology = simplenet\\n[simplenet]\\nnodes = %s\\nlatency = %s\\nbandwidth = %s' "$@"; }
check_time() { # what run-file expected
    run "$W" "$2" > "$tmp/out" 2>&1 || { die "$1: warpnet failed: $(tail -3 "$tmp/out")"; return; }
    got=$(completion "$tmp/out")
    same "$got" "$3" && ok "$1: completion $got ns = closed form" || die "$1: completion $got ns, closed form $3"
    grep -q "tasks *\([0-9]*\) of \1\$" "$tmp/out" || die "$1: not every task ran"
}

# Ping-pong: iterations x (compute + 2 (L + S/B)).
ini "$(simplenet 2 1us 12.5GB/s)" "$D/pingpong.dim" > "$tmp/pp.ini"
check_time "ping-pong, L = 1 us, B = 12.5 GB/s" "$tmp/pp.ini" "$(awk 'BEGIN { printf "%.3f", 4 * (1500 + 2500 + 2 * (1000 + 4096 / 12.5)) }')"
ini "$(simplenet 2 500ns 1GB/s)" "$D/pingpong.dim" > "$tmp/pp2.ini"
check_time "ping-pong, L = 0.5 us, B = 1 GB/s" "$tmp/pp2.ini" $((4 * (1500 + 2500 + 2 * (500 + 4096))))

# One-way transfer of S bytes: task 0 computes 1 us and sends, task 1
# computes 3 us and receives; L = 1 us, B = 1 GB/s (1 byte/ns).
oneway() { # bytes synchronism
    printf '#DIMEMAS:"oneway":0:2(1,1),1\n1:0:0:0.000001\n2:0:0:1:-1:%s:9:1:%s\n1:1:0:0.000003\n3:1:0:0:-1:%s:9:1:0\n' "$1" "$2" "$1"
}
oneway 100000 0 > "$tmp/big.dim"
oneway 1000 1 > "$tmp/flag.dim"
# rendezvous (100000 B > 64 KiB): the control message leaves at 3 us,
# arrives at 3 + 1 + 0.008 us, the data at + 1 us + 100000 ns
ini "$(simplenet 2 1us 1GB/s)" "$tmp/big.dim" > "$tmp/r.ini"
check_time "rendezvous one-way" "$tmp/r.ini" $((3000 + 1000 + 8 + 1000 + 100000))
# eager (limit raised): the data leaves at 1 us
ini "$(simplenet 2 1us 1GB/s)" "$tmp/big.dim" "[replay]\neager_limit = 1MiB" > "$tmp/e.ini"
check_time "eager one-way" "$tmp/e.ini" $((1000 + 1000 + 100000))
# 1000 B flagged synchronous: eager by size, rendezvous as Dimemas does by default
ini "$(simplenet 2 1us 1GB/s)" "$tmp/flag.dim" > "$tmp/f.ini"
check_time "flagged send, dimemas_rendezvous = size" "$tmp/f.ini" 3000
ini "$(simplenet 2 1us 1GB/s)" "$tmp/flag.dim" "[replay]\ndimemas_rendezvous = trace" > "$tmp/f2.ini"
check_time "flagged send, dimemas_rendezvous = trace" "$tmp/f2.ini" $((3000 + 1000 + 8 + 1000 + 1000))

# A task -> node mapping file places the ranks: the ping-pong's traffic
# shows on terminals 2 and 5 of 8, the time is the same.
printf '# task node\n1 5\n0 2\n' > "$tmp/map.txt"
ini "$(simplenet 8 1us 12.5GB/s)" "$D/pingpong.dim" "placement = $tmp/map.txt" > "$tmp/m.ini"
run "$W" --out="$tmp/mout" "$tmp/m.ini" > "$tmp/out" 2>&1 || die "mapping file: $(tail -2 "$tmp/out")"
same "$(completion "$tmp/out")" 26621.44 || die "mapping file: completion $(completion "$tmp/out")"
busy=$(awk -F, 'NR > 1 && $2 > 0 { printf "%s ", $1 }' "$tmp/mout/terminals.csv")
[ "$busy" = "2 5 " ] && ok "mapping file: tasks on terminals 2 and 5" || die "mapping file: traffic on terminals '$busy', expected 2 and 5"

# The stencil on a 4-port 3-level fat-tree (16 hosts; the shipped example
# run file): one digest everywhere.
ft="${top_srcdir:-..}/examples/configs/replay-dimemas-fattree.ini --job.0.trace=$D/stencil.dim"
ref=""
for mode in "--synch=seq" "--synch=check" "np2 --synch=opt" "np4 --synch=opt"; do
    case $mode in
    np*) [ -n "${MPIEXEC:-}" ] || continue
         np=${mode%% *}; np=${np#np}
         run $MPIEXEC -n "$np" "$W" ${mode#* } $ft > "$tmp/out" 2>&1 ;;
    *)   run "$W" $mode $ft > "$tmp/out" 2>&1 ;;
    esac || { die "fat-tree $mode: $(tail -3 "$tmp/out")"; continue; }
    d=$(sed -n 's/.*committed digest: //p' "$tmp/out")
    grep -q "tasks *1156 of 1156" "$tmp/out" || die "fat-tree $mode: not every task ran"
    if [ -z "$ref" ]; then ref=$d; ok "fat-tree stencil: digest $d, completion $(completion "$tmp/out") ns"
    elif [ "$d" = "$ref" ]; then ok "fat-tree stencil $mode: same digest"
    else die "fat-tree stencil $mode: digest $d differs from $ref"; fi
done

# Errors: one line naming the file and line, exit code 2.
expect_error() { # what pattern command...
    what=$1 pat=$2; shift 2
    run "$@" > "$tmp/out" 2>&1
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l < "$tmp/out")" -eq 1 ] && grep -q "$pat" "$tmp/out" && ok "$what" ||
        die "$what: exit $rc, $(cat "$tmp/out")"
}
head -c 300 "$D/ring.dim" > "$tmp/cut.dim"
ini "$(simplenet 4 1us 1GB/s)" "$tmp/cut.dim" > "$tmp/cut.ini"
cut_line=$(($(wc -l < "$tmp/cut.dim") + 1))
expect_error "truncated trace through warpnet" "^warpnet: $tmp/cut.dim:$cut_line: the last line has no newline" "$W" "$tmp/cut.ini"
printf '#DIMEMAS:"x":0:2(1,1),1\n1:0:0:0.1\n5:1:0:1\n' > "$tmp/bad.dim"
expect_error "unknown record through warpnet-trace" "^warpnet-trace: $tmp/bad.dim:3: unknown record type 5" "$T" info "$tmp/bad.dim"
printf '0 1\n1 1\n' > "$tmp/twice.txt"
ini "$(simplenet 8 1us 1GB/s)" "$D/pingpong.dim" "placement = $tmp/twice.txt" > "$tmp/p.ini"
expect_error "a mapping file with two tasks on one node" "placement = .*twice.txt:2: node 1 already holds task 0" "$W" "$tmp/p.ini"
exit $fail
