#!/bin/sh
# PHOLD basics: the same seed gives the same digest and committed count, another
# seed changes the digest, --help works (on two ranks too: the engine returns
# it to the program, which finalizes and exits 0; rank 0 prints it once),
# bad options stop with their name.
set -u
phold="$top_builddir/examples/phold/phold"
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
phold=$(limited "$phold")
fail=0
run() { "$phold" --total-lps=64 --end=100 "$@" 2>&1; }
digest() { sed -n 's/.*committed digest: //p'; }
committed() { sed -n 's/^ *committed events  *\([0-9,]*\)$/\1/p' | tr -d ,; }

a=$(run --seed=7); b=$(run --seed=7); c=$(run --seed=8)
[ -n "$(echo "$a" | digest)" ] || { echo "FAIL: no digest line in: $a"; fail=1; }
[ "$(echo "$a" | digest)" = "$(echo "$b" | digest)" ] || { echo "FAIL: same seed, different digests"; fail=1; }
[ "$(echo "$a" | committed)" = "$(echo "$b" | committed)" ] || { echo "FAIL: same seed, different committed counts"; fail=1; }
[ "$(echo "$a" | digest)" != "$(echo "$c" | digest)" ] || { echo "FAIL: seeds 7 and 8 give the same digest"; fail=1; }

out=$("$phold" --help 2>&1) || { echo "FAIL: --help exits non-zero"; fail=1; }
echo "$out" | grep -q -- "--synch" || { echo "FAIL: --help does not list --synch"; fail=1; }
echo "$out" | grep -q -- "--remote" || { echo "FAIL: --help does not list the model's --remote"; fail=1; }

expect_error() { # expected-text args...
    want=$1; shift
    out=$("$phold" "$@" 2>&1); rc=$?
    [ $rc -eq 2 ] || { echo "FAIL: '$*' exits $rc, want 2"; fail=1; }
    echo "$out" | grep -q -- "$want" || { echo "FAIL: '$*' says '$out', want '$want'"; fail=1; }
}
expect_error "--bogus" --bogus=1
expect_error "--end=abc" --end=abc
expect_error "--synch=fast" --synch=fast
expect_error "--remote=2" --remote=2
expect_error "--lookahead=2" --lookahead=2 --mean=1
expect_error "unexpected argument" stray
expect_error "--map=spiral" --map=spiral
expect_error "--cross=2" --cross=2
expect_error "--cross needs --map=block" --cross=0.5 --map=cyclic

# A model's own LP placement (cyclic) gives the same digest as block-linear,
# on one rank and on two.
if [ -n "${MPIEXEC:-}" ]; then
    block=$(run --seed=3 --synch=seq | digest)
    for np in 1 2; do
        cyc=$($MPIEXEC -n $np "$phold" --total-lps=64 --end=100 --seed=3 --synch=opt --map=cyclic 2>&1 | digest)
        [ "$cyc" = "$block" ] || { echo "FAIL: --map=cyclic on $np rank(s): digest '$cyc', block seq '$block'"; fail=1; }
    done
    out=$($MPIEXEC -n 2 "$phold" --help 2>&1) || { echo "FAIL: --help on 2 ranks exits $?: $out"; fail=1; }
    n=$(echo "$out" | grep -c -- "--synch=MODE")
    [ "$n" = 1 ] || { echo "FAIL: --help on 2 ranks lists --synch $n times, want once"; fail=1; }
    # --cross=F (bench/remote_cost.sh): a random destination lies on the
    # other rank with probability F, so none crosses at 0 and every one at
    # 1; the model then depends on the rank count only, and every mode
    # commits one digest on those ranks.
    sent() { sed -n 's/^ *remote events sent  *\([0-9,]*\)$/\1/p' | tr -d ,; }
    x0=$($MPIEXEC -n 2 "$phold" --total-lps=64 --end=100 --remote=0.5 --cross=0 --synch=opt 2>&1 | sent)
    [ "$x0" = 0 ] || { echo "FAIL: --cross=0 on 2 ranks sent '$x0' remote events, want 0"; fail=1; }
    opt=$($MPIEXEC -n 2 "$phold" --total-lps=64 --end=100 --remote=0.5 --cross=1 --synch=opt 2>&1)
    cons=$($MPIEXEC -n 2 "$phold" --total-lps=64 --end=100 --remote=0.5 --cross=1 --synch=cons 2>&1)
    half=$($MPIEXEC -n 2 "$phold" --total-lps=64 --end=100 --remote=0.5 --cross=0.5 --synch=opt 2>&1 | sent)
    x1=$(echo "$opt" | sent)
    [ -n "$x1" ] && [ -n "$half" ] && [ "$x1" -gt "$half" ] && [ "$half" -gt 0 ] ||
        { echo "FAIL: remote events sent at --cross=1 '$x1', at 0.5 '$half': want 1 > 0.5 > 0"; fail=1; }
    [ -n "$(echo "$opt" | digest)" ] && [ "$(echo "$opt" | digest)" = "$(echo "$cons" | digest)" ] ||
        { echo "FAIL: --cross=1 on 2 ranks: opt digest '$(echo "$opt" | digest)', cons '$(echo "$cons" | digest)'"; fail=1; }
fi
exit $fail
