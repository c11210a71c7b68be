/* convert_codes.c — `warpnet convert codes FILE.conf`: prints the Warpnet run
 * file equivalent to a CODES network configuration (torus, fat-tree, Slim
 * Fly, the dragonflies, express mesh; the fat-tree in codes_fattree.c, the
 * dragonflies in codes_dfly.c, the analytic networks in codes_simple.c),
 * every key with its unit and a comment naming the CODES parameter it came from. Invariant: every key of the CODES file is either
 * converted (and named in a comment) or listed on stderr with the reason; a
 * file that cannot be converted prints nothing on stdout and exits 2.
 * Called by the warpnet driver (main.c). Units as the CODES models use
 * them: torus, Slim Fly, dragonfly and express-mesh bandwidths in GiB/s, fat-tree
 * bandwidths in GB/s (1/bandwidth ns per byte), delays in ns, sizes in
 * bytes. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codes_conf.h"
#include "codes_conv.h"
#include "codes_sniff.h"
#include "convert.h"
#include "warp_error.h"

static long long lp_count(conv *v, const char *key)
{
    codes_kv *kv = codes_find(&v->c, v->grp, key);
    if (!kv)
        return 0;
    char *end;
    long long x = strtoll(kv->val[0], &end, 10);
    if (*end || x < 0)
        cv_fail(v, "line %d: %s %s = \"%s\" is not a count", kv->line, v->grp, key, kv->val[0]);
    return x;
}

/* Refuses a file without a network, naming the LP kinds it has. */
static void no_network(conv *v)
{
    for (int i = 0; i < v->c.n; i++) {
        const codes_kv *kv = &v->c.kv[i];
        if (strncmp(kv->section, "LPGROUPS/", 9) || strncmp(kv->key, "modelnet_", 9))
            continue;
        cv_fail(v, "line %d: %s is a CODES network that warpnet convert does not know; it converts "
                "modelnet_torus, _fattree, _slimfly, _dragonfly, _dragonfly_custom, _dragonfly_dally, "
                "_dragonfly_plus, _express_mesh, _simplenet, _simplep2p and _loggp",
                kv->line, kv->key);
    }
    char kinds[512] = "";
    for (int i = 0; i < v->c.n; i++) {
        const codes_kv *kv = &v->c.kv[i];
        if (!strncmp(kv->section, "LPGROUPS/", 9) && strcmp(kv->key, "repetitions") &&
            strlen(kinds) + strlen(kv->key) + 3 < sizeof kinds && !strstr(kinds, kv->key))
            snprintf(kinds + strlen(kinds), sizeof kinds - strlen(kinds), "%s%s", *kinds ? ", " : "", kv->key);
    }
    if (*kinds)
        cv_fail(v, "no network in LPGROUPS (its LPs are %s; no modelnet_* LP): a CODES test of other LPs, "
                "not a network config", kinds);
    cv_fail(v, "no LPGROUPS section: not a CODES network config (a network config has LPGROUPS with a "
            "modelnet_* LP count and PARAMS)");
}

