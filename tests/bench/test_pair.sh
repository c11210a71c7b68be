#!/bin/sh
# test_pair.sh — bench/pair.sh runs its two commands once a round, on
# swapped cores, and prints each round's times, ratio and digests and then
# the geometric mean of the ratios; a failing command, a file without two
# commands and a missing argument stop it with a message and a non-zero exit.
set -u
S=$(cd "${top_srcdir:-.}" && pwd)
B=$(cd "${top_builddir:-_build}" && pwd)
. "$S/tests/limit.sh"
W=$(limited "$B/tools/warpnet/warpnet")
command -v taskset >/dev/null || { echo "SKIP: no taskset"; exit 77; }
fail=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# Two cores this process may use, or its one core twice.
cpus=$(taskset -cp $$ | sed 's/.*: //' | tr ',' '\n' | while IFS=- read -r lo hi; do
    seq "$lo" "${hi:-$lo}"; done | head -2 | tr '\n' ' ')
# shellcheck disable=SC2086 # split into the two numbers
set -- $cpus
[ $# -eq 2 ] || set -- "$1" "$1"
export PAIR_CPUS="$1 $2"
cfg="$S/examples/configs/slimfly-q5.ini"
cat >"$t/cmds" <<EOF
ladder|$W --synch=seq $cfg --engine.end=2us --workload.warmup=0ns
heap|$W --synch=seq $cfg --engine.end=2us --workload.warmup=0ns --queue=heap
EOF
if "$S/bench/pair.sh" 2 "$t/cmds" >"$t/out" 2>&1; then
    rounds=$(grep -c '^round [12]: ladder [0-9.]* (cpu [0-9]*) heap [0-9.]* (cpu [0-9]*) ratio [0-9.]* digests [0-9a-f]* [0-9a-f]*$' "$t/out")
    [ "$rounds" -eq 2 ] && echo "ok   two rounds, each with both times and a ratio" ||
        { echo "FAIL expected two round lines:"; cat "$t/out"; fail=1; }
    # The queues order events alike: each round's two digests are one.
    if awk '/^round/ { if ($(NF - 1) != $NF || $NF == "") bad = 1; n++ } END { exit bad || n != 2 }' "$t/out"; then
        echo "ok   both commands commit one digest in every round"
    else
        echo "FAIL digests differ or are missing:"; cat "$t/out"; fail=1
    fi
    # The cores swap between rounds.
    c1=$(sed -n 's/^round 1: ladder [0-9.]* (cpu \([0-9]*\)).*/\1/p' "$t/out")
    c2=$(sed -n 's/^round 2: ladder [0-9.]* (cpu \([0-9]*\)).*/\1/p' "$t/out")
    [ "$c1" = "$1" ] && [ "$c2" = "$2" ] && echo "ok   the first command runs on cpu $1, then $2" ||
        { echo "FAIL cores $c1, $c2 for the first command, expected $1, $2"; fail=1; }
    grep -q '^== heap / ladder over 2 rounds: geometric mean [0-9.]*, min [0-9.]*, max [0-9.]*$' "$t/out" &&
        echo "ok   the summary gives the ratios' geometric mean" ||
        { echo "FAIL no summary line:"; cat "$t/out"; fail=1; }
else
    echo "FAIL bench/pair.sh exits $?:"; cat "$t/out"; fail=1
fi
# A command that fails names its label.
printf 'good|%s --synch=seq %s --engine.end=1us --workload.warmup=0ns\nbad|%s --synch=seq %s --no-such-option\n' \
    "$W" "$cfg" "$W" "$cfg" >"$t/bad"
if "$S/bench/pair.sh" 1 "$t/bad" >"$t/out" 2>&1; then
    echo "FAIL a failing command passes"; fail=1
elif grep -q '^bad: exit [1-9]' "$t/out"; then
    echo "ok   a failing command stops it, named by its label"
else
    echo "FAIL no 'bad: exit' message:"; cat "$t/out"; fail=1
fi
head -1 "$t/cmds" >"$t/one"
"$S/bench/pair.sh" 1 "$t/one" >"$t/out" 2>&1
st=$?
[ "$st" -eq 2 ] && grep -q 'needs exactly two label|command lines' "$t/out" &&
    echo "ok   one command line is refused" || { echo "FAIL one line: exit $st"; cat "$t/out"; fail=1; }
"$S/bench/pair.sh" 1 >"$t/out" 2>&1
st=$?
[ "$st" -eq 2 ] && grep -q '^usage: bench/pair.sh' "$t/out" &&
    echo "ok   a missing argument prints the usage" || { echo "FAIL no usage: exit $st"; cat "$t/out"; fail=1; }
exit $fail
