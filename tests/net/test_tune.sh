#!/bin/sh
# tests/net/test_tune.sh — warpnet tune: probes a small torus on 1 and 2
# processes, prints one row per probed setting (each setting once: the
# defaults, then partition, LPs per KP, batch and GVT interval one at a time)
# and a best line whose command line runs. On 2 processes the torus's ranks
# wait at the safe-event bound, where the GVT interval is unused, so the last
# stage weighs --safe-events=on against ahead at each interval; on 1 process,
# and on 2 without a lookahead (0 ns links and router delay), it probes
# the interval alone.
# No timings are asserted: only the shape of the table and that the
# suggested flags are valid options.
. "$(dirname "$0")/lib.sh"

small_torus "$TMP/torus.ini"

# tune NAME NP WANT [OPTIONS...]: runs tune on NP processes with OPTIONS;
# WANT rows must be printed. The rows stay in $TMP/rows.NAME.
tune() {
    name=$1 np=$2 want=$3
    shift 3
    (cd "$TMP" && timeout 300 "$WARPNET" tune torus.ini --np="$np" --probe-end=300ns --budget=600 \
        --out="tune.$name" "$@") >"$TMP/tune.$name.out" 2>&1 || { bad "tune $name exits $?"; cat "$TMP/tune.$name.out"; return; }
    sed -n '/^setting /,/^best:/p' "$TMP/tune.$name.out" | sed -e '1d' -e '$d' >"$TMP/rows.$name"
    rows=$(wc -l <"$TMP/rows.$name")
    [ "$rows" -eq "$want" ] && echo "ok   tune $name: $rows rows" || { bad "tune $name: $rows rows, want $want"; cat "$TMP/tune.$name.out"; }
    dup=$(awk '{ $NF = ""; $(NF-1) = ""; $(NF-2) = ""; print }' "$TMP/rows.$name" | sort | uniq -d)
    [ -z "$dup" ] && echo "ok   tune $name: every setting once" || bad "tune $name: repeated rows: $dup"
    grep -q "^best: .*committed events/s" "$TMP/tune.$name.out" || bad "tune $name: no best line"
    # The suggested command line runs (to a short end); tune's own options
    # end it, shell-quoted.
    flags=$(sed -n 's/^use: .* --synch=opt //p' "$TMP/tune.$name.out")
    [ -n "$flags" ] || { bad "tune $name: no use line"; return; }
    launch=""
    [ "$np" -gt 1 ] && launch="${MPIEXEC:-mpiexec} -n $np"
    eval "timeout 120 $launch \"\$WARPNET\" \"\$TMP/torus.ini\" --synch=opt $flags" >"$TMP/use.out" 2>&1 &&
        grep -q "committed digest" "$TMP/use.out" && echo "ok   tune $name: its flags run ($flags)" \
        || { bad "tune $name: the suggested flags fail: $flags"; tail -3 "$TMP/use.out"; }
}

# intervals_alone NAME: the rows of tune NAME probe every GVT interval and
# never --safe-events (there is no bound to wait at).
intervals_alone() {
    for g in 4 64 auto; do
        grep -q -- "--gvt-interval=$g " "$TMP/rows.$1" || bad "tune $1: --gvt-interval=$g not probed"
    done
    if grep -q -- "--safe-events" "$TMP/rows.$1"; then
        bad "tune $1: probes --safe-events without a bound:"; grep -- "--safe-events" "$TMP/rows.$1"
    else
        echo "ok   tune $1: the GVT intervals alone"
    fi
}

# 1 process: defaults + 2 KP + 2 batch + 3 GVT-interval settings.
tune 1 1 8
intervals_alone 1

# 2 processes add block (and metis where this build has it); the ranks wait
# at the bound, so --safe-events=ahead with 4 intervals replaces the 3
# intervals, and no row names an interval without ahead.
metis=0
"$WARPNET" --describe --partition=metis "$TMP/torus.ini" >/dev/null 2>&1 && metis=1
tune 2 2 $((10 + metis))
on=$(grep -c -- "--safe-events=on " "$TMP/rows.2")
ahead=$(grep -c -- "--safe-events=ahead --gvt-interval=" "$TMP/rows.2")
alone=$(grep -- "--gvt-interval=" "$TMP/rows.2" | grep -c -v -- "--safe-events=ahead")
if [ "$on" -gt 0 ] && [ "$ahead" -eq 4 ] && [ "$alone" -eq 0 ]; then
    echo "ok   tune 2: --safe-events=on against ahead at 4 intervals"
else
    bad "tune 2: $on rows wait at the bound, $ahead run ahead (want 4), $alone probe an interval while waiting (want 0)"
    cat "$TMP/rows.2"
fi

# 2 processes without a lookahead: no bound, the intervals as on 1.
tune 2-nolookahead 2 $((9 + metis)) --network.link_latency=0ns --network.router_delay=0ns
intervals_alone 2-nolookahead

refused "tune without a run file" "usage: warpnet tune" "$WARPNET" tune --np=2
refused "tune --np=0" "give 1 or more ranks" "$WARPNET" tune "$TMP/torus.ini" --np=0
printf '[network]\ntopology = torus\n[torus]\ndims = 2,2\n' >"$TMP/noend.ini"
refused "tune without an end" "give the probes' model time with --probe-end" "$WARPNET" tune "$TMP/noend.ini"
exit $fail