/* Finds the LPGROUPS group with the network's NIC LPs and counts its LPs. */
static void read_groups(conv *v)
{
    static const char *const nic_keys[] = {"modelnet_torus", "modelnet_fattree", "modelnet_slimfly",
                                           "modelnet_dragonfly", "modelnet_simplenet", "modelnet_loggp",
                                           "modelnet_simplep2p", "modelnet_express_mesh",
                                           "modelnet_dragonfly_custom", "modelnet_dragonfly_dally",
                                           "modelnet_dragonfly_plus", NULL};
    static const char *const names[] = {"torus", "fattree", "slimfly", "dragonfly", "simplenet", "loggp",
                                        "simplep2p", "express_mesh", "dragonfly_custom", "dragonfly_dally",
                                        "dragonfly_plus"};
    for (int i = 0; i < v->c.n && !v->model; i++) {
        codes_kv *kv = &v->c.kv[i];
        if (strncmp(kv->section, "LPGROUPS/", 9))
            continue;
        for (int k = 0; nic_keys[k]; k++)
            if (!strcmp(kv->key, nic_keys[k])) {
                v->model = names[k];
                v->grp = kv->section;
            }
    }
    if (!v->model)
        no_network(v);
    v->reps = lp_count(v, "repetitions");
    char key[64];
    snprintf(key, sizeof key, "modelnet_%s", v->model);
    v->nics = lp_count(v, key);
    if (v->reps < 1 || v->nics < 1)
        cv_fail(v, "%s needs repetitions and %s of at least 1", v->grp, key);
    /* Router LPs: modelnet_X_router, X_router, or the fat-tree's switches. */
    snprintf(key, sizeof key, "modelnet_%s_router", v->model);
    v->routers_per_rep = lp_count(v, key);
    snprintf(key, sizeof key, "%s_router", v->model);
    v->routers_per_rep += lp_count(v, key);
    v->routers_per_rep += lp_count(v, "fattree_switch");
    for (int i = 0; i < v->c.n; i++) { /* every other LP of the group is a server (workload) LP */
        codes_kv *kv = &v->c.kv[i];
        if (strcmp(kv->section, v->grp) || kv->used)
            continue;
        v->servers += lp_count(v, kv->key);
    }
    for (int i = 0; i < v->c.n; i++)
        if (!strncmp(v->c.kv[i].section, "LPGROUPS/", 9) && strcmp(v->c.kv[i].section, v->grp)) {
            cv_note(v, &v->c.kv[i], "an LP group beside the network's; Warpnet's workloads are chosen in "
                 "[workload], not as LP groups");
            v->c.kv[i].used = 1;
        }
}

/* dim_length (n_dims of them) of a torus or mesh: "a,b,c" into val and
 * *n; returns their product. */
static long long grid(conv *v, const codes_kv *dl, double nd, char *val, size_t len, int *n)
{
    long long dims[32], prod = 1;
    *n = cv_int_list(v, dl, dims, 32);
    if (*n != (int)nd)
        cv_fail(v, "line %d: dim_length has %d lengths but n_dims is %g", dl->line, *n, nd);
    val[0] = 0;
    for (int i = 0; i < *n; i++) {
        if (dims[i] < 1)
            cv_fail(v, "line %d: dim_length %lld is not a length", dl->line, dims[i]);
        prod *= dims[i];
        snprintf(val + strlen(val), len - strlen(val), "%s%lld", i ? "," : "", dims[i]);
    }
    return prod;
}

/* The NIC-per-rank check every model shares. */
static void one_rank_per_node(conv *v)
{
    if (v->servers > v->nics)
        fprintf(stderr, "warpnet: %s: %s has %lld server LPs per %lld NICs: Warpnet runs at most one rank "
                "per node ([network] ranks <= nodes); a TraceR global map over %lld servers needs "
                "%lld nodes here\n", v->c.path, v->grp, v->servers, v->nics, v->reps * v->servers,
                v->reps * v->servers);
}

