#!/bin/sh
# Option parsing: every bad engine or model option stops the run with exit
# code 2 and one line that names the option (once, on 2 ranks too); unknown
# options are named too;
# --help exits 0 and lists the engine's and the model's options.
. "$top_srcdir/tests/engine/test_torture_lib.sh"
RUN_LIMIT=30

# rejected OPTION-AS-NAMED ARGS...: the run must fail with 2 naming it.
rejected() {
    name=$1
    shift
    run_failing 0 "$PHOLD" --total-lps=4 --end=5 "$@"
    if [ "$TT_RC" != 2 ]; then
        fail "phold $*: exit $TT_RC, expected 2 (usage error)"
        return
    fi
    lines=$(grep -c . "$TT_OUT")
    [ "$lines" = 1 ] || fail "phold $*: $lines lines of output, expected one error line"
    grep -q -- "$name" "$TT_OUT" || fail "phold $*: the error does not name $name: $(head -n 1 "$TT_OUT")"
    grep -q '^phold: ' "$TT_OUT" || fail "phold $*: the error does not start with 'phold: ': $(head -n 1 "$TT_OUT")"
}

# On 2 ranks every rank finds the same error; the user still reads one line.
rejected_2ranks() {
    name=$1
    shift
    run_failing 2 "$PHOLD" --total-lps=4 --end=5 "$@"
    [ "$TT_RC" = 2 ] || { fail "2 ranks: phold $*: exit $TT_RC, expected 2"; return; }
    n=$(grep -c -- "$name" "$TT_OUT")
    [ "$n" = 1 ] || fail "2 ranks: phold $*: the error is printed $n times, expected once: $(cat "$TT_OUT")"
}
rejected_2ranks --batch --batch=0
rejected_2ranks --foo --foo=1

rejected --batch --batch=0
rejected --batch --batch=-3
rejected --batch --batch=abc
rejected --batch --batch
rejected --synch --synch=foo
rejected --synch --synch=
rejected --end --end=abc
rejected --end --end=0
rejected --end --end=-5
rejected --end --end=inf
rejected --end --end=1e999
rejected --seed --seed=-1
rejected --seed --seed=12x
rejected --events --events=abc
rejected --events --events=3
rejected --queue --queue=list
rejected "--huge-pages=maybe: unknown setting; use auto" --huge-pages=maybe
rejected --huge-pages --huge-pages
rejected --gvt --gvt=lazy
rejected --gvt-interval --gvt-interval=0
rejected --kps --kps=0
rejected --lps-per-kp --lps-per-kp=0
rejected --stats-json --stats-json=
rejected --quiet --quiet=maybe
rejected --foo --foo
rejected --foo --foo=1
rejected --total-lps --total-lps=many
rejected --remote --remote=1.5
rejected --mean --mean=x

# A bad value in --config=FILE names FILE:LINE, the section and the key.
cfg=$(mktemp) || exit 99
printf '[engine]\nseed = 3\nbatch = 0\n' >"$cfg"
rejected "$cfg:3: \[engine\] batch = 0: must be at least 1" --config="$cfg"
printf '[phold]\nremote = x\n' >"$cfg"
rejected "$cfg:2: \[phold\] remote = x: expected a finite number" --config="$cfg"
# A misspelt option or [engine] key names the closest one.
rejected "unknown option --batc; did you mean --batch?" --batc=3
printf '[engine]\ngvt-intervall = 4\n' >"$cfg"
rejected "$cfg:2: \[engine\] gvt-intervall = 4: unknown engine option; did you mean gvt-interval?" \
    --config="$cfg"
# A run file may write an option's dashes as underscores; a bad value still
# names the file and line.
printf '[engine]\nhuge_pages = always\n' >"$cfg"
rejected "$cfg:2: \[engine\] huge-pages = always: unknown setting; use auto" --config="$cfg"
# A misspelt underscored key is named as written, the suggestion in the
# documented dashed spelling.
printf '[engine]\nlps_per_kpp = 4\n' >"$cfg"
rejected "$cfg:2: \[engine\] lps_per_kpp = 4: unknown engine option; did you mean lps-per-kp?" \
    --config="$cfg"
rm -f "$cfg"

run 0 "$PHOLD" --help
[ "$TT_RC" = 0 ] || fail "phold --help: exit $TT_RC, expected 0"
for opt in --synch --end --seed --events --queue --batch --gvt-interval --gvt --lps-per-kp --kps \
    --stats-json --total-lps --remote; do
    grep -q -- "$opt" "$TT_OUT" || fail "phold --help does not list $opt"
done
run 0 "$TORTURE" --help
[ "$TT_RC" = 0 ] || fail "torture --help: exit $TT_RC, expected 0"
grep -q -- --broken "$TT_OUT" || fail "torture --help does not list its model option --broken"
# Help shows each engine option's default from the option table.
grep -q -- '--batch=N .*(default: 32)' "$TT_OUT" || fail "torture --help does not show --batch's default"

# The ROSS numbers and the long names select the same modes.
ref=$(sig 0 "$PHOLD" --synch=seq --total-lps=8 --end=20)
for s in 1 sequential 3 optimistic opt; do
    got=$(sig 0 "$PHOLD" --synch=$s --total-lps=8 --end=20)
    same "--synch=$s" "$ref" "$got"
done
finish "option parsing"
