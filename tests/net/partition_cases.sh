# tests/net/partition_cases.sh — the small networks the partition tests
# (test_partition.sh, test_partition_metis.sh) run and cut, written into
# $TMP, the list of every topology's case in $PARTITION_CASES, and the
# checks both run on them.
C="${top_srcdir:-.}/examples/configs"

# Short runs of small networks: every router and link busy, a few hundred
# microseconds of run time each.
small_torus "$TMP/torus.ini"
small_fattree "$TMP/ft4.ini"
cat >"$TMP/t33.ini" <<'INI'
[engine]
end = 3us
[network]
topology = torus
[torus]
dims = 3,3
[workload]
type = traffic
INI

# One case per topology: a run file and its overrides.
PARTITION_CASES="$TMP/torus.ini|$TMP/ft4.ini|$C/slimfly-q5.ini --engine.end=3us --workload.warmup=0ns|\
$C/dragonfly-a4.ini --engine.end=3us --workload.warmup=0ns|$C/optical-rack-pair.ini"

# cut NAME WANT ARGS...: the links_cut count --describe --ranks prints.
cut() {
    name=$1 want=$2; shift 2
    got=$(timeout 60 "$WARPNET" --describe "$@" | sed -n 's/^links_cut: \([0-9]*\) .*/\1/p')
    [ "$got" = "$want" ] && echo "ok   $name: $got links cut" || bad "$name: $got links cut, want $want"
}

# same_as_block KIND "BLOCK RUNS" "RUNS": for every case, block on BLOCK
# RUNS and KIND on RUNS (same_everywhere's words) all commit the same digest
# and summary; block's stays in $TMP/NAME.block.res.
same_as_block() {
    kind=$1 block_runs=$2 kind_runs=$3
    IFS='|'
    for cfg in $PARTITION_CASES; do
        unset IFS
        name=$(basename "${cfg%% *}" .ini)
        before=$fail
        # shellcheck disable=SC2086 # cfg holds the file and its overrides
        same_everywhere "$name block" "$block_runs" $cfg --partition=block
        cp "$TMP/same.res" "$TMP/$name.block.res"
        # shellcheck disable=SC2086
        same_everywhere "$name $kind" "$kind_runs" $cfg --partition="$kind"
        if [ "$fail" != "$before" ]; then
            :
        elif cmp -s "$TMP/$name.block.res" "$TMP/same.res"; then
            echo "ok   $name: block and $kind commit the same digest and summary"
        else
            bad "$name: $kind differs from block"; diff "$TMP/$name.block.res" "$TMP/same.res" | head
        fi
    done
}
