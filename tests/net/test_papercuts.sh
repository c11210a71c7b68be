#!/bin/sh
# test_papercuts.sh — small things a new user met (issue 13, item 6):
# `warpnet sweep --help` exits 0 with its usage; `warpnet-trace gen` says
# what it wrote; --end's help gives the unit of its default; the summary
# names the routing and the workload's traffic pattern and calls simulated
# ranks "application ranks" (not MPI ranks); autoreconf's configure~ backup
# is ignored by git. Issue 53: every subcommand's --help exits 0,
# warpnet-trace names itself, `[Dragonfly]` is an unknown section.
. "${top_srcdir:-.}/tests/net/lib.sh"
C="${top_srcdir:-.}/examples/configs"
T="${top_builddir:-.}/tools/trace/warpnet-trace"

timeout 20 "$WARPNET" sweep --help > "$TMP/log" 2>&1 && grep -q '^usage: warpnet sweep RUN.ini --vary' "$TMP/log" &&
    echo "ok   sweep --help: exit 0 and usage" || bad "sweep --help: $(head -2 "$TMP/log")"
# Every subcommand's --help exits 0 and shows its options (issue 53:
# `convert codes --help` and `warpnet-trace info --help` failed with exit 2).
helps() { # NAME PATTERN COMMAND...
    name=$1 pat=$2; shift 2
    timeout 20 "$@" > "$TMP/log" 2> "$TMP/err" && grep -q -- "$pat" "$TMP/log" &&
        echo "ok   $name: exit 0 and its options" || bad "$name: exit $?: $(head -2 "$TMP/log" "$TMP/err")"
}
helps "convert --help" '^usage: warpnet convert codes FILE.conf' "$WARPNET" convert --help
helps "convert codes --help" '^  -h, --help' "$WARPNET" convert codes --help
helps "tune --help" '--budget' "$WARPNET" tune --help
for cmd in info convert gen; do
    helps "warpnet-trace $cmd --help" '--format=' "$T" $cmd --help
done
timeout 20 "$WARPNET" convert > "$TMP/log" 2>&1; rc=$?
[ $rc = 2 ] && grep -q '^usage: warpnet convert codes' "$TMP/log" && echo "ok   convert alone: usage, exit 2" ||
    bad "convert alone: exit $rc: $(cat "$TMP/log")"
# warpnet-trace's errors carry its own name (issue 53: they said "warpnet:").
timeout 20 "$T" info "$TMP/none.wtt" > "$TMP/log" 2>&1
grep -q "^warpnet-trace: $TMP/none.wtt: cannot open" "$TMP/log" && echo "ok   warpnet-trace names itself" ||
    bad "warpnet-trace error: $(cat "$TMP/log")"
# A capitalised section is reported as such, not as the keys it hides.
sed 's/^\[dragonfly\]$/[Dragonfly]/' "$C/dragonfly-a4.ini" > "$TMP/cap.ini"
grep -q '^\[Dragonfly\]$' "$TMP/cap.ini" || bad "dragonfly-a4.ini has no [dragonfly] line"
refused "[Dragonfly]" "cap.ini:[0-9]*: \[Dragonfly\]: unknown section; did you mean \[dragonfly\]?" \
    timeout 20 "$WARPNET" --describe "$TMP/cap.ini"

timeout 20 "$T" gen alltoall ranks=4 iters=1 -o "$TMP/a.wtt" > "$TMP/log" 2>&1 &&
    grep -qx "warpnet-trace: wrote $TMP/a.wtt: 4 ranks of gen:alltoall:ranks=4,iters=1, text form" "$TMP/log" &&
    [ -s "$TMP/a.wtt" ] && echo "ok   gen says what it wrote" || bad "gen: $(cat "$TMP/log")"
timeout 20 "$WARPNET" --help 2>&1 | grep -- '--end=T' | grep -q 'the default 100 means 100ns' &&
    echo "ok   --end help gives the unit" || bad "--end help: $(timeout 20 "$WARPNET" --help 2>&1 | grep -- '--end=T')"

# summary LINE ARGS...: warpnet's summary has LINE (a whole line).
summary() {
    want=$1; shift
    timeout 60 "$WARPNET" --quiet "$@" --out="$TMP/o" > "$TMP/log" 2>&1 || { bad "$*: exit $?"; return; }
    grep -qxF "$want" "$TMP/log" && echo "ok   $want" || bad "$*: no line '$want' in: $(sed -n '/^== warpnet/,/^window/p' "$TMP/log")"
}
summary "== warpnet: fattree, 128 nodes, 80 routers, 128 application ranks" "$C/fattree-8p3l.ini" --end=1us --workload.warmup=0ns
summary "routing           ecmp" "$C/fattree-8p3l.ini" --end=1us --workload.warmup=0ns
summary "routing           ugal" "$C/slimfly-q5.ini" --end=1us --workload.warmup=0ns --slimfly.routing=ugal
summary "routing           dimension-order" "$C/torus-8x8x8.ini" --end=1us --workload.warmup=0ns
summary "workload          traffic, pattern uniform" "$C/torus-8x8x8.ini" --end=1us --workload.warmup=0ns
summary "workload          traffic, pattern bitcomplement" "$C/torus-8x8x8.ini" --end=1us --workload.warmup=0ns \
    --workload.pattern=bitcomplement
grep -q '^  "routing": "dimension-order",$' "$TMP/o/summary.json" &&
    grep -q '^  "workload": "traffic, pattern bitcomplement",$' "$TMP/o/summary.json" &&
    echo "ok   summary.json names routing and workload" || bad "summary.json: no routing/workload"

if command -v git > /dev/null 2>&1 && git -C "${top_srcdir:-.}" rev-parse > /dev/null 2>&1; then
    [ -z "$(git -C "${top_srcdir:-.}" ls-files 'configure~')" ] && git -C "${top_srcdir:-.}" check-ignore -q 'configure~' &&
        echo "ok   configure~ is not tracked and is ignored" || bad "configure~ tracked or not ignored"
fi
exit $fail
