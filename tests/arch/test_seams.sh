#!/bin/sh
# test_seams.sh — the sources and the engine's objects keep the seams of
# docs/architecture.md (seams.sh): MPI in five engine files only, exit()
# and abort() on the fatal path only, options written by options.c only.
# And seams.sh finds each kind of breach planted in a copy of the tree (MPI
# in another engine file, in a model, in an object's calls; exit or abort in
# the engine, a model and a host program; an option written by a
# scheduler), while the same words in comments and strings are no breach.
set -u
S="${top_srcdir:-.}"
B="${top_builddir:-.}"
A="$S/tests/arch/seams.sh"
. "$S/tests/arch/lib.sh"
fail=0
ls "$B"/engine/*.o > /dev/null 2>&1 || { echo "FAIL no engine objects in $B/engine to check"; fail=1; }
out=$(sh "$A" "$S" "$B") || { echo "FAIL the engine's seams are breached:"; echo "$out"; fail=1; }
[ $fail = 0 ] && echo "ok   the sources and objects keep the seams"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/warpnet-seams.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
(cd "$S" && tar cf - config rng engine models tools examples bench) | (cd "$TMP" && tar xf -)
plant() { # file line
    printf '%s\n' "$2" >> "$TMP/$1"
}
plant engine/stats.c 'static void planted_mpi(MPI_Comm c) { MPI_Barrier(c); }'
plant models/net/model.c 'static int planted_mpi(void) { return MPI_SUCCESS; }'
plant engine/options.c 'static void planted_exit(void) { exit(2); }'
plant models/torus/torus_topo.c 'static void planted_abort(void) { abort(); }'
plant tools/warpnet/main.c 'static void planted_exit(void) { exit (1); }'
plant engine/sched_opt.c 'static void planted_opt(warp_ctx *w) { w->opt.batch = 2; }'
plant engine/setup.c '/* MPI_Barrier(c); exit(1); w->opt.batch = 2; */ static const char *planted_ok = "MPI_Finalize exit(3)";'
mkdir -p "$TMP/build/engine"
printf 'int MPI_Barrier(int);\nint planted(void) { return MPI_Barrier(0); }\n' > "$TMP/report.c"
${CC:-cc} -c -o "$TMP/build/engine/report.o" "$TMP/report.c" ||
    { echo "FAIL cannot compile the planted object"; fail=1; }
out=$(sh "$A" "$TMP" "$TMP/build"); rc=$?
[ $rc = 1 ] || { echo "FAIL seams.sh exits $rc on a tree with breaches, want 1"; fail=1; }
# comments and strings with the same words are none
expect_found "$out" 7 'engine/stats.c:.*names MPI' 'models/net/model.c:.*names MPI' \
    'engine/options.c:.*exits' 'models/torus/torus_topo.c:.*exits' 'tools/warpnet/main.c:.*exits' \
    'engine/sched_opt.c:.*writes an option' 'build/engine/report.o: calls MPI_Barrier'
exit $fail
