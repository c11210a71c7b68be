#!/bin/sh
# test_sweep_tune_checks.sh — what sweep and tune accept, and when they say
# so (issue 53, item 9): --end and tune's --probe-end refuse 1e30s like
# every other time key (both ran on); tune says how each probe went while
# it runs, and stops a probe at --budget even when --probe-end is given
# (it once ran a probe to the end whatever the budget); sweep checks every
# point before the first runs (a bad third point failed after two had run,
# leaving a partial sweep.csv), takes values with units in --vary, and
# refuses a second --vary (which silently won) and --np=0.
. "$(dirname "$0")/lib.sh"
small_torus "$TMP/torus.ini"

# refused NAME PATTERN COMMAND...: exit 2, PATTERN in the output.
refused() {
    name=$1 pat=$2; shift 2
    (cd "$TMP" && timeout 120 "$@") > "$TMP/log" 2>&1
    rc=$?
    if [ $rc = 2 ] && grep -q -- "$pat" "$TMP/log"; then echo "ok   $name: $(tail -1 "$TMP/log")"
    else bad "$name: exit $rc, want 2 with '$pat':"; cat "$TMP/log"; fi
}
refused "--end=1e30s" "^warpnet: --end=1e30s: outside physical sense; give a value from 0 to 1e15ns" \
    "$WARPNET" torus.ini --end=1e30s
refused "tune --probe-end=1e30s" "tune: --probe-end=1e30s: .*at most 1e15ns" \
    "$WARPNET" tune torus.ini --probe-end=1e30s
# A probe to 1 s of model time takes hours: the budget stops it.
refused "tune: --probe-end past the budget" "ran past --budget=1 s before reaching 1e+09 ns" \
    "$WARPNET" tune torus.ini --probe-end=1s --budget=1 --out=tune.b
grep -q "^tune: probe 0 (.*): stopped at the budget after" "$TMP/log" \
    && echo "ok   tune says how the probe went" || bad "tune: no line for probe 0"
# Each probe's line comes on stderr as it ends, before the table.
(cd "$TMP" && timeout 300 "$WARPNET" tune torus.ini --probe-end=200ns --budget=600 --out=tune.p) \
    > "$TMP/tune.out" 2> "$TMP/tune.err" || bad "tune: exit $?"
n=$(grep -c "^tune: probe [0-9]* (.*): .* committed/s" "$TMP/tune.err")
rows=$(sed -n '/^setting /,/^best:/p' "$TMP/tune.out" | sed -e '1d' -e '$d' | wc -l)
[ "$n" -ge "$rows" ] && [ "$rows" -gt 1 ] && echo "ok   tune: a line per probe as it ran ($n for $rows rows)" \
    || bad "tune: $n probe lines for $rows rows"

# sweep
refused "sweep: a bad third point" "point workload.load = 1.5 is refused (above); nothing ran" \
    "$WARPNET" sweep torus.ini --vary workload.load=0.5:1.5:0.5 --out=sw1
grep -q "load = 1.5: out of range" "$TMP/log" && [ ! -e "$TMP/sw1/sweep.csv" ] && [ ! -e "$TMP/sw1/point-000" ] \
    && echo "ok   sweep: nothing ran, no sweep.csv" || bad "sweep: after a bad point: $(ls "$TMP/sw1")"
refused "sweep: --vary twice" "sweep: --vary given twice" \
    "$WARPNET" sweep torus.ini --vary workload.load=0.1:0.2:0.1 --vary workload.load=0.3:0.4:0.1 --out=sw2
refused "sweep: --np=0" "sweep: --np=0: give 1 or more ranks" \
    "$WARPNET" sweep torus.ini --vary workload.load=0.1:0.2:0.1 --np=0 --out=sw3
refused "sweep: mixed units" "FIRST, LAST and STEP need the same unit" \
    "$WARPNET" sweep torus.ini --vary network.link_bandwidth=10GB/s:20:10GB/s --out=sw4
(cd "$TMP" && timeout 300 "$WARPNET" sweep torus.ini --vary network.link_bandwidth=10GB/s:20GB/s:10GB/s \
    --out=sw5) > "$TMP/log" 2>&1 || bad "sweep with units: exit $?: $(tail -2 "$TMP/log")"
[ "$(sed -n '2s/,.*//p;3s/,.*//p' "$TMP/sw5/sweep.csv" | tr '\n' ' ')" = "10 20 " ] \
    && head -1 "$TMP/sw5/sweep.csv" | grep -q "^network.link_bandwidth (GB/s),offered_load" \
    && grep -q "sweep: network.link_bandwidth = 20GB/s (2 of 2)" "$TMP/log" \
    && echo "ok   sweep: --vary with units" || { bad "sweep with units:"; cat "$TMP/sw5/sweep.csv"; }
exit $fail
