/* engine/context.c — the one engine context per process: MPI start and stop,
 * user-facing fatal errors, the collective stop, and small accessors. Errors
 * print one line on the rank that found them (rank 0 first, when several did)
 * and stop every rank (MPI_Abort when several run); warp_stop_all stops every
 * rank together with rank 0's line. The engine exits only here. */
#include "internal.h"

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t signal_seen;
static struct timespec signal_first;

/* The first SIGINT/SIGTERM asks for an orderly stop; a second one kills, but
 * only a second later: `timeout` (and batch systems) deliver one request
 * twice in a burst, to the process and again to its process group, and that
 * echo must not kill a run that is stopping in order. */
static void on_signal(int sig)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now); /* async-signal-safe */
    if (!signal_seen) {
        signal_first = now;
        signal_seen = 1;
        return;
    }
    double since = (double)(now.tv_sec - signal_first.tv_sec) +
                   1e-9 * (double)(now.tv_nsec - signal_first.tv_nsec);
    if (since >= 1.0) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

void warp_signal_catch(int sig)
{
    signal(sig, on_signal);
}

bool warp_signal_pending(void)
{
    return signal_seen != 0;
}
void warp_poll_interrupt(const char *during)
{
    if (signal_seen)
        warp_fatal(WARP_EXIT_SIGNAL, "interrupted by a signal while %s; nothing was written",
                   during);
}

static int fatal_multi; /* several ranks: stop them all */
static int fatal_rank;
static int fatal_running; /* the run has started (setup is over) */

void fatal_run_started(void) { fatal_running = 1; }

double warp_wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The engine's stop for warp_fatal (warp_error.h) once MPI runs. */
static void stop_ranks(int code, const char *line, size_t len) __attribute__((noreturn));
static void stop_ranks(int code, const char *line, size_t len)
{
    fflush(stdout);
    if (fatal_multi && fatal_rank != 0) {
        /* Errors in the options or the run file reach every rank at once:
         * let rank 0 report and stop them all, so the user reads one line.
         * If rank 0 is fine, this rank speaks after the pause. */
        /* During setup every rank reads the same options, run file and
         * traces, so rank 0 almost always finds the same error: wait long
         * enough for its line and its abort even on a loaded machine. */
        struct timespec defer = {fatal_running ? 1 : 10, 0};
        nanosleep(&defer, NULL);
    }
    /* One write: mpiexec forwards a line written in pieces in pieces, and
     * an abort may cut it. */
    ssize_t written = write(STDERR_FILENO, line, len);
    (void)written; /* nowhere left to report a closed stderr */
    if (fatal_multi) {
        /* MPI_Abort races the launcher's output forwarding: under load it
         * kills the proxy before it has read our line from the pipe. Give it
         * a moment to drain first. */
        struct timespec pause = {0, 300 * 1000 * 1000};
        nanosleep(&pause, NULL);
        MPI_Abort(MPI_COMM_WORLD, code);
    }
    /* A process that exits without MPI_Finalize is a failure to mpiexec
     * (hydra): under load it reported exit 1 (or SIGHUP) instead of our
     * code. Alone, nothing waits on us, so finalize and exit cleanly. */
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Finalize();
    exit(code);
}

void warp_stop_all(const warp_ctx *w, int code, const char *fmt, ...)
{
    if (w->rank == 0) {
        char line[1024];
        va_list ap;
        va_start(ap, fmt);
        size_t len = warp_error_line(line, sizeof line, warp_program_name(), fmt, ap);
        va_end(ap);
        fflush(NULL);
        /* One write, as stop_ranks: mpiexec forwards a line in pieces. */
        ssize_t written = write(STDERR_FILENO, line, len);
        (void)written;
    }
    fflush(NULL);
    /* No rank leaves before rank 0 has said why. */
    MPI_Barrier(w->comm);
    /* Messages may still be in flight while the transport is up: no orderly
     * MPI_Finalize then, on several ranks. Alone, or drained and torn down,
     * finalize: mpiexec reports an exit without it as exit 1. */
    if (w->nranks > 1 && transport_up(w))
        MPI_Abort(MPI_COMM_WORLD, code);
    MPI_Finalize();
    exit(code);
}

void warp_fatal_lp(const warp_lp *lp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *buf = warp_xvformat(fmt, ap);
    va_end(ap);
    warp_fatal(WARP_EXIT_USAGE, "LP %llu (%s) at time %.17g %s", (unsigned long long)lp_gid(lp),
               lp->type->name ? lp->type->name : "?", warp_now(lp), buf);
}

