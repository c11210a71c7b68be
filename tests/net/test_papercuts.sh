#!/bin/sh
# test_papercuts.sh — small things a new user met (issue 13, item 6):
# `warpnet sweep --help` exits 0 with its usage; `warpnet-trace gen` says
# what it wrote; --end's help gives the unit of its default; the summary
# names the routing and the workload's traffic pattern and calls simulated
# ranks "application ranks" (not MPI ranks); autoreconf's configure~ backup
# is ignored by git.
. "${top_srcdir:-.}/tests/net/lib.sh"
C="${top_srcdir:-.}/examples/configs"
T="${top_builddir:-.}/tools/trace/warpnet-trace"

timeout 20 "$WARPNET" sweep --help > "$TMP/log" 2>&1 && grep -q '^usage: warpnet sweep RUN.ini --vary' "$TMP/log" &&
    echo "ok   sweep --help: exit 0 and usage" || bad "sweep --help: $(head -2 "$TMP/log")"
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