static void convert_torus(conv *v)
{
    if (v->nics != 1)
        cv_fail(v, "%s: modelnet_torus = %lld; CODES's torus has one NIC per torus node (1)", v->grp, v->nics);
    int g;
    double nd = cv_num(v, "n_dims", 4, &g);
    codes_kv *dl = cv_param(v, "dim_length");
    if (!dl)
        cv_fail(v, "PARAMS dim_length is missing (CODES's torus needs it), e.g. dim_length=\"8,8,8\";");
    char val[256];
    int n;
    long long prod = grid(v, dl, nd, val, sizeof val, &n);
    if (prod != v->reps * v->routers_per_rep && prod != v->reps)
        cv_fail(v, "dim_length gives %lld torus nodes but %s has %lld repetitions; CODES needs them equal",
             prod, v->grp, v->reps);
    fprintf(v->fnet, "topology = torus%17s # %s modelnet_torus\n", "", v->grp);
    cv_router(v, "torus.c");
    cv_bandwidth(v, v->fnet, "link_bandwidth", "link_bandwidth", 2.0, 1);
    cv_line(v->fnet, "link_latency", "0ns", "CODES's torus has no wire delay: a hop costs bytes/bandwidth + 50 ns");
    codes_kv *rd = cv_param(v, "router_delay");
    if (rd)
        cv_note(v, rd, "CODES's torus does not read router_delay (it fixes 50 ns per hop); converted as 50ns");
    cv_line(v->fnet, "router_delay", "50ns", "CODES's torus: router_delay fixed at 50 ns in torus.c");
    cv_bytes(v, v->fnet, "vc_buffer", "buffer_size", 2048, "bytes per port in CODES; each of Warpnet's 2 "
              "dateline VCs gets it");
    cv_packets(v, 512, 128);
    cv_line(v->ftopo, "dims", val, "PARAMS n_dims = %d%s, PARAMS dim_length", n, g ? "" : " (CODES's default)");
    cv_mention(v->ftopo, cv_param(v, "routing"), "CODES's torus does not read it: dimension-order routing, "
            "as Warpnet's torus");
    codes_kv *cn = cv_param(v, "cn_bandwidth");
    if (cn)
        cv_note(v, cn, "CODES's torus injects at link_bandwidth (model-net uses cn_bandwidth only for messages "
             "a node sends itself); not converted");
}