void warp_internal_error(const char *file, int line, const char *invariant)
{
    warp_fatal(WARP_EXIT_INTERNAL, "internal error at %s:%d: invariant broken: %s (please report)",
               file, line, invariant);
}

warp_ctx *warp_init(int *argc, char ***argv)
{
    int inited = 0;
    MPI_Initialized(&inited);
    if (!inited)
        MPI_Init(argc, argv);
    if (!warp_program_name() && argc && *argc > 0 && (*argv)[0]) {
        const char *slash = strrchr((*argv)[0], '/');
        const char *name = slash ? slash + 1 : (*argv)[0];
        if (!strncmp(name, "lt-", 3)) /* libtool's uninstalled wrapper */
            name += 3;
        warp_set_program_name(name);
    }
    warp_ctx *w = calloc(1, sizeof *w);
    if (!w)
        warp_fatal(WARP_EXIT_RESOURCE, "out of memory for the engine context");
    /* Its own communicator: a host program's MPI traffic beside the engine's
     * can never match the engine's receives. */
    MPI_Comm_dup(MPI_COMM_WORLD, &w->comm);
    MPI_Comm_rank(w->comm, &w->rank);
    MPI_Comm_size(w->comm, &w->nranks);
    MPI_Comm node;
    MPI_Comm_split_type(w->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &w->on_node);
    MPI_Comm_free(&node);
    fatal_multi = w->nranks > 1;
    fatal_rank = w->rank;
    warp_set_fatal_stop(stop_ranks);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    warp_options_defaults(w);
    w->ck.lock_fd = -1;
    return w;
}

void warp_finalize(warp_ctx *w)
{
    warp_free_options(w);
    if (w->ck.lock_fd >= 0)
        close(w->ck.lock_fd); /* the --checkpoint DIR is free for another run */
    int fin = 0;
    MPI_Finalized(&fin);
    if (!fin)
        MPI_Comm_free(&w->comm);
    free(w);
    MPI_Finalized(&fin);
    if (!fin)
        MPI_Finalize();
}

int warp_rank(const warp_ctx *w) { return w->rank; }
int warp_nranks(const warp_ctx *w) { return w->nranks; }
double warp_end_time(const warp_ctx *w) { return w->opt.end; }
uint64_t warp_seed(const warp_ctx *w) { return w->opt.seed; }
int warp_quiet(const warp_ctx *w) { return w->opt.quiet; }
int warp_ranks_on_node(const warp_ctx *w) { return w->on_node; }

/* One number from a /proc or /sys file ("max" and absence: 0). */
static uint64_t read_number(const char *path, const char *label)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[256];
    unsigned long long x = 0;
    while (fgets(line, sizeof line, f)) {
        if (!label && sscanf(line, "%llu", &x) == 1)
            break;
        if (label && !strncmp(line, label, strlen(label)) &&
            sscanf(line + strlen(label), "%llu", &x) == 1) {
            x *= 1024; /* meminfo counts kB */
            break;
        }
    }
    fclose(f);
    return (uint64_t)x;
}

uint64_t warp_memory_per_rank(const warp_ctx *w)
{
    if (w->opt.mem_per_rank)
        return w->opt.mem_per_rank;
    uint64_t avail = read_number("/proc/meminfo", "MemAvailable:");
    /* A cgroup limit (v2, then v1) lowers it to what the group has left. */
    uint64_t max = read_number("/sys/fs/cgroup/memory.max", NULL);
    uint64_t cur = read_number("/sys/fs/cgroup/memory.current", NULL);
    if (!max) {
        max = read_number("/sys/fs/cgroup/memory/memory.limit_in_bytes", NULL);
        cur = read_number("/sys/fs/cgroup/memory/memory.usage_in_bytes", NULL);
    }
    if (max && max < (UINT64_C(1) << 60)) {
        uint64_t left = max > cur ? max - cur : 0;
        if (!avail || left < avail)
            avail = left;
    }
    return avail / (uint64_t)(w->on_node > 0 ? w->on_node : 1);
}
warp_partition_kind warp_partition(const warp_ctx *w) { return (warp_partition_kind)w->opt.partition; }
const char *warp_partition_file(const warp_ctx *w)
{
    return w->opt.partition == WARP_PARTITION_FILE ? w->opt.partition_file : NULL;
}
int warp_conservative(const warp_ctx *w) { return w->opt.synch == SYNCH_CONS; }
const warp_stats *warp_last_stats(const warp_ctx *w) { return &w->stats; }
