#!/bin/sh
# test_trace_tool.sh — warpnet-trace gen/info/convert: critical paths of
# generated patterns equal their closed forms, text <-> binary conversion is
# lossless, and user errors give one "warpnet-trace:" line with exit code 2.
set -u
T="${top_builddir:-.}/tools/trace/warpnet-trace"
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
T=$(limited "$T")
tmp=$(mktemp -d /tmp/warpnet-trace-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
die() { echo "FAIL: $*"; fail=1; }

field() { "$T" info "$1" | sed -n "s/^$2: //p"; }

# 3-D stencil: iters x (compute + log2(P) x reduce); P = 4x4x2 = 32 -> 5 rounds
"$T" gen stencil3d px=4 py=4 pz=2 iters=9 compute=2500 reduce=40 -o "$tmp/s3.wtb" || die "gen stencil3d"
want=$((9 * (2500 + 5 * 40)))
got=$(field "$tmp/s3.wtb" critical_path_ns)
[ "$got" = "$want" ] || die "stencil3d critical path $got, closed form $want"
[ "$(field "$tmp/s3.wtb" ranks)" = 32 ] || die "stencil3d ranks"
# messages: per rank and iteration 6 halo + 5 allreduce
[ "$(field "$tmp/s3.wtb" messages)" = $((32 * 9 * 11)) ] || die "stencil3d message count"

# ring allreduce on 7 ranks: iters x 2(P-1) x reduce
got=$(field "gen:allreduce:ranks=7,ring=1,iters=2,reduce=100" critical_path_ns)
[ "$got" = $((2 * 2 * 6 * 100)) ] || die "ring allreduce critical path $got"

# text <-> binary <-> text is lossless
"$T" gen random ranks=6 layers=30 seed=11 -o "$tmp/r.txt" || die "gen random"
"$T" convert "$tmp/r.txt" "$tmp/r.wtb" || die "convert text->binary"
"$T" convert "$tmp/r.wtb" "$tmp/r2.txt" || die "convert binary->text"
grep -v '^#' "$tmp/r.txt" > "$tmp/a"; grep -v '^#' "$tmp/r2.txt" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || die "text/binary round trip differs"
[ "$(field "$tmp/r.txt" critical_path_ns)" = "$(field "$tmp/r.wtb" critical_path_ns)" ] || die "round trip changes timing"

# errors: one line, the program's own "warpnet-trace:" prefix (it said
# "warpnet:", issue 53), exit 2
expect_error() { # want-substring command...
    want=$1; shift
    "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?
    [ $rc = 2 ] || die "'$*' exited $rc, expected 2"
    [ "$(wc -l < "$tmp/err")" = 1 ] || die "'$*' printed $(wc -l < "$tmp/err") error lines"
    grep -q "^warpnet-trace: .*$want" "$tmp/err" || die "'$*': expected '$want' in: $(cat "$tmp/err")"
}
expect_error "cannot open" "$T" info "$tmp/nonexistent.txt"
expect_error "unknown option '--bogus'" "$T" info --bogus x
expect_error "unknown generator" "$T" gen hypercube -o "$tmp/x"
printf 'num_ranks 1\nrank 0 {\n  a: calc 5\n  a requires b\n}\n' > "$tmp/bad.goal"
expect_error "bad.goal:4: label 'b' is not defined" "$T" info "$tmp/bad.goal"
head -c 100 "$tmp/r.wtb" > "$tmp/cut.wtb"
expect_error "cut.wtb" "$T" info --format=native "$tmp/cut.wtb"

exit $fail