static void convert_slimfly(conv *v)
{
    /* CODES's sf_type: 0 the Slim Fly, 1 the Fit Fly (a Slim Fly per rail,
     * num_rails of them, joined at the nodes). */
    codes_kv *t = cv_param(v, "sf_type");
    double type = cv_num(v, "sf_type", 0, NULL);
    if (type == 1)
        cv_fail(v, "line %d: PARAMS sf_type = 1: a Fit Fly (one Slim Fly per rail) is not converted; "
             "Warpnet's Slim Fly has one rail (set sf_type = \"0\" and num_rails = \"1\" to convert one rail)",
             t->line);
    if (type != 0)
        cv_fail(v, "line %d: PARAMS sf_type = %s: CODES knows 0 (Slim Fly) and 1 (Fit Fly)", t->line, t->val[0]);
    cv_mention(v->ftopo, t, "the plain Slim Fly, as Warpnet's");
    double q = cv_num(v, "num_routers", 4, NULL), p = cv_num(v, "num_terminals", 2, NULL);
    if (v->reps != (long long)(2 * q * q))
        cv_fail(v, "%s repetitions = %lld but num_routers = %g needs 2q^2 = %g", v->grp, v->reps, q, 2 * q * q);
    if (v->nics != (long long)p)
        cv_fail(v, "%s modelnet_slimfly = %lld but num_terminals = %g; CODES needs them equal", v->grp, v->nics, p);
    fprintf(v->fnet, "topology = slimfly%15s # %s modelnet_slimfly\n", "", v->grp);
    cv_router(v, "slimfly.c");
    int lg, gg, cg;
    double lb = cv_num(v, "local_bandwidth", 5.25, &lg), gb = cv_num(v, "global_bandwidth", 4.7, &gg),
           cb = cv_num(v, "cn_bandwidth", 5.25, &cg);
    cv_bandwidth(v, v->fnet, "link_bandwidth", "local_bandwidth", 5.25, 1);
    if (gb != lb)
        cv_note(v, gg ? cv_param(v, "global_bandwidth") : cv_param(v, "local_bandwidth"),
             "Warpnet's Slim Fly has one link bandwidth: global_bandwidth differs from local_bandwidth "
             "and is not converted");
    else
        cv_mention(v->fnet, cv_param(v, "global_bandwidth"), "the same as local_bandwidth: link_bandwidth");
    if (cb != lb)
        cv_note(v, cg ? cv_param(v, "cn_bandwidth") : cv_param(v, "local_bandwidth"),
             "Warpnet's Slim Fly terminals use link_bandwidth: cn_bandwidth differs and is not converted");
    else
        cv_mention(v->fnet, cv_param(v, "cn_bandwidth"), "the same as local_bandwidth: link_bandwidth");
    cv_line(v->fnet, "link_latency", "0ns", "CODES's Slim Fly has no wire delay");
    cv_ns(v, v->fnet, "router_delay", "router_delay", 0);
    cv_bytes(v, v->fnet, "vc_buffer", "local_vc_size", 1024, "bytes per VC");
    for (int i = 0; i < 2; i++) {
        const char *k = i ? "cn_vc_size" : "global_vc_size";
        codes_kv *x = cv_param(v, k), *l = cv_param(v, "local_vc_size");
        if (x && !(l && !strcmp(x->val[0], l->val[0])))
            cv_note(v, x, "Warpnet's Slim Fly buffers every VC alike (vc_buffer = local_vc_size)");
        else
            cv_mention(v->fnet, x, "the same as local_vc_size: vc_buffer");
    }
    cv_packets(v, 512, 512);
    char val[256];
    snprintf(val, sizeof val, "%g", q);
    cv_line(v->ftopo, "q", val, "PARAMS num_routers (routers per group; 2q^2 = %lld routers)", v->reps);
    snprintf(val, sizeof val, "%g", p);
    cv_line(v->ftopo, "p", val, "PARAMS num_terminals");
    static const char *const keys[] = {"generator_set_X", "generator_set_X_prime"};
    static const char *const ours[] = {"X", "Xprime"};
    for (int i = 0; i < 2; i++) {
        codes_kv *x = cv_param(v, keys[i]);
        if (!x)
            continue;
        long long set[256];
        int n = cv_int_list(v, x, set, 256);
        val[0] = 0;
        for (int k = 0; k < n; k++)
            snprintf(val + strlen(val), sizeof val - strlen(val), "%s%lld", k ? "," : "", set[k]);
        cv_line(v->ftopo, ours[i], val, "PARAMS %s", keys[i]);
    }
    codes_kv *r = cv_param(v, "routing");
    const char *how = "minimal";
    if (r && (!strcmp(r->val[0], "nonminimal") || !strcmp(r->val[0], "non-minimal")))
        how = "valiant";
    else if (r && !strcmp(r->val[0], "adaptive"))
        how = "ugal";
    else if (r && strcmp(r->val[0], "minimal"))
        cv_fail(v, "line %d: PARAMS routing = %s: CODES's Slim Fly knows minimal, nonminimal, adaptive",
             r->line, r->val[0]);
    cv_line(v->ftopo, "routing", how, "PARAMS routing = %s", r ? r->val[0] : "minimal (CODES's default)");
    codes_kv *gc = cv_param(v, "global_channels");
    if (gc && atof(gc->val[0]) != q)
        cv_note(v, gc, "CODES's Slim Fly has q global channels per router; Warpnet derives them from q");
    else
        cv_mention(v->ftopo, gc, "q global links per router, derived from q");
    cv_mention(v->ftopo, cv_param(v, "local_channels"), "derived from X and Xprime");
}

/* CODES's express-mesh.cxx: routers on an n_dims grid, each joined along a
 * dimension to 2 + (length-3)/gap others; gap = 1 joins every pair of the
 * dimension, a HyperX with one link per pair. */
