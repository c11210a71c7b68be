/* net/build.c — builds the read-only description of a network run from the
 * configuration: the network the catalogue names (network.h), the
 * rank -> terminal placement, the workload, the partition and the LP
 * layout. Sits on top of the network layer: it calls the files it builds
 * (packet, terminal, router, partition, statistics), none of them calls it;
 * they read the description through model.c's accessors. Knows no network,
 * topology or workload by name. Called once per process by the driver. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warp_hash.h"
#include "net/model.h"
#include "net/net_impl.h"


/* Places ranks on terminals: linear, random (seeded), or a file listing one
 * terminal per line for ranks 0, 1, ... */
static void place(warp_ini *ini, net_model *n, uint64_t seed)
{
    const char *how = warp_ini_string(ini, "network", "placement", "linear");
    n->rank_term = warp_xcalloc(n->ranks, sizeof *n->rank_term);
    n->term_rank = warp_xcalloc(n->nodes, sizeof *n->term_rank);
    for (uint64_t t = 0; t < n->nodes; t++)
        n->term_rank[t] = -1;
    if (strcmp(how, "linear") == 0) {
        for (uint64_t r = 0; r < n->ranks; r++)
            n->rank_term[r] = r;
        n->placement_linear = 1;
    } else if (strcmp(how, "random") == 0) {
        uint64_t *perm = warp_xcalloc(n->nodes, sizeof *perm);
        for (uint64_t t = 0; t < n->nodes; t++)
            perm[t] = t;
        warp_rng rng = warp_rng_stream(seed, UINT64_MAX);
        for (uint64_t i = n->nodes - 1; i > 0; i--) {
            uint64_t j = (uint64_t)warp_rng_integer(&rng, 0, (int64_t)i);
            uint64_t tmp = perm[i];
            perm[i] = perm[j];
            perm[j] = tmp;
        }
        for (uint64_t r = 0; r < n->ranks; r++)
            n->rank_term[r] = perm[r];
        free(perm);
    } else {
        FILE *f = fopen(how, "r");
        if (!f)
            warp_ini_fail(ini, "network", "placement",
                          "not linear, random, or a readable file of terminal numbers");
        for (uint64_t r = 0; r < n->ranks; r++) {
            unsigned long long t;
            if (fscanf(f, "%llu", &t) != 1 || t >= n->nodes) {
                fclose(f);
                warp_ini_fail(ini, "network", "placement",
                              "entry %llu (rank %llu) is missing or not a terminal below %llu",
                              (unsigned long long)r + 1, (unsigned long long)r,
                              (unsigned long long)n->nodes);
            }
            n->rank_term[r] = t;
        }
        fclose(f);
    }
    for (uint64_t r = 0; r < n->ranks; r++) {
        if ((r & 0x3FF) == 0)
            warp_poll_interrupt("placing the ranks");
        if (n->term_rank[n->rank_term[r]] >= 0)
            warp_ini_fail(ini, "network", "placement", "terminal %llu holds two ranks",
                          (unsigned long long)n->rank_term[r]);
        n->term_rank[n->rank_term[r]] = (int64_t)r;
    }
}

/* [network] sample (the driver's --sample=INTERVAL): the time-series grid.
 * Its result arrays live on every process until the reduction, so a grid
 * too fine for memory is refused here, with the interval that would fit. */
void net_sampling_read(warp_ini *ini, net_model *n)
{
    net_sampling *s = &n->sampling;
    memset(s, 0, sizeof *s);
    double iv = warp_ini_time_ns(ini, "network", "sample", 0);
    if (iv == 0)
        return;
    if (!(iv > 0))
        warp_ini_fail(ini, "network", "sample", "must be a positive time (e.g. 1us)");
    if (!n->routers)
        warp_ini_fail(ini, "network", "sample",
                      "time series need a packet network (routers and ports), not %s; "
                      "drop --sample or pick a topology", n->name);
    double count = ceil(n->end / iv);
    const double limit = (double)(UINT64_C(2) << 30); /* bytes of results per process */
    uint32_t ports = (uint32_t)(n->max_radix * n->vcs);
    double per = net_sample_interval_bytes(ports, n->nodes, n->routers);
    if (count * per > limit)
        warp_ini_fail(ini, "network", "sample",
                      "%.0f intervals of %g ns make %.1f GiB of time series per process; "
                      "use an interval of at least %g ns",
                      count, iv, count * per / (double)(UINT64_C(1) << 30),
                      ceil(n->end * per / limit));
    s->interval = iv;
    s->end = n->end;
    s->count = (uint32_t)count;
    s->ports = ports;
}

static const warp_lp_type *lp_type_of(warp_lpid gid, const void *arg)
{
    const net_model *n = arg;
    if (gid < n->nodes + n->lps)
        return n->net_ops->lp_type(n->net, gid);
    return n->wl_type;
}

