/* replay/sizing.c — what a replay will hold, told before it is built
 * (the workload's mem_hint; net/memory.c turns it into --describe's
 * estimate). A few ranks of each job are loaded and measured, so the
 * figures follow the trace, not a guess per format. Called while the
 * network is sized, before the replay's setup. */
#include <stdlib.h>
#include <string.h>

#include "replay/workload_impl.h"

/* Ranks of each job loaded to measure its graphs: the first, middle, last. */
#define RP_SIZING_SAMPLES 3

/* Progress arrays per rank beside its graph (workload.c's rp_build): met,
 * ready and flags per task, posted and unexpected slots per triggered
 * task, six blocks rounded to 16 bytes. */
static double progress_bytes(const replay_rank *g)
{
    double trig = 0;
    for (uint32_t i = 0; i < g->ntasks; i++)
        trig += (g->tasks[i].flags & REPLAY_TRIGGERED) != 0;
    return 9.0 * g->ntasks + 16.0 * trig + 12 + 6 * 15;
}

/* A graph as workload.c holds it: tasks, dependencies, messages, and the
 * dependants' CSR. */
static double graph_bytes(const replay_rank *g)
{
    return (double)g->ntasks * (sizeof(replay_task) + 8) + (double)g->ndeps * 8 +
           (double)g->nmsgs * sizeof(replay_msg) + 128;
}

/* The most messages one task's end sets going: its dependants start at
 * once and send theirs, all waiting for the NIC together. */
static double burst(const replay_rank *g)
{
    uint32_t *out_end, *out;
    replay_rank_dependants(g, &out_end, &out);
    double most = 0;
    for (uint32_t t = 0; t < g->ntasks; t++) {
        double n = g->tasks[t].msg_end - (t ? g->tasks[t - 1].msg_end : 0);
        for (uint32_t k = t ? out_end[t - 1] : 0; k < out_end[t]; k++) {
            uint32_t d = REPLAY_DEP_INDEX(out[k]);
            n += g->tasks[d].msg_end - (d ? g->tasks[d - 1].msg_end : 0);
        }
        if (n > most)
            most = n;
    }
    free(out_end);
    free(out);
    return most;
}

/* Router hops of rank `from`'s messages in g, summed into *hops over *count
 * messages, where ranks sit on terminals in order (job and network
 * placement linear, the defaults): the stencil's neighbours are one hop
 * where random pairs of a torus are dozens. */
static void message_hops(const net_model *net, uint64_t first, int32_t from, const replay_rank *g,
                         double *hops, double *count)
{
    const void *topo;
    const net_topology_ops *t = net_topology(net, &topo);
    uint64_t nodes = net_nodes(net);
    if (!t || !t->min_hops)
        return;
    for (uint32_t i = 0; i < g->nmsgs; i++) {
        uint64_t a = first + (uint64_t)from, b = first + (uint64_t)g->msgs[i].dst;
        if (a < nodes && b < nodes) {
            *hops += t->min_hops(topo, a, b);
            *count += 1;
        }
    }
}

static int is_linear(warp_ini *ini, const char *sec, const char *key)
{
    const char *v = warp_ini_get(ini, sec, key);
    return !v || !strcmp(v, "linear");
}

void replay_mem_hint(warp_ini *ini, const net_model *net, net_workload_mem *m)
{
    replay_opts o;
    replay_opts_read(ini, &o);
    double heap = 0, most = 0, bytes = 0, msgs = 0, hops = 0, hopped = 0;
    uint64_t first = 0; /* the job's first network rank under linear placement */
    int linear = is_linear(ini, "network", "placement");
    char sec[32];
    for (int j = 0; snprintf(sec, sizeof sec, "job.%d", j), warp_ini_has_section(ini, sec); j++) {
        const char *trace = warp_ini_get(ini, sec, "trace");
        const char *iters = warp_ini_get(ini, sec, "iterations");
        replay_source *src;
        replay_err err;
        /* A trace that does not open is the setup's to report, by name. */
        linear &= is_linear(ini, sec, "placement");
        if (!trace || replay_source_open(trace, warp_ini_get(ini, sec, "format"), &o, &src, &err)) {
            linear = 0; /* the next jobs' first ranks are not known */
            continue;
        }
        int32_t ranks = src->nranks, pick[RP_SIZING_SAMPLES] = {0, ranks / 2, ranks - 1};
        double graph = 0, progress = 0, seen = 0;
        int shared = 1;
        for (int k = 0; k < RP_SIZING_SAMPLES; k++) {
            if (k && pick[k] == pick[k - 1])
                continue;
            replay_rank g = {0};
            long n = iters ? atol(iters) : 1;
            if (replay_source_load(src, pick[k], &g, &err) ||
                replay_rank_repeat(&g, n > 1 ? (uint32_t)n : 1, trace, &err)) {
                replay_rank_free(&g);
                continue;
            }
            graph += graph_bytes(&g);
            progress += progress_bytes(&g);
            double b = burst(&g);
            most = b > most ? b : most;
            for (uint32_t i = 0; i < g.nmsgs; i++)
                bytes += (double)g.msgs[i].bytes;
            msgs += g.nmsgs;
            if (linear)
                message_hops(net, first, pick[k], &g, &hops, &hopped);
            shared &= replay_source_shape_class(src, pick[k]) >= 0;
            seen++;
            replay_rank_free(&g);
        }
        if (seen) {
            /* Ranks of one shape share their graph (workload.c's shape
             * table); a source that cannot tell shapes keeps one a rank. */
            double graphs = shared && ranks > REPLAY_SHAPE_CLASSES ? REPLAY_SHAPE_CLASSES : ranks;
            heap += graph / seen * graphs + progress / seen * ranks;
        }
        first += (uint64_t)ranks;
        replay_source_close(src);
    }
    /* Per network rank: its job, local rank and result row (workload_setup.c). */
    heap += (double)net_ranks(net) * (8 + sizeof(rp_result));
    m->heap_bytes = heap;
    /* A burst's messages wait at the NIC, each one event until the NIC
     * takes it; the packets they become are net/memory.c's to count. */
    m->pending = 2 + most;
    m->message_bytes = msgs > 0 ? bytes / msgs : 0;
    if (hopped > 0)
        m->mean_hops = hops / hopped;
}