static void convert_express_mesh(conv *v)
{
    v->section = "hyperx";
    codes_kv *dl = cv_param(v, "dim_length"), *gp = cv_param(v, "gap");
    if (!dl || !cv_param(v, "num_cn"))
        cv_fail(v, "PARAMS dim_length and num_cn are required by CODES's express mesh");
    double gap = cv_num(v, "gap", 1, NULL), nd = cv_num(v, "n_dims", 0, NULL), cn = cv_num(v, "num_cn", 0, NULL);
    char val[256];
    int n;
    long long routers = grid(v, dl, nd, val, sizeof val, &n);
    if (gap != 1)
        cv_fail(v, "line %d: PARAMS gap = %s: an express mesh with gap > 1 (each router joined to its neighbours "
                "and to those gap hops away) has no Warpnet equivalent; gap = 1 (every pair of a dimension "
                "joined) converts to a HyperX", gp->line, gp->val[0]);
    if (routers != v->reps * (v->routers_per_rep ? v->routers_per_rep : 1))
        cv_fail(v, "dim_length gives %lld routers but %s has %lld repetitions of %lld; CODES needs them equal",
                routers, v->grp, v->reps, v->routers_per_rep);
    if (v->nics != (long long)cn)
        cv_fail(v, "%s modelnet_express_mesh = %lld but num_cn = %g; CODES needs them equal", v->grp, v->nics, cn);
    fprintf(v->fnet, "topology = hyperx%15s # %s modelnet_express_mesh: gap = 1 joins every pair of a dimension\n",
            "", v->grp);
    cv_router(v, "express-mesh.cxx");
    cv_bandwidth(v, v->fnet, "link_bandwidth", "link_bandwidth", 5.25, 1);
    int lg, cg;
    double lb = cv_num(v, "link_bandwidth", 5.25, &lg), cb = cv_num(v, "cn_bandwidth", lb, &cg);
    if (cb != lb)
        cv_note(v, cv_param(v, "cn_bandwidth"), "Warpnet's HyperX terminals use link_bandwidth: cn_bandwidth "
                "differs and is not converted");
    else
        cv_mention(v->fnet, cv_param(v, "cn_bandwidth"), "the same as link_bandwidth");
    cv_line(v->fnet, "link_latency", "0ns", "CODES's express mesh has no wire delay");
    cv_ns(v, v->fnet, "router_delay", "router_delay", 50);
    cv_bytes(v, v->fnet, "vc_buffer", "vc_size", 32768, "bytes per VC");
    cv_node_buffers(v);
    cv_packets(v, 512, 512);
    cv_line(v->ftopo, "dims", val, "PARAMS n_dims = %d, PARAMS dim_length", n);
    cv_mention(v->ftopo, gp, "every pair of a dimension joined once");
    cv_line(v->ftopo, "trunking", "1", "one link per pair, as CODES's express mesh");
    snprintf(val, sizeof val, "%g", cn);
    cv_line(v->ftopo, "terminals", val, "PARAMS num_cn");
    codes_kv *r = cv_param(v, "routing");
    const char *rv = r ? r->val[0] : "static";
    if (strcmp(rv, "static") && strcmp(rv, "adaptive"))
        cv_fail(v, "line %d: PARAMS routing = %s: CODES's express mesh knows static and adaptive", r->line, rv);
    cv_line(v->ftopo, "routing", strcmp(rv, "static") ? "dal" : "dor", "PARAMS routing = %s%s", rv,
            r ? "" : " (CODES's default)");
}

static void write_run_file(conv *v)
{
    printf("# Converted from the CODES %s configuration %s by `warpnet convert codes`.\n", v->model, v->c.path);
    printf("# Every key names the CODES parameter it came from; CODES's implicit units are\n"
           "# written out. Parameters without an equivalent were listed on stderr.\n");
    printf("[engine]\n%-32s # CODES configs carry no end time (ROSS's --end): choose one\n", "end = 100us");
    printf("\n[network]\n%s", v->net);
    printf("\n[%s]\n%s", v->section ? v->section : v->model, v->topo);
    printf("\n[workload]\n%-32s # CODES configs carry no workload: choose one\n", "type = traffic");
    if (*v->workload)
        fputs(v->workload, stdout);
    else
        printf("%-32s #\n%-32s #\n", "pattern = uniform", "load = 0.5");
    if (v->hints_n)
        printf("\n# TraceR's MPI parameters, for a replay ([workload] type = replay):\n%s", v->hints);
}

