#!/bin/sh
# tests/arch/seams.sh ROOT [BUILD] — checks the engine's seams over the
# sources under ROOT (comments and string literals left out). Prints one
# line per breach, FILE:LINE: what: why, and exits 1 if there is any, 0 if
# none:
# - MPI: the engine calls MPI in five files only, so that another transport
#   (threads) goes behind the same functions. With BUILD, the
#   engine's objects there are checked too (nm: MPI functions they call).
# - exit: a library never exits on its own; only the fatal path does.
# - options: only options.c writes the options (w->opt), const in a run.
root=${1:?usage: seams.sh ROOT [BUILD]}
build=${2:-}
cd "$root" || exit 2

# Where MPI may appear, and why (every other file of config, rng, engine and
# models may not name an MPI_ symbol; host programs in tools/, examples/
# and bench/ may, through warp_mpi.h):
mpi_allowed='
engine/collective.c   the collectives: statistics, windows, checkpoints, configuration, model results
engine/transport.c    point-to-point: the remote events
engine/shm.c          the on-node rings: the node communicator and its shared windows (the rings, GVT slots), set up and freed
engine/context.c      MPI start (warp_init) and stop (warp_finalize, the fatal path, warp_stop_all)
engine/gvt.c          the GVT round: one non-blocking all-reduce with its own operation, polled between batches
engine/internal.h     declares the handles those files keep in the context (communicator, requests, GVT types); calls nothing
engine/warp_mpi.h     the public seam for host programs: the engine communicator (warp_comm)
'
# Where exit() and abort() may be called, and why:
exit_allowed='
config/fatal.c        warp_fatal: the one fatal path (one line, then exit with its code)
engine/context.c      the engine stop of that path once MPI runs (MPI_Abort or finalize, exit) and warp_stop_all
'
# The code of a C file, comments and string/char literals blanked, lines kept.
code() {
    awk '
    {
        out = ""; n = length($0); i = 1
        while (i <= n) {
            c = substr($0, i, 1); d = substr($0, i, 2)
            if (incom) { if (d == "*/") { incom = 0; i += 2 } else i++; continue }
            if (instr) {
                if (c == "\\") { i += 2; continue }
                if (c == q) { instr = 0; out = out c }
                i++; continue
            }
            if (d == "/*") { incom = 1; i += 2; out = out " "; continue }
            if (d == "//") break
            if (c == "\"" || c == "\047") { instr = 1; q = c; out = out c; i++; continue }
            out = out c; i++
        }
        instr = 0
        print out
    }' "$1"
}
allowed() { # list file
    printf '%s\n' "$1" | awk -v f="$2" '$1 == f { ok = 1 } END { exit !ok }'
}
found=$(
for f in $(find config rng engine models -name '*.[ch]' | sort); do
    allowed "$mpi_allowed" "$f" && continue
    code "$f" | awk -v f="$f" '/(^|[^A-Za-z0-9_])P?MPI_[A-Za-z]/ {
        printf "%s:%d: names MPI (%s): the engine calls MPI only in collective.c, transport.c, shm.c, context.c and gvt.c (tests/arch/seams.sh); use coll_* or the transport\n", f, NR, $0 }'
done
for f in $(find config rng engine models tools examples bench -name '*.[ch]' | sort); do
    allowed "$exit_allowed" "$f" && continue
    code "$f" | awk -v f="$f" '/(^|[^A-Za-z0-9_])(exit|_Exit|quick_exit|abort)[ \t]*\(/ {
        printf "%s:%d: exits (%s): only the fatal path exits (warp_fatal, warp_stop_all); a library returns a status, a host returns from main\n", f, NR, $0 }'
done
for f in $(find engine -name '*.[ch]' ! -name options.c | sort); do
    code "$f" | awk -v f="$f" '/->opt\.[A-Za-z_0-9]+(\[[^]]*\])?[ \t]*([-+*\/|&^]?=[^=]|\+\+|--)/ || /(\+\+|--)[ \t]*[A-Za-z_]+->opt\./ {
        printf "%s:%d: writes an option (%s): only options.c writes w->opt; keep what a run adapts in w->sched, w->ck or w->rep\n", f, NR, $0 }'
done
if [ -n "$build" ]; then
    for o in "$build"/engine/*.o; do
        [ -e "$o" ] || continue
        f=engine/$(basename "$o" .o).c
        allowed "$mpi_allowed" "$f" && continue
        nm -u "$o" 2>/dev/null | awk -v f="$o" '$NF ~ /^P?MPI_/ {
            printf "%s: calls %s: the engine calls MPI only in collective.c, transport.c, shm.c, context.c and gvt.c\n", f, $NF }'
    done
fi
)
[ -z "$found" ] && exit 0
printf '%s\n' "$found"
exit 1
