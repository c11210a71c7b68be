#!/bin/sh
# test_run_names.sh — what a run says about itself (issue 50 item 4):
#  - the printed summary and summary.json name the run file, topology,
#    routing, router model, pattern, load, seed and preset, and
#    warpnet-report's report.md shows them (when gnuplot is there to run it);
#  - `warpnet --help` and every subcommand's --help (convert, convert codes,
#    sweep, tune, keys, report) exit 0 and print their usage and options.
. "${top_srcdir:-.}/tests/net/lib.sh"
CONF="${top_srcdir:-.}/examples/configs"
REPORT="${top_builddir:-.}/tools/report/warpnet-report"

"$WARPNET" "$CONF/torus-8x8x8.ini" --torus.dims=4,4,4 --end=3us --workload.warmup=1us --seed=7 \
    --workload.load=0.3 --out="$TMP/run" >"$TMP/out" 2>&1 || { bad "run exits $?"; cat "$TMP/out"; }
S="$TMP/run/summary.json"
for want in "\"run_file\": \"$CONF/torus-8x8x8.ini\"," '"topology": "torus",' '"routing": "dimension-order",' \
    '"router": "input-queued",' '"pattern": "uniform",' '"load": 0.29999999999999999,' '"seed": 7,' \
    '"preset": null,'; do
    grep -qF "  $want" "$S" && echo "ok   summary.json: $want" || bad "summary.json lacks $want"
done
for want in "run file          $CONF/torus-8x8x8.ini" "routing           dimension-order" \
    "router            input-queued" "workload          traffic, pattern uniform" \
    "load              0.3 of injection bandwidth (configured)" "seed              7"; do
    grep -qxF "$want" "$TMP/out" && echo "ok   summary: $want" || bad "summary lacks '$want'"
done
"$WARPNET" "$CONF/torus-8x8x8.ini" --torus.dims=4,4,4 --end=2us --workload.warmup=0ns --network.preset=booksim \
    --network.router=output-queued --out="$TMP/pre" >"$TMP/pre.out" 2>&1 || bad "preset run exits $?"
grep -qF '  "preset": "booksim",' "$TMP/pre/summary.json" && grep -qF '  "router": "output-queued",' "$TMP/pre/summary.json" &&
    echo "ok   summary.json: the preset and the router the run file chose over it" ||
    bad "summary.json of a preset run: $(grep -E '"(preset|router)"' "$TMP/pre/summary.json")"
"$WARPNET" "$CONF/simplenet-64.ini" --end=2us --workload.warmup=0ns --out="$TMP/simple" >"$TMP/simple.out" 2>&1 || bad "simplenet run exits $?"
grep -q '"router"' "$TMP/simple/summary.json" && bad "simplenet (no routers) names a router model"

if [ -x "$REPORT" ] && command -v "${GNUPLOT:-gnuplot}" >/dev/null 2>&1; then
    "$(limited "$REPORT")" "$TMP/run" >"$TMP/report.log" 2>&1 || { bad "warpnet-report exits $?"; cat "$TMP/report.log"; }
    for row in "| run file | $CONF/torus-8x8x8.ini |" "| preset | none |" \
        "| routing / router | dimension-order / input-queued |" \
        "| workload | traffic, pattern uniform, load 0.3, seed 7 |"; do
        grep -qF "$row" "$TMP/run/report.md" && echo "ok   report.md: $row" || bad "report.md lacks $row"
    done
else
    echo "skip report.md rows: warpnet-report or gnuplot missing"
fi

# help CMD... PATTERN...: `warpnet CMD... --help` exits 0 and prints each PATTERN.
help() {
    cmd=$1; shift
    # shellcheck disable=SC2086 # $cmd is the subcommand's words
    "$WARPNET" $cmd --help >"$TMP/help" 2>&1
    rc=$?
    [ $rc -eq 0 ] || { bad "warpnet $cmd --help exits $rc:"; head -3 "$TMP/help"; return; }
    for p in "$@"; do
        grep -q -- "$p" "$TMP/help" || bad "warpnet $cmd --help does not say $p"
    done
    echo "ok   warpnet $cmd --help: exit 0, $(wc -l <"$TMP/help") lines"
}
help "" "^usage: warpnet" "--describe" "--out" "keys" "--help=SECTION"
help convert "^usage: warpnet convert" "codes"
help "convert codes" "^usage: warpnet convert codes" "FILE.conf"
help sweep "^usage: warpnet sweep" "--vary" "--series" "--out"
help tune "^usage: warpnet tune" "--np" "--budget"
help keys "^usage: warpnet keys" "--json" "--help=SECTION"
help report "^usage: warpnet-report\|^usage: warpnet report" "DIR"
exit $fail
