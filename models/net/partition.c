/* net/partition.c — which rank holds each router ([engine] partition):
 * block (index blocks, the packet network's placement so far), topology
 * (the topology's partition hook, block without one) or metis (METIS 5's
 * k-way partition of the router graph, when built with it); terminals and
 * ranks follow their router. Also the --describe --ranks=N quality lines. Every
 * function is a pure function of the read-only description, so every
 * process computes the same partition. Called by build.c, packet.c and
 * the driver. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_METIS
#include <metis.h>
#endif

#include "net/model.h"
#include "net/net_impl.h"

/* Mean of the known (>= 0) values of `val` over router r's router
 * neighbours; -1 when none is known. */
static double neighbour_mean(const net_model *n, uint64_t r, const double *val)
{
    double sum = 0, cnt = 0;
    int32_t k = n->topo_ops->radix(n->topo, r);
    for (int32_t p = 0; p < k; p++) {
        net_peer e = n->topo_ops->peer(n->topo, r, p);
        if (e.kind != NET_PEER_ROUTER || val[e.id] < 0)
            continue;
        sum += val[e.id];
        cnt += 1;
    }
    return cnt > 0 ? sum / cnt : -1;
}

/* LPs a terminal brings to its router's rank: itself, and its application
 * rank's LP when one is placed there. A network described from its sizes
 * alone (too large to build here) has no placement yet: every terminal
 * counts as holding a rank, as the default placement gives it one. */
static int terminal_lps(const net_model *n, uint64_t t)
{
    return !n->term_rank || n->term_rank[t] >= 0 ? 2 : 1;
}

/* The load of each router for balancing (heap): itself, five per terminal
 * that holds a workload rank with work (its NIC's and rank's events; a
 * terminal the workload leaves idle sends and receives nothing), and per other connected
 * port its expected transit: the share of its own terminals in use, or for
 * a router without terminals its neighbours' share (a fat-tree's
 * aggregation switch carries what its pod's edge switches inject; a core
 * switch the mean over the pods). With every terminal in use (synthetic
 * traffic) that is one per router port and five per terminal; a replay job
 * filling part of the machine has its own routers split between the ranks
 * instead of giving one rank all of them. */
static double *router_loads(const net_model *n)
{
    const net_topology_ops *ops = n->topo_ops;
    uint64_t routers = n->routers ? n->routers : 1, used = 0;
    uint32_t *terms = warp_xcalloc(routers, sizeof *terms);
    double *busy = warp_xcalloc(routers, sizeof *busy), *c = warp_xcalloc(routers, sizeof *c);
    int (*rank_busy)(const void *, uint64_t) = n->wl ? n->wl_ops->rank_busy : NULL;
    for (uint64_t t = 0; t < n->nodes; t++) {
        uint64_t r = ops->attach(n->topo, t).router;
        terms[r]++;
        if (!n->term_rank || (n->term_rank[t] >= 0 &&
                              (!rank_busy || rank_busy(n->wl, (uint64_t)n->term_rank[t]))))
            c[r] += 5, busy[r] += 1, used++;
    }
    for (uint64_t r = 0; r < n->routers; r++)
        busy[r] = terms[r] ? busy[r] / terms[r] : -1;
    /* Outward from the routers with terminals, one hop per round (each
     * round reads only values known before it); routers farther out take
     * the share of all terminals in use. */
    double *next = warp_xcalloc(routers, sizeof *next);
    for (int round = 0; round < 3; round++) {
        for (uint64_t r = 0; r < n->routers; r++)
            next[r] = busy[r] >= 0 ? busy[r] : neighbour_mean(n, r, busy);
        memcpy(busy, next, n->routers * sizeof *busy);
    }
    for (uint64_t r = 0; r < n->routers; r++)
        if (busy[r] < 0)
            busy[r] = n->nodes ? (double)used / (double)n->nodes : 1;
    free(next);
    for (uint64_t r = 0; r < n->routers; r++) {
        int32_t k = ops->radix(n->topo, r);
        c[r] += 1;
        for (int32_t p = 0; p < k; p++) {
            net_peer_kind kind = ops->peer(n->topo, r, p).kind;
            c[r] += kind == NET_PEER_TERMINAL || kind == NET_PEER_NONE ? 0 : busy[r];
        }
    }
    free(terms);
    free(busy);
    return c;
}

