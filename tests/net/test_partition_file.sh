#!/bin/sh
# tests/net/test_partition_file.sh — placements from measured traffic
# (warpnet --write-partition, warpnet tune --partition=N) read back with
# --partition=file:PATH: the committed digest and summary are the
# sequential run's on 2 and 4 processes for a fat-tree and a Slim Fly; the
# run really places routers as the file says; every malformed or foreign
# file is refused with one line naming the file and line; and on the CODES
# fat-tree at 16 ranks the measured placement sends no larger share of its
# events to other ranks than topology's (counted in a conservative run,
# whose remote events are the committed ones: no timing). Skips (77) in a
# build without METIS after checking that it refuses to write one.
. "$(dirname "$0")/lib.sh"
. "${top_srcdir:-.}/tests/net/partition_cases.sh"

if ! timeout 60 "$WARPNET" --describe --ranks=2 --partition=metis "$TMP/t33.ini" >"$TMP/m" 2>&1; then
    grep -q "no METIS partitioner" "$TMP/m" || { bad "--partition=metis --describe fails:"; cat "$TMP/m"; exit 1; }
    refused "no METIS: --write-partition" "libmetis-dev" "$WARPNET" --ranks=2 --write-partition="$TMP/p" "$TMP/t33.ini"
    refused "no METIS: tune" "libmetis-dev" "$WARPNET" tune --partition=2 "$TMP/t33.ini" --write-partition="$TMP/p" --out="$TMP/tune"
    [ "$fail" = 0 ] && { echo "SKIP: built without METIS"; exit 77; }
    exit 1
fi

# write NAME RANKS ARGS...: $TMP/NAME, the placement of ARGS's traffic on RANKS.
write() {
    wfile=$1 wranks=$2; shift 2
    timeout 300 "$WARPNET" --ranks="$wranks" --write-partition="$TMP/$wfile" "$@" >"$TMP/$wfile.out" 2>&1 &&
        grep -q "^placement for $wranks ranks written" "$TMP/$wfile.out" ||
        { bad "--write-partition=$wfile exits $?"; tail -3 "$TMP/$wfile.out"; }
}

