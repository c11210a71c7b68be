#!/bin/sh
# test_fuzz_regress.sh — every input fuzzing found (tests/fuzz/regress/TARGET/)
# and every seed still passes its harness's checks: no crash, no sanitizer
# report (in the sanitizer build), rejections as one line naming the file or
# option. The harnesses run through regress_main.c, without libFuzzer.
b=${top_builddir:-.}/tests/fuzz
s=${top_srcdir:-..}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/warp-fuzz-regress.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
targets="ini options bigsim goal native dimemas otf2map pcap graph routes placement"
[ -x "$b/regress-chakra" ] && targets="$targets chakra" # built with the Chakra reader only
for t in $targets; do
    set --
    for d in "$s/tests/fuzz/regress/$t" "$s/tests/fuzz/seeds/$t"; do
        for f in "$d"/*; do
            [ -f "$f" ] && set -- "$@" "$f"
        done
    done
    [ "$t" = ini ] && set -- "$@" "$s"/examples/configs/*.ini
    if [ $# -eq 0 ]; then
        echo "FAIL: no inputs for $t in $s/tests/fuzz"
        fail=1
        continue
    fi
    # Inputs that once asked for gigabytes fail on the 2 GiB cap.
    if ASAN_OPTIONS="max_allocation_size_mb=2048:${ASAN_OPTIONS-}" timeout -k 10 300 "$b/regress-$t" "$@" >"$tmp/$t.out" 2>&1; then
        echo "ok: $t: $(tail -n 1 "$tmp/$t.out")"
    else
        tail -n 30 "$tmp/$t.out"
        echo "FAIL: $t: the last input named above breaks the harness"
        fail=1
    fi
done
exit $fail