void net_partition_runs(const double *load, uint64_t routers, const uint64_t *order,
                        uint64_t unit, uint32_t parts, uint32_t *part)
{
    /* cum[j]: load of the first j routers of the order. */
    double *cum = warp_xcalloc(routers + 1, sizeof *cum);
    for (uint64_t j = 0; j < routers; j++)
        cum[j + 1] = cum[j] + load[order ? order[j] : j];
    double share = cum[routers] / parts;
    uint64_t start = 0;
    for (uint32_t i = 0; i < parts; i++) {
        uint64_t end = routers;
        if (i + 1 < parts) {
            double target = share * (i + 1);
            uint64_t j = start + 1;
            while (j < routers && cum[j] < target)
                j++;
            if (j > start + 1 && target - cum[j - 1] < cum[j] - target)
                j--;
            uint64_t u = unit > 1 ? (j + unit / 2) / unit * unit : j;
            if (u > start && u < routers && fabs(cum[u] - target) <= 0.02 * share)
                j = u;
            /* Leave at least one router for each part still to come. */
            uint64_t last = routers - (parts - 1 - i);
            end = j < start + 1 ? start + 1 : j > last ? last : j;
        }
        for (uint64_t j = start; j < end; j++)
            part[order ? order[j] : j] = i;
        start = end;
    }
    free(cum);
}

/* Half: a remote event measured 1.3-1.8 local ones (bench/RESULTS.md). */
#define REMOTE_EXTRA 0.5

/* What partition costs and --describe --ranks=N both weigh: the router
 * links (each once) and those between parts, and the load of the busiest
 * part and of all. */
typedef struct part_split {
    uint64_t links, cut;
    double most, all;
} part_split;

static part_split split_of(const net_topology_ops *ops, const void *topo, const double *load,
                           uint32_t parts, const uint32_t *part)
{
    part_split q = {0, 0, 0, 0};
    uint64_t routers = ops->routers(topo);
    double *sum = warp_xcalloc(parts, sizeof *sum);
    for (uint64_t r = 0; r < routers; r++) {
        sum[part[r]] += load[r];
        q.all += load[r];
        for (int32_t p = 0, k = ops->radix(topo, r); p < k; p++) {
            net_peer e = ops->peer(topo, r, p);
            if (e.kind == NET_PEER_ROUTER && (e.id > r || (e.id == r && e.port > p))) {
                q.links++;
                q.cut += part[e.id] != part[r];
            }
        }
    }
    for (uint32_t p = 0; p < parts; p++)
        q.most = sum[p] > q.most ? sum[p] : q.most;
    free(sum);
    return q;
}

double net_partition_cost(const net_topology_ops *ops, const void *topo, const double *load,
                          uint32_t parts, const uint32_t *part)
{
    part_split q = split_of(ops, topo, load, parts, part);
    double crossing = (double)q.cut / (double)(q.links + ops->nodes(topo));
    return (q.all > 0 ? q.most * parts / q.all : 1) * (1 + REMOTE_EXTRA * crossing);
}

/* ---- Measured traffic (warpnet --write-partition) ---------------------------- */

/* Packets into router r through its port p over the measured run. */
static double port_pkts(const net_results *m, uint64_t r, int32_t p)
{
    return m->port_rows[(r * (uint64_t)m->max_radix + (uint64_t)p) * NET_PORT_COLS + 1];
}

/* Packets over router r's port p, both ways, when it leads to a router. */
static double link_pkts(const net_results *m, uint64_t r, int32_t p, net_peer e)
{
    return port_pkts(m, r, p) + port_pkts(m, e.id, e.port);
}

/* Measured load of each router (heap): one per packet it received (an
 * arrival, its departure and the credit back are a packet's events at a
 * hop) plus, for each of its terminals, one per packet injected and one
 * per packet delivered (the NIC's and its rank's events); 1 more so that
 * an idle router still counts. */