/* Several rails (CODES's num_rails, with rail_select choosing among them)
 * are several networks side by side: Warpnet models one, so they stop the
 * conversion rather than silently becoming one rail. */
static void one_rail(conv *v)
{
    codes_kv *r = cv_param(v, "num_rails");
    double rails = cv_num(v, "num_rails", 1, NULL);
    if (rails != 1)
        cv_fail(v, "line %d: PARAMS num_rails = %s: several rails (networks side by side) are not converted; "
             "Warpnet's %s has one rail", r->line, r->val[0], v->model);
    cv_mention(v->fnet, r, "one rail, as Warpnet's networks");
    cv_mention(v->fnet, cv_param(v, "rail_select"), "one rail: nothing to select");
}

/* TraceR's and model-net's MPI-level parameters become [replay] hints. */
static void replay_hints(conv *v)
{
    static const struct { const char *codes, *ours, *unit; } h[] = {
        {"soft_delay", "overhead", "ns"}, {"copy_per_byte", "per_byte_ns", ""}, {"eager_limit", "eager_limit", "B"}};
    int any = 0;
    for (size_t i = 0; i < sizeof h / sizeof h[0]; i++) {
        codes_kv *kv = cv_param(v, h[i].codes);
        if (!kv)
            continue;
        if (!any++)
            fprintf(v->fhints, "# [replay]\n");
        char kvs[128];
        snprintf(kvs, sizeof kvs, "# %s = %s%s", h[i].ours, kv->val[0], h[i].unit);
        fprintf(v->fhints, "%-32s # PARAMS %s\n", kvs, h[i].codes);
    }
}

static const struct { const char *key, *why; } known[] = {
    {"message_size", "ROSS's event size; Warpnet sizes its events itself"},
    {"modelnet_order", "the network is named by [network] topology"},
    {"num_vc", "Warpnet's topologies choose their VCs for deadlock freedom"},
    {"num_vcs", "Warpnet's topologies choose their VCs for deadlock freedom"},
    {"nic_delay", "a NIC software delay of TraceR/model-net; no equivalent"},
    {"nic_seq_delay", "model-net's per-message NIC delay; no equivalent"},
    {"node_copy_queues", "model-net's intra-node copy queues; no equivalent"},
    {"num_injection_queues", "Warpnet's NIC has one injection queue"},
    {"intra_bandwidth", "intra-node messages: Warpnet runs one rank per node"},
    {"node_eager_limit", "model-net's intra-node eager limit; no equivalent"},
    {"rdma_delay", "TraceR's RDMA setup delay; no equivalent"},
    {"soft_delay", "TraceR's per-message MPI overhead: written as a [replay] overhead hint below the run file"},
    {"copy_per_byte", "TraceR's copy cost: written as a [replay] per_byte_ns hint"},
    {"eager_limit", "TraceR's eager limit: written as a [replay] eager_limit hint"},
};

static void list_unused(conv *v)
{
    for (int i = 0; i < v->c.n; i++) {
        codes_kv *kv = &v->c.kv[i];
        if (kv->used)
            continue;
        const char *why = NULL;
        for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
            if (!strcmp(kv->key, known[k].key))
                why = known[k].why;
        char buf[200];
        if (!why) {
            snprintf(buf, sizeof buf, "no equivalent in Warpnet's %s; not converted", v->model);
            why = buf;
        }
        cv_note(v, kv, why);
        kv->used = 1;
    }
}