/* The network places its LPs; a rank goes where its terminal is. */
static int map_of(warp_lpid gid, int npes, const void *arg)
{
    const net_model *n = arg;
    uint64_t i = gid < n->nodes + n->lps ? gid : net_term_of_rank(n, gid - n->nodes - n->lps);
    if (n->net_ops->map)
        return n->net_ops->map(n->net, i, npes);
    if (i < n->nodes)
        return (int)(i * (uint64_t)npes / n->nodes);
    return (int)((i - n->nodes) * (uint64_t)npes / n->lps);
}

/* Conservative mode: a rank and its terminal exchange events with no delay
 * (net_send, delivery, the sent notice), so they form one group, which
 * map_of keeps on one PE. */
static warp_lpid group_of(warp_lpid gid, const void *arg)
{
    const net_model *n = arg;
    return gid < n->nodes + n->lps ? gid : net_term_of_rank(n, gid - n->nodes - n->lps);
}

/* The run's lookahead: the network's bound on its delays between groups,
 * or 0 when the network or the workload has none. --synch=cons refuses a
 * run without one here, naming the cause. */
static void set_lookahead(net_model *n)
{
    const char *wl_why = n->wl_ops->no_lookahead ? n->wl_ops->no_lookahead(n->wl) : NULL;
    /* Only the packet fabric splits messages (the analytic networks have no packet size). */
    n->min_packet = n->routers && n->wl_ops->min_packet ? n->wl_ops->min_packet(n->wl, n->params.packet_size) : 0;
    double la = n->net_ops->lookahead ? n->net_ops->lookahead(n->net) : 0;
    n->model.lookahead = wl_why ? 0 : la;
    if (!warp_conservative(n->engine) || n->model.lookahead > 0)
        return;
    if (wl_why)
        warp_fatal(WARP_EXIT_USAGE, "--synch=cons cannot run workload %s: it %s; use --synch=opt",
                   n->wl_ops->name, wl_why);
    if (!n->net_ops->lookahead)
        warp_fatal(WARP_EXIT_USAGE,
                   "--synch=cons cannot run network %s: its LPs exchange events with no minimum "
                   "delay it can declare (no lookahead); use --synch=opt",
                   n->name);
    warp_fatal(WARP_EXIT_USAGE,
               "--synch=cons cannot run %s: a link or delay of 0 ns leaves no lookahead; give "
               "every link a positive latency or use --synch=opt",
               n->name);
}

/* Appends ", name" (or "name" first) to buf, for "choose one of" lists. */
static void add_name(char *buf, size_t cap, const char *name)
{
    size_t len = strlen(buf);
    snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", name);
}

/* The network [network] topology names: one of the catalogue's networks, or
 * the packet network on one of its topologies (then n->topo_ops is set). */
static const net_network_ops *find_network(warp_ini *ini, const net_catalog *cat, net_model *n)
{
    char known[512] = "";
    for (const net_topology_ops *const *t = cat->topologies; *t; t++)
        add_name(known, sizeof known, (*t)->name);
    for (const net_network_ops *const *o = cat->networks; *o; o++)
        add_name(known, sizeof known, (*o)->name);
    n->name = warp_ini_string(ini, "network", "topology", NULL);
    if (!n->name)
        warp_ini_fail(ini, "network", "topology", "missing; choose one of: %s", known);
    for (const net_network_ops *const *o = cat->networks; *o; o++)
        if (strcmp((*o)->name, n->name) == 0)
            return *o;
    for (const net_topology_ops *const *t = cat->topologies; *t; t++)
        if (strcmp((*t)->name, n->name) == 0) {
            n->topo_ops = *t;
            return &net_packet_network;
        }
    warp_ini_fail(ini, "network", "topology", "unknown; choose one of: %s", known);
}

static const net_workload_ops *find_workload(warp_ini *ini, const net_catalog *cat)
{
    const char *name = warp_ini_string(ini, "workload", "type", "traffic");
    char known[512] = "";
    for (const net_workload_ops *const *w = cat->workloads; *w; w++) {
        if (strcmp((*w)->name, name) == 0)
            return *w;
        add_name(known, sizeof known, (*w)->name);
    }
    warp_ini_fail(ini, "workload", "type", "unknown; choose one of: %s", known);
}

net_model *net_model_build(warp_ini *ini, const net_catalog *cat, const warp_ctx *w)
{
    net_model *n = net_model_size(ini, cat, w);
    net_model_complete(n, ini, cat);
    return n;
}

/* Collective: every process must place each router on the same rank. The
 * partitions are pure functions of the description (METIS runs with a
 * fixed seed), so this only guards against a METIS library that differs
 * between the machines of a run. */
static void agree_partition(const net_model *n)
{
    uint64_t h = warp_fnv1a(WARP_FNV1A_INIT, n->router_part, n->routers * sizeof *n->router_part);
    char item[64];
    snprintf(item, sizeof item, "router partition=%016llx", (unsigned long long)h);
    const char *items[1] = {item};
    warp_agree_config(n->engine, items, 1);
}