static double *measured_loads(const net_model *n, const net_results *m)
{
    double *ev = warp_xcalloc(n->routers ? n->routers : 1, sizeof *ev);
    for (uint64_t r = 0; r < n->routers; r++) {
        int32_t k = n->topo_ops->radix(n->topo, r);
        ev[r] = 1;
        for (int32_t p = 0; p < k; p++)
            ev[r] += port_pkts(m, r, p);
    }
    for (uint64_t t = 0; t < n->nodes; t++)
        ev[n->topo_ops->attach(n->topo, t).router] +=
            m->term_rows[t * NET_TERM_COLS + 0] + m->term_rows[t * NET_TERM_COLS + 2];
    return ev;
}

#ifdef HAVE_METIS
/* Orders (neighbour, weight) pairs by neighbour (qsort). */
static int idx_cmp(const void *a, const void *b)
{
    idx_t x = *(const idx_t *)a, y = *(const idx_t *)b;
    return (x > y) - (x < y);
}

/* The router graph in METIS's CSR form: xadj[r] .. xadj[r+1] index r's
 * neighbours in adj, each once (parallel links add to its weight in wgt,
 * a link to the router itself is left out). Two vertex weights per router
 * (vwgt[2r], vwgt[2r+1]): its LPs (itself, its terminals, the ranks placed
 * on them) and its events. Without a measurement the events are expected
 * (as measure() below counts them) and every link weighs 1; with one they
 * are measured_loads() and a link weighs its packets both ways (plus 1),
 * scaled so that the weights fit METIS's 32-bit sums. */
typedef struct router_graph {
    idx_t *xadj, *adj, *wgt, *vwgt;
} router_graph;

static router_graph router_csr(const net_model *n, const net_results *m)
{
    uint64_t routers = n->routers;
    router_graph g;
    double *ev = m ? measured_loads(n, m) : NULL, scale = 1, total = 0;
    if (m) {
        for (uint64_t r = 0; r < routers; r++) {
            int32_t k = n->topo_ops->radix(n->topo, r);
            total += ev[r];
            for (int32_t p = 0; p < k; p++) {
                net_peer e = n->topo_ops->peer(n->topo, r, p);
                total += e.kind == NET_PEER_ROUTER ? link_pkts(m, r, p, e) : 0;
            }
        }
        scale = total > 1e8 ? 1e8 / total : 1;
    }
    g.xadj = warp_xcalloc(routers + 1, sizeof *g.xadj);
    g.vwgt = warp_xcalloc(2 * routers, sizeof *g.vwgt);
    for (uint64_t r = 0; r < routers; r++) {
        int32_t k = n->topo_ops->radix(n->topo, r);
        g.vwgt[2 * r] = g.vwgt[2 * r + 1] = 1;
        for (int32_t p = 0; p < k; p++) {
            net_peer e = n->topo_ops->peer(n->topo, r, p);
            g.vwgt[2 * r + 1] += e.kind != NET_PEER_NONE;
            g.xadj[r + 1] += e.kind == NET_PEER_ROUTER && e.id != r;
        }
        if (ev)
            g.vwgt[2 * r + 1] = 1 + (idx_t)(ev[r] * scale);
    }
    free(ev);
    for (uint64_t t = 0; t < n->nodes; t++) {
        uint64_t r = n->topo_ops->attach(n->topo, t).router;
        idx_t lps = terminal_lps(n, t);
        g.vwgt[2 * r] += lps;
        g.vwgt[2 * r + 1] += m ? 0 : lps;
    }
    for (uint64_t r = 0; r < routers; r++)
        g.xadj[r + 1] += g.xadj[r];
    g.adj = warp_xcalloc((size_t)g.xadj[routers] + 1, sizeof *g.adj);
    g.wgt = warp_xcalloc((size_t)g.xadj[routers] + 1, sizeof *g.wgt);
    /* Rows are packed as they are filled: a row with parallel links ends
     * short, and the next one starts right after it (out <= its start).
     * A row is sorted as (neighbour, weight) pairs in a scratch array. */
    idx_t out = 0;
    idx_t *row = warp_xcalloc(2 * (size_t)(n->max_radix > 0 ? n->max_radix : 1), sizeof *row);
    for (uint64_t r = 0; r < routers; r++) {
        int32_t k = n->topo_ops->radix(n->topo, r);
        idx_t len = 0;
        for (int32_t p = 0; p < k; p++) {
            net_peer e = n->topo_ops->peer(n->topo, r, p);
            if (e.kind != NET_PEER_ROUTER || e.id == r)
                continue;
            row[2 * len] = (idx_t)e.id;
            row[2 * len + 1] = m ? 1 + (idx_t)(link_pkts(m, r, p, e) * scale) : 1;
            len++;
        }
        qsort(row, (size_t)len, 2 * sizeof *row, idx_cmp);
        g.xadj[r] = out;
        for (idx_t i = 0; i < len; i++) {
            if (out > g.xadj[r] && g.adj[out - 1] == row[2 * i]) {
                g.wgt[out - 1] += row[2 * i + 1];
                continue;
            }
            g.adj[out] = row[2 * i];
            g.wgt[out++] = row[2 * i + 1];
        }
    }
    free(row);
    g.xadj[routers] = out;
    return g;
}