int wn_convert_codes(const char *path)
{
    conv v = {0};
    char err[600];
    if (codes_sniff(path, err, sizeof err))
        warp_fatal(WARP_EXIT_USAGE, "%s", err);
    if (codes_conf_read(path, &v.c, err, sizeof err))
        warp_fatal(WARP_EXIT_USAGE, "%s", err);
    int network = 0;
    for (int i = 0; i < v.c.n; i++)
        network |= !strncmp(v.c.kv[i].section, "LPGROUPS/", 9) && !strncmp(v.c.kv[i].key, "modelnet_", 9);
    if (!network)
        no_network(&v);
    for (int i = 0; i < v.c.n; i++)
        if (strchr(v.c.kv[i].key, '@'))
            cv_fail(&v, "line %d: %s: annotated parameters (several networks in one run) are not converted; "
                 "split the file per network", v.c.kv[i].line, v.c.kv[i].key);
    for (int i = 0; i < v.c.n; i++)
        if (!strcmp(v.c.kv[i].section, "PARAMS") && strstr(v.c.kv[i].val[0], "${"))
            cv_fail(&v, "line %d: PARAMS %s = %s: a placeholder that CODES's test scripts fill in; convert the "
                    "config they write", v.c.kv[i].line, v.c.kv[i].key, v.c.kv[i].val[0]);
    read_groups(&v);
    v.fnet = open_memstream(&v.net, &v.net_n);
    v.ftopo = open_memstream(&v.topo, &v.topo_n);
    v.fhints = open_memstream(&v.hints, &v.hints_n);
    if (!v.fnet || !v.ftopo || !v.fhints)
        cv_fail(&v, "out of memory");
    cv_mention(v.fnet, codes_find(&v.c, "PARAMS", "modelnet_order"), "the network named by topology");
    if (strcmp(v.model, "fattree") && strcmp(v.model, "dragonfly_dally") && strcmp(v.model, "dragonfly_plus"))
        one_rail(&v); /* the fat-tree converts its rails to planes; the dragonflies name theirs */
    if (!strcmp(v.model, "torus"))
        convert_torus(&v);
    else if (!strcmp(v.model, "fattree"))
        cv_convert_fattree(&v);
    else if (!strcmp(v.model, "slimfly"))
        convert_slimfly(&v);
    else if (!strcmp(v.model, "dragonfly"))
        cv_convert_dragonfly(&v);
    else if (!strcmp(v.model, "dragonfly_custom"))
        cv_convert_dragonfly_custom(&v);
    else if (!strcmp(v.model, "dragonfly_dally"))
        cv_convert_dragonfly_dally(&v);
    else if (!strcmp(v.model, "dragonfly_plus"))
        cv_convert_dragonfly_plus(&v);
    else if (!strcmp(v.model, "simplenet"))
        cv_convert_simplenet(&v);
    else if (!strcmp(v.model, "loggp"))
        cv_convert_loggp(&v);
    else if (!strcmp(v.model, "express_mesh"))
        convert_express_mesh(&v);
    else
        cv_convert_simplep2p(&v);
    one_rank_per_node(&v);
    replay_hints(&v);
    fclose(v.fnet);
    fclose(v.ftopo);
    fclose(v.fhints);
    list_unused(&v);
    write_run_file(&v);
    free(v.net);
    free(v.topo);
    free(v.hints);
    codes_conf_free(&v.c);
    return 0;
}

static const char convert_usage[] =
    "usage: warpnet convert codes FILE.conf > RUN.ini\n"
    "Prints the Warpnet run file equivalent to a CODES network configuration\n"
    "(LPGROUPS and PARAMS of a torus, fat-tree, Slim Fly, dragonfly, dragonfly-custom,\n"
    "-dally or -plus, express mesh, simplenet, simplep2p or LogGP network) on standard\n"
    "output; parameters without an equivalent are listed on standard error.\n"
    "A network without an equivalent,\n"
    "or a CODES file that is no network config (an allocation, a workload list,\n"
    "a simplep2p matrix), stops with exit 2 and one line that says which.\n"
    "options:\n"
    "  -h, --help   this text\n";

int wn_convert_main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(convert_usage, stdout);
            return 0;
        }
    if (argc == 3 && !strcmp(argv[1], "codes"))
        return wn_convert_codes(argv[2]);
    fputs(convert_usage, stderr);
    return 2;
}