net_model *net_model_size(warp_ini *ini, const net_catalog *cat, const warp_ctx *w)
{
    net_catalog_declare(ini, cat);
    net_model *n = warp_xcalloc(1, sizeof *n);
    double end = warp_end_time(w);
    n->engine = w;
    n->end = end;
    n->net_ops = find_network(ini, cat, n);
    n->wl_ops = find_workload(ini, cat);
    net_presets_apply(ini, cat, n); /* before anything reads the keys it sets */
    n->ranks_hint = n->wl_ops->ranks_hint ? n->wl_ops->ranks_hint(ini) : 0;
    for (const char *const *p = n->net_ops->paths; p && *p && n->npaths < NET_PATHS; p++)
        n->npaths++;
    n->net = n->net_ops->setup(ini, n);
    net_sampling_read(ini, n); /* without a fabric: refuses time series */
    if (n->routers) {
        net_terminal_type(n, &n->term_type);
        net_router_type(n, &n->router_type);
    }
    n->ranks = (uint64_t)warp_ini_int(ini, "network", "ranks", (int64_t)n->nodes, 1,
                                      (int64_t)n->nodes);
    n->warmup = warp_ini_time_ns(ini, "workload", "warmup", 0);
    if (n->warmup < 0 || n->warmup >= end)
        warp_ini_fail(ini, "workload", "warmup", "must lie in [0, end) (end is %g ns)", end);
    net_workload_mem_default(&n->wl_mem);
    if (n->wl_ops->mem_hint)
        n->wl_ops->mem_hint(ini, n, &n->wl_mem);
    return n;
}

/* Index blocks know nothing of where the workload runs: a replay job on
 * the first half of a fat-tree's nodes lands on one rank, which then runs
 * nearly every event with the other waiting (2 ranks measured 0.88x seq).
 * Said once, before the run, with the way out; the run goes on, since
 * block placement is also what one compares partitions against. */
static void warn_lopsided_block(const net_model *n, int nranks)
{
    if (warp_rank(n->engine) != 0) /* the one that speaks */
        return;
    double imb = net_partition_block_imbalance(n, (uint32_t)nranks);
    if (imb > 1.25)
        fprintf(stderr, "warpnet: partition = block puts %.0f %% of the expected events on one of "
                "%d ranks (imbalance %.2f; see --describe --ranks=%d); partition = topology "
                "balances them\n", 100.0 * imb / nranks, nranks, imb, nranks);
}

void net_model_complete(net_model *n, warp_ini *ini, const net_catalog *cat)
{
    net_memory_refuse_oversized(n);
    place(ini, n, warp_seed(n->engine));
    /* The workload first: the partition weighs routers by its busy ranks. */
    n->wl = n->wl_ops->setup(ini, n);
    n->wl_type = n->wl_ops->lp_type(n->wl);
    int nranks = warp_nranks(n->engine);
    if (n->net_ops == &net_packet_network && nranks > 1 &&
        warp_partition(n->engine) != WARP_PARTITION_BLOCK) {
        n->router_part = net_partition(n, warp_partition(n->engine), (uint32_t)nranks);
        n->part_ranks = nranks;
        agree_partition(n);
    } else if (n->net_ops == &net_packet_network && nranks > 1) {
        warn_lopsided_block(n, nranks);
    } else if (n->net_ops == &net_packet_network && warp_partition(n->engine) == WARP_PARTITION_FILE) {
        /* One rank: nothing to place, but a file for another network is
         * refused here too, before a long run on many ranks finds it. */
        free(net_partition(n, WARP_PARTITION_FILE, 1));
    }

    n->res = net_results_new(n->nodes, n->routers, n->max_radix);
    if (!n->res || net_sample_results_alloc(n->res, &n->sampling) != 0)
        warp_fatal(WARP_EXIT_RESOURCE, "out of memory for per-terminal statistics of %llu nodes",
                   (unsigned long long)n->nodes);
    n->model.name = "warpnet";
    n->model.total_lps = n->nodes + n->lps + n->ranks;
    /* Slots as large as the events this network sends, digests as the full
     * layout's, so trimming changes no result. */
    n->model.msg_size = net_event_bytes(n);
    n->model.digest_size = sizeof(net_event);
    set_lookahead(n);
    n->model.group = group_of;
    n->model.lp_type = lp_type_of;
    n->model.map = map_of;
    n->model.arg = n;
}

void net_model_free(net_model *n)
{
    if (!n)
        return;
    /* A model only sized (--describe of a network too large to build) has
     * no workload. */
    if (n->wl && n->wl_ops && n->wl_ops->destroy)
        n->wl_ops->destroy(n->wl);
    if (n->net_ops && n->net_ops->destroy)
        n->net_ops->destroy(n->net);
    net_results_free(n->res);
    free(n->rank_term);
    free(n->router_layout);
    free(n->router_part);
    free(n->term_rank);
    free(n);
}