# ---- the committed result does not move ----------------------------------
FT="$C/fattree-8p3l-codes.ini --engine.end=5us --workload.warmup=0ns"
SF="$C/slimfly-q5.ini --engine.end=3us --workload.warmup=0ns"
for case in "fattree|$FT" "slimfly|$SF"; do
    name=${case%%|*} cfg=${case#*|}
    # shellcheck disable=SC2086 # cfg holds the file and its overrides
    write "$name.2" 2 $cfg
    # shellcheck disable=SC2086
    (cd "$TMP" && timeout 300 "$WARPNET" tune --partition=4 $cfg --write-partition="$name.4" \
        --out="tune.$name" >"tune.$name.out" 2>&1) ||
        { bad "tune --partition=4 $name exits $?"; tail -3 "$TMP/tune.$name.out"; }
    grep -q "^  measured .*%" "$TMP/tune.$name.out" || bad "tune $name: no measured row"
    # shellcheck disable=SC2086
    same_everywhere "$name seq" "seq" $cfg
    cp "$TMP/same.res" "$TMP/$name.seq.res"
    for np in 2 4; do
        # shellcheck disable=SC2086
        same_everywhere "$name file on $np" "opt$np" $cfg --partition=file:"$TMP/$name.$np"
        if cmp -s "$TMP/$name.seq.res" "$TMP/same.res"; then
            echo "ok   $name: the placement file on $np ranks commits the sequential digest and summary"
        else
            bad "$name: the placement file on $np ranks differs from seq"
            diff "$TMP/$name.seq.res" "$TMP/same.res" | head
        fi
    done
done

# ---- the file decides the placement ----------------------------------------
# Routers dealt 2 of every 5 to rank 1 under a measured file's header
# (a poor cut): --describe shows that cut, not topology's.
F2="$TMP/fattree.2"
sed -n '/^[0-9]/q;p' "$F2" >"$TMP/deal"
awk '/^[0-9]/ { print $1, $1 % 5 < 2 }' "$F2" >>"$TMP/deal"
cuts() { timeout 60 "$WARPNET" --describe --ranks=2 "$@" | sed -n 's/^links_cut: \([0-9]*\) .*/\1/p'; }
# shellcheck disable=SC2086
dealt=$(cuts --partition=file:"$TMP/deal" $FT) topo=$(cuts $FT)
if [ -n "$dealt" ] && [ -n "$topo" ] && [ "$dealt" -gt "$topo" ]; then
    echo "ok   a dealt placement file cuts $dealt links, topology $topo"
else
    bad "a dealt placement file cuts '$dealt' links, topology '$topo': the file is not what places"
fi

# ---- refusals: one line naming the file, the line and the fix -------------
# mutate NAME SED: a copy of the 2-rank fat-tree file edited by SED.
mutate() { sed "$2" "$F2" >"$TMP/$1"; }
line_of() { grep -n "^$1 " "$F2" | sed 's/:.*//'; }
L5=$(line_of 5)
mutate bad-line "s/^5 .*/5 one/"
mutate rank-range "s/^5 .*/5 7/"
mutate router-range "s/^5 .*/80 0/"
mutate missing "/^5 /d"
mutate twice "\$a 5 0"
mutate empty-rank "s/^\([0-9]*\) [0-9]*$/\1 0/"
mutate no-magic "/^warpnet-partition/d"
mutate rank-wraps "s/^5 .*/5 4294967297/"
mutate ranks-minus "s/^ranks .*/ranks -2/"
# refused_file NAME FILE PATTERN: --describe --ranks=2 of the fat-tree
# with FILE ($TMP/FILE unless a path) is refused with PATTERN.
refused_file() {
    case $2 in /*) f=$2 ;; *) f=$TMP/$2 ;; esac
    # shellcheck disable=SC2086 # FT holds the file and its overrides
    refused "$1" "$3" "$WARPNET" --describe --ranks=2 --partition=file:"$f" $FT
}
# shellcheck disable=SC2086
refused "a file for 2 ranks on 4" "fattree.2:5: made for 2 ranks, this run has 4; run on 2 ranks, or write a file for 4 with warpnet tune --partition=4" \
    "$WARPNET" --describe --ranks=4 --partition=file:"$F2" $FT
refused_file "a bad line" bad-line "bad-line:$L5: expected \`ROUTER RANK\` (two numbers); write one for this run with warpnet tune"
refused_file "a rank out of range" rank-range "rank-range:$L5: rank 7 is out of range (the file is for ranks 0 .. 1)"
refused_file "a router out of range" router-range "router-range:$L5: router 80 is out of range"
refused_file "a missing router" missing "missing:[0-9]*: router 5 has no line"
refused_file "a router placed twice" twice "twice:[0-9]*: router 5 is placed twice"
refused_file "a rank without routers" empty-rank "empty-rank:[0-9]*: rank 1 holds no router"
refused_file "not a placement file" no-magic "no-magic:3: not a placement file"
refused_file "a missing file" nothing "file:$TMP/nothing: cannot open the placement file"
# Numbers are read whole: none wraps to another rank or rank count.
refused_file "a rank past 32 bits" rank-wraps "rank-wraps:$L5: rank 4294967297 is out of range"
refused_file "a negative rank count" ranks-minus "ranks-minus:[0-9]*: expected \`ranks K\` with K >= 1"
# A comment longer than any buffer is one line, not two.
{ sed -n '1p' "$F2"; printf '# %0600d\n' 5; sed '1d' "$F2"; } >"$TMP/long-comment"
# shellcheck disable=SC2086
if timeout 60 "$WARPNET" --describe --ranks=2 --partition=file:"$TMP/long-comment" $FT >"$TMP/lc.out" 2>&1; then
    echo "ok   a 600-character comment line is one line"
else
    bad "a placement file with a 600-character comment is refused: $(tail -1 "$TMP/lc.out")"
fi
# shellcheck disable=SC2086
refused "no path" "give the placement file's path after file:" "$WARPNET" --describe --ranks=2 --partition=file: $FT
# Another network: the Slim Fly's file on the fat-tree (router count), a
# 2x8 torus's on a 4x4 torus (same counts, other wiring), also on one rank.
refused_file "another size's file" slimfly.2 "slimfly.2:4: made for a slimfly of 50 routers and 150 nodes, this run's network is a fattree of 80 routers and 128 nodes"
printf '[engine]\nend = 2us\n[network]\ntopology = torus\n[torus]\ndims = 2,8\n[workload]\ntype = traffic\n' >"$TMP/t28.ini"
sed 's/dims = 2,8/dims = 4,4/' "$TMP/t28.ini" >"$TMP/t44.ini"
write t28.2 2 "$TMP/t28.ini"
refused "another wiring's file" "t28.2:4: made for another torus wiring (graph [0-9a-f]*, this network's is [0-9a-f]*)" \
    "$WARPNET" --partition=file:"$TMP/t28.2" "$TMP/t44.ini"
refused "--write-partition without --ranks" "give the rank count to place the routers on with --ranks=N" \
    "$WARPNET" --write-partition="$TMP/p" "$TMP/t44.ini"
refused "tune --partition without a file" "name the placement file to write with --write-partition=FILE" \
    "$WARPNET" tune --partition=2 "$TMP/t44.ini"
refused "tune: the probe's refusal, on one line" "tune: the partition probe failed after .*: --ranks=17: give 1 .. 16 ranks" \
    "$WARPNET" tune --partition=17 "$TMP/t44.ini" --write-partition="$TMP/p" --out="$TMP/tune.17"

# ---- the point: fewer remote events on the CODES fat-tree at 16 ranks -------
# The placement from a 50 us probe's traffic against topology's: remote
# events per processed event of a 10 us conservative run on 16 processes.
(cd "$TMP" && timeout 300 "$WARPNET" tune --partition=16 "$C/fattree-8p3l-codes.ini" --probe-end=50us \
    --write-partition=ft16 --out=tune.ft16 >tune.ft16.out 2>&1) || { bad "tune --partition=16 exits $?"; cat "$TMP/tune.ft16.out"; }
share() {
    timeout 300 ${MPIEXEC:-mpiexec} -n 16 "$WARPNET" "$C/fattree-8p3l-codes.ini" --engine.end=10us \
        --synch=cons --quiet --stats-json="$TMP/s.json" "$@" >"$TMP/s.out" 2>&1 ||
        { bad "16 ranks $* exits $?"; tail -3 "$TMP/s.out" >&2; return; }
    awk -v r="$(json "$TMP/s.json" remote_sent)" -v p="$(json "$TMP/s.json" processed)" \
        'BEGIN { if (p > 0) printf "%.6f\n", r / p }'
}
measured=$(share --partition=file:"$TMP/ft16") topology=$(share --partition=topology)
echo "remote events per processed event on 16 ranks: measured $measured, topology $topology"
if [ -n "$measured" ] && [ -n "$topology" ] && awk -v m="$measured" -v t="$topology" 'BEGIN { exit !(m <= t) }'; then
    echo "ok   the measured placement's remote share $measured <= topology's $topology"
else
    bad "the measured placement's remote share '$measured' is above topology's '$topology'"
fi
exit $fail