/* METIS k-way (recursive bisection for up to 8 parts, where it cuts less)
 * on the router graph (measured traffic m, or NULL: expected), balancing
 * LPs and events within METIS's default tolerances (a few per cent at
 * most); a fixed seed makes every process compute the same parts. A part
 * METIS leaves empty takes the last router of the part with the most
 * routers. */
static void metis_partition(const net_model *n, const net_results *m, uint32_t parts,
                            uint32_t *part)
{
    uint64_t routers = n->routers;
    if ((uint64_t)(idx_t)routers != routers)
        warp_fatal(WARP_EXIT_USAGE, "partition = metis: %llu routers are more than METIS's "
                   "32-bit indices hold; use partition = topology",
                   (unsigned long long)routers);
    router_graph g = router_csr(n, m);
    idx_t nv = (idx_t)routers, ncon = 2, np = (idx_t)parts, cut = 0;
    idx_t opt[METIS_NOPTIONS];
    METIS_SetDefaultOptions(opt);
    opt[METIS_OPTION_SEED] = 1;
    opt[METIS_OPTION_NUMBERING] = 0;
    idx_t *where = warp_xcalloc(routers, sizeof *where);
    int rc = parts <= 8 ? METIS_PartGraphRecursive(&nv, &ncon, g.xadj, g.adj, g.vwgt, NULL,
                                                     g.wgt, &np, NULL, NULL, opt, &cut, where)
                        : METIS_PartGraphKway(&nv, &ncon, g.xadj, g.adj, g.vwgt, NULL, g.wgt,
                                              &np, NULL, NULL, opt, &cut, where);
    free(g.xadj);
    free(g.adj);
    free(g.wgt);
    free(g.vwgt);
    if (rc != METIS_OK)
        warp_fatal(WARP_EXIT_RESOURCE, "partition = metis: METIS failed (code %d) on %llu "
                   "routers in %u parts; use partition = topology", rc,
                   (unsigned long long)routers, parts);
    uint64_t *size = warp_xcalloc(parts, sizeof *size);
    for (uint64_t r = 0; r < routers; r++) {
        part[r] = (uint32_t)where[r];
        size[part[r]]++;
    }
    free(where);
    for (uint32_t p = 0; p < parts; p++) {
        if (size[p])
            continue;
        uint32_t big = 0;
        for (uint32_t q = 1; q < parts; q++)
            big = size[q] > size[big] ? q : big;
        for (uint64_t r = routers; r-- > 0;)
            if (part[r] == big) {
                part[r] = p;
                size[big]--, size[p]++;
                break;
            }
    }
    free(size);
}
#endif

