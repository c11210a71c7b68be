#!/bin/sh
# tests/net/test_tune.sh — warpnet tune: probes a small torus on 1 and 2
# processes, prints one row per probed setting (each setting once: the
# defaults, then partition, LPs per KP, batch and GVT interval one at a time)
# and a best line whose command line runs. No timings are asserted: only the
# shape of the table and that the suggested flags are valid options.
. "$(dirname "$0")/lib.sh"

small_torus "$TMP/torus.ini"

# tune NP WANT: runs tune on NP processes; WANT rows must be printed.
tune() {
    np=$1 want=$2
    (cd "$TMP" && timeout 300 "$WARPNET" tune torus.ini --np="$np" --probe-end=300ns --budget=600 \
        --out=tune$np) >"$TMP/tune$np.out" 2>&1 || { bad "tune on $np exits $?"; cat "$TMP/tune$np.out"; return; }
    sed -n '/^setting /,/^best:/p' "$TMP/tune$np.out" | sed -e '1d' -e '$d' >"$TMP/rows$np"
    rows=$(wc -l <"$TMP/rows$np")
    [ "$rows" -eq "$want" ] && echo "ok   tune on $np: $rows rows" || { bad "tune on $np: $rows rows, want $want"; cat "$TMP/tune$np.out"; }
    dup=$(awk '{ $NF = ""; $(NF-1) = ""; $(NF-2) = ""; print }' "$TMP/rows$np" | sort | uniq -d)
    [ -z "$dup" ] && echo "ok   tune on $np: every setting once" || bad "tune on $np: repeated rows: $dup"
    grep -q "^best: .*committed events/s" "$TMP/tune$np.out" || bad "tune on $np: no best line"
    # The suggested command line runs (to a short end).
    flags=$(sed -n 's/^use: .* --synch=opt //p' "$TMP/tune$np.out")
    [ -n "$flags" ] || { bad "tune on $np: no use line"; return; }
    # shellcheck disable=SC2086 # flags are separate options
    if [ "$np" -gt 1 ]; then
        timeout 120 ${MPIEXEC:-mpiexec} -n "$np" "$WARPNET" "$TMP/torus.ini" --synch=opt $flags >"$TMP/use.out" 2>&1
    else
        timeout 120 "$WARPNET" "$TMP/torus.ini" --synch=opt $flags >"$TMP/use.out" 2>&1
    fi && grep -q "committed digest" "$TMP/use.out" && echo "ok   tune on $np: its flags run ($flags)" \
        || { bad "tune on $np: the suggested flags fail: $flags"; tail -3 "$TMP/use.out"; }
}
# 1 process: defaults + 2 KP + 2 batch + 3 GVT-interval settings; 2
# processes add block (and metis where this build has it).
tune 1 8
metis=0
"$WARPNET" --describe --partition=metis "$TMP/torus.ini" >/dev/null 2>&1 && metis=1
tune 2 $((9 + metis))

refused "tune without a run file" "usage: warpnet tune" "$WARPNET" tune --np=2
refused "tune --np=0" "give 1 or more ranks" "$WARPNET" tune "$TMP/torus.ini" --np=0
printf '[network]\ntopology = torus\n[torus]\ndims = 2,2\n' >"$TMP/noend.ini"
refused "tune without an end" "give the probes' model time with --probe-end" "$WARPNET" tune "$TMP/noend.ini"
exit $fail