uint32_t *net_partition(const net_model *n, warp_partition_kind kind, uint32_t parts)
{
    uint64_t routers = n->routers;
    if (kind == WARP_PARTITION_FILE) {
        uint32_t *part = net_partition_read(n, warp_partition_file(n->engine), parts);
        if (parts == 1) /* one rank holds every router, whatever the file says */
            memset(part, 0, (routers ? routers : 1) * sizeof *part);
        return part;
    }
    uint32_t *part = warp_xcalloc(routers ? routers : 1, sizeof *part);
    if (parts > 1 && kind == WARP_PARTITION_TOPOLOGY && n->topo_ops->partition &&
        parts <= routers) {
        double *load = router_loads(n);
        n->topo_ops->partition(n->topo, load, parts, part);
        free(load);
        return part;
    }
#ifdef HAVE_METIS
    if (parts > 1 && kind == WARP_PARTITION_METIS && parts <= routers) {
        metis_partition(n, NULL, parts, part);
        return part;
    }
#endif
    for (uint64_t r = 0; r < routers; r++)
        part[r] = (uint32_t)(r * parts / routers);
    return part;
}

/* ---- --describe --ranks=N --------------------------------------------------- */

typedef struct quality {
    uint64_t cut;          /* router links between parts */
    double lp_imbalance;   /* max / mean LPs per part */
    double ev_imbalance;   /* max / mean expected events per part */
} quality;

/* Expected events are the balancing's own estimate (router_loads): a
 * router, its busy terminals and its links' transit, so that a job on part
 * of the machine shows where its events fall; a block placement that gives
 * one rank all of the job's terminals reads as the imbalance it runs with. */
static quality measure(const net_model *n, const double *load, const uint32_t *part, uint32_t parts)
{
    part_split s = split_of(n->topo_ops, n->topo, load, parts, part);
    quality q = {s.cut, 0, s.most * parts / s.all};
    double *lps = warp_xcalloc(parts, sizeof *lps);
    for (uint64_t r = 0; r < n->routers; r++)
        lps[part[r]] += 1;
    for (uint64_t t = 0; t < n->nodes; t++)
        lps[part[n->topo_ops->attach(n->topo, t).router]] += terminal_lps(n, t);
    double lmax = 0, lsum = 0;
    for (uint32_t p = 0; p < parts; p++) {
        lmax = lps[p] > lmax ? lps[p] : lmax;
        lsum += lps[p];
    }
    q.lp_imbalance = lmax * parts / lsum;
    free(lps);
    return q;
}

double net_partition_block_imbalance(const net_model *n, uint32_t parts)
{
    double *load = router_loads(n);
    uint32_t *blk = net_partition(n, WARP_PARTITION_BLOCK, parts);
    quality q = measure(n, load, blk, parts);
    free(blk);
    free(load);
    return q.ev_imbalance;
}

/* What every partition of the routers into parts needs. */
static void check_range(const net_model *n, int64_t parts)
{
    if (!n->routers || n->net_ops != &net_packet_network)
        warp_fatal(WARP_EXIT_USAGE, "--ranks=%lld: partition quality needs a packet network on a "
                   "topology; %s places its LPs by its own rule", (long long)parts, n->name);
    if (parts < 1 || (uint64_t)parts > n->routers)
        warp_fatal(WARP_EXIT_USAGE, "--ranks=%lld: give 1 .. %llu ranks (one router each at "
                   "least; the network has %llu routers)", (long long)parts,
                   (unsigned long long)n->routers, (unsigned long long)n->routers);
}

void net_partition_check_ranks(const net_model *n, int64_t parts)
{
    check_range(n, parts);
    /* A placement file for other ranks is refused before anything is printed. */
    if (warp_partition(n->engine) == WARP_PARTITION_FILE)
        free(net_partition(n, WARP_PARTITION_FILE, (uint32_t)parts));
}

void net_describe_partition(const net_model *n, warp_partition_kind kind, int64_t parts, FILE *f)
{
    net_partition_check_ranks(n, parts);
    uint64_t links = net_model_links(n);
    /* A link traversal costs the same events on a router or a terminal link;
     * only router links between parts carry remote events. */
    double traversals = (double)(links + n->nodes);
    double *load = router_loads(n);
    uint32_t *blk = net_partition(n, WARP_PARTITION_BLOCK, (uint32_t)parts);
    quality b = measure(n, load, blk, (uint32_t)parts);
    free(blk);
    uint32_t *mine = net_partition(n, kind, (uint32_t)parts);
    quality q = measure(n, load, mine, (uint32_t)parts);
    free(mine);
    free(load);
    fprintf(f, "partition: %s on %lld ranks\n", warp_partition_name(kind), (long long)parts);
    fprintf(f, "links_cut: %llu of %llu (%.2f %%); block: %llu\n", (unsigned long long)q.cut,
            (unsigned long long)links, links ? 100.0 * (double)q.cut / (double)links : 0.0,
            (unsigned long long)b.cut);
    fprintf(f, "expected_remote_share: %.2f %% (block %.2f %%; every link equally loaded)\n",
            100.0 * (double)q.cut / traversals, 100.0 * (double)b.cut / traversals);
    fprintf(f, "lp_imbalance: %.3f (block %.3f; max / mean per rank)\n", q.lp_imbalance,
            b.lp_imbalance);
    fprintf(f, "event_imbalance: %.3f (block %.3f; expected events, max / mean)\n",
            q.ev_imbalance, b.ev_imbalance);
}

/* ---- Partitions from measured traffic ------------------------------------- */

void net_partition_check_measured(const net_model *n, int64_t parts)
{
#ifndef HAVE_METIS
    warp_fatal(WARP_EXIT_USAGE, "--write-partition: this build has no METIS partitioner: install "
               "libmetis-dev and reconfigure (./quickstart build)");
#endif
    check_range(n, parts);
}

uint32_t *net_partition_measured(const net_model *n, const net_results *m, uint32_t parts)
{
    net_partition_check_measured(n, parts);
    uint32_t *part = warp_xcalloc(n->routers ? n->routers : 1, sizeof *part);
#ifdef HAVE_METIS
    if (parts > 1)
        metis_partition(n, m, parts, part);
#else
    (void)m;
#endif
    return part;
}

/* What a partition cuts of the measured traffic: packets over router links
 * between parts over every link traversal (router links both ways, and
 * each packet's injection and delivery), and the measured events on the
 * busiest part over the mean. */
static void measured_quality(const net_model *n, const net_results *m, const double *ev,
                             const uint32_t *part, uint32_t parts, double *share, double *imb)
{
    double cut = 0, hops = 0, max = 0, sum = 0;
    double *load = warp_xcalloc(parts, sizeof *load);
    for (uint64_t r = 0; r < n->routers; r++) {
        int32_t k = n->topo_ops->radix(n->topo, r);
        load[part[r]] += ev[r];
        for (int32_t p = 0; p < k; p++) {
            net_peer e = n->topo_ops->peer(n->topo, r, p);
            /* Each router link once: from its lower end. */
            if (e.kind != NET_PEER_ROUTER || e.id < r || (e.id == r && e.port <= p))
                continue;
            double pk = link_pkts(m, r, p, e);
            hops += pk;
            cut += part[e.id] != part[r] ? pk : 0;
        }
    }
    for (uint64_t t = 0; t < n->nodes; t++)
        hops += m->term_rows[t * NET_TERM_COLS + 0] + m->term_rows[t * NET_TERM_COLS + 2];
    for (uint32_t p = 0; p < parts; p++) {
        max = load[p] > max ? load[p] : max;
        sum += load[p];
    }
    free(load);
    *share = hops > 0 ? cut / hops : 0;
    *imb = sum > 0 ? max * parts / sum : 1;
}

void net_partition_report(const net_model *n, const net_results *m, const uint32_t *mine,
                          uint32_t parts, FILE *f)
{
    double *ev = measured_loads(n, m), share, imb;
    fprintf(f, "partition on %u ranks, measured traffic: remote share of link traversals, "
               "event imbalance (max / mean)\n", parts);
    measured_quality(n, m, ev, mine, parts, &share, &imb);
    fprintf(f, "  %-9s %6.2f %%  %.3f\n", "measured", 100 * share, imb);
    const warp_partition_kind kinds[] = {WARP_PARTITION_TOPOLOGY, WARP_PARTITION_BLOCK,
#ifdef HAVE_METIS
                                         WARP_PARTITION_METIS,
#endif
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        uint32_t *other = net_partition(n, kinds[i], parts);
        measured_quality(n, m, ev, other, parts, &share, &imb);
        fprintf(f, "  %-9s %6.2f %%  %.3f\n", warp_partition_name(kinds[i]), 100 * share, imb);
        free(other);
    }
    free(ev);
}
