/* simple/nic.c — the analytic networks (simplenet, loggp): their
 * configuration and their one LP kind, a NIC per node that times whole
 * messages by closed rules (simple.h).
 * Invariant: state is two "free at" times and counters, saved by full copy;
 * statistics are written only by commit, which reads the completion time the
 * forward handler left in the event's bits. Found through the catalogue. */
#include <stdlib.h>
#include <string.h>

#include "net/network.h"
#include "simple/simple.h"

/* A network's read-only description: its rules and its NIC type. */
typedef struct nic_net {
    int loggp;               /* 0: simplenet rules, 1: LogGOPS rules */
    double latency;          /* simplenet alpha, ns */
    double bandwidth;        /* simplenet NIC bandwidth, bytes/ns */
    double L, o, g, G, O;    /* LogGOPS: ns, ns, ns, ns per byte, ns per byte */
    uint64_t S;              /* LogGOPS eager/rendezvous threshold, bytes */
    simple_matrix lat, bw;   /* simplenet per pair (n = 0: none): ns, bytes/ns once read */
    double min_latency;      /* the least latency a message between two nodes sees, ns */
    char *bw_file;           /* bandwidth_matrix, for the message about a pair without a link */
    warp_lp_type type;
} nic_net;

typedef struct nic_state {
    double send_free, recv_free;
    uint64_t seq, sent, recv;
} nic_state;

static uint64_t time_bits(double t)
{
    uint64_t b;
    memcpy(&b, &t, sizeof b);
    return b;
}

static double bits_time(uint64_t b)
{
    double t;
    memcpy(&t, &b, sizeof t);
    return t;
}

static double fmax2(double a, double b) { return a > b ? a : b; }

/* simplenet's latency and sender/receiver bandwidths from node i to node j:
 * the matrices' entry, or latency and bandwidth (no matrices, or i == j).
 * Returns 0 for a pair the matrices leave without a link (it then gets
 * latency and bandwidth, so that the run goes on until that send commits). */
static int pair_of(const nic_net *l, uint64_t i, uint64_t j, double *lat, double *out, double *in)
{
    *lat = l->latency;
    *out = *in = l->bandwidth;
    if (!l->bw.n || i == j)
        return 1;
    size_t k = (size_t)(i * l->bw.n + j);
    if (!(l->bw.out[k] > 0 && l->bw.in[k] > 0))
        return 0;
    *lat = l->lat.out[k];
    *out = l->bw.out[k];
    *in = l->bw.in[k];
    return 1;
}

/* Handles NET_EV_SEND: times the message and sends DELIVER and SENT;
 * returns 0 when it goes between nodes the matrices do not link. */
static int nic_send(warp_lp *lp, nic_state *s, const net_model *n, const net_message *m)
{
    const nic_net *l = net_network_of(n);
    double now = warp_now(lp), t0 = fmax2(now, s->send_free), deliver, sent, cpu = 0;
    double b = (double)m->bytes, lat, out, in;
    int linked = pair_of(l, warp_lp_id(lp), net_rank_terminal(n, m->dst_rank), &lat, &out, &in);
    if (!l->loggp) {
        s->send_free = t0 + b / out;
        sent = s->send_free;
        deliver = t0 + lat + b / in;
    } else {
        s->send_free = t0 + l->g + (b - 1) * l->G;
        cpu = l->o + (b - 1) * l->O;
        sent = t0 + cpu;
        deliver = t0 + l->o + l->L;
    }
    net_event *e = warp_event_new(lp, net_rank_terminal(n, m->dst_rank), deliver - now);
    e->kind = NET_EV_DELIVER;
    e->u.msg = *m;
    e->u.msg.seq = s->seq++;
    warp_event_send(lp, e);
    net_message done = e->u.msg;
    done.cpu_ns = cpu;
    net_notify_sent(lp, n, &done, sent - now);
    s->sent++;
    return linked;
}

/* Handles NET_EV_DELIVER: returns when the message is complete here. */
static double nic_deliver(warp_lp *lp, nic_state *s, const net_model *n, const net_message *m)
{
    const nic_net *l = net_network_of(n);
    double now = warp_now(lp), b = (double)m->bytes, done;
    net_message out = *m;
    if (!l->loggp) {
        double lat, sender, in;
        pair_of(l, net_rank_terminal(n, m->src_rank), warp_lp_id(lp), &lat, &sender, &in);
        done = fmax2(now, s->recv_free + b / in);
        s->recv_free = done;
        out.cpu_ns = 0;
    } else {
        done = fmax2(now, s->recv_free);
        s->recv_free = done + l->g + (b - 1) * l->G;
        out.cpu_ns = l->o + fmax2((b - 1) * l->O, (b - 1) * l->G);
    }
    net_event *e = warp_event_new(lp, net_rank_lp(n, m->dst_rank), done - now);
    e->kind = NET_EV_ARRIVE;
    e->u.msg = out;
    warp_event_send(lp, e);
    s->recv++;
    return done;
}

static void nic_init(warp_lp *lp, void *state)
{
    memset(state, 0, sizeof(nic_state));
    net_terminal_claim(lp);
}

static void nic_forward(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    const net_model *n = warp_model_arg(lp);
    net_event *e = msg;
    if (e->kind == NET_EV_SEND)
        bits->b = !nic_send(lp, state, n, &e->u.msg);
    else if (e->kind == NET_EV_DELIVER)
        bits->b = time_bits(nic_deliver(lp, state, n, &e->u.msg));
}

static void nic_commit(warp_lp *lp, void *out, const void *msg, const warp_bits *bits)
{
    const net_model *n = warp_model_arg(lp);
    const net_event *e = msg;
    net_term_out *o = out;
    const net_message *m = &e->u.msg;
    if (e->kind == NET_EV_SEND) {
        if (bits->b) { /* committed, so the workload really sends it */
            const nic_net *l = net_network_of(n);
            warp_fatal(WARP_EXIT_USAGE, "[simplenet] bandwidth_matrix = %s: node %llu sends to node %llu, a "
                       "pair the matrix leaves without a link (bandwidth 0); give the pair a bandwidth or "
                       "keep the workload off it", l->bw_file, (unsigned long long)warp_lp_id(lp),
                       (unsigned long long)net_rank_terminal(n, m->dst_rank));
        }
        if (m->t_send >= net_warmup(n)) {
            o->offered_msgs++;
            o->offered_bytes += m->bytes;
            o->injected_bytes_win += m->bytes;
        }
        o->injected_pkts++;
        o->injected_bytes += m->bytes;
    } else if (e->kind == NET_EV_DELIVER) {
        double done = bits_time(bits->b), lat = done - m->t_send;
        o->delivered_pkts++;
        o->delivered_bytes += m->bytes;
        o->msgs_delivered++;
        o->t_last = fmax2(o->t_last, done);
        if (done >= net_warmup(n))
            o->delivered_bytes_win += m->bytes;
        if (m->t_send >= net_warmup(n)) {
            net_terminal_latency(lp, o, lat, 1);
        }
    }
}

static void nic_finish(warp_lp *lp, void *state, void *out)
{
    const nic_state *s = state;
    net_terminal_results(lp, out, s->sent, s->recv, 0);
}

/* [simplenet] latency_matrix and bandwidth_matrix: both or neither, the
 * same size; a linked pair needs a positive latency (it is the lookahead). */
static void read_matrices(warp_ini *ini, nic_net *c)
{
    simple_matrix_read(ini, "simplenet", "latency_matrix", &c->lat);
    simple_matrix_read(ini, "simplenet", "bandwidth_matrix", &c->bw);
    c->min_latency = c->latency;
    if (!c->lat.n && !c->bw.n)
        return;
    if (!c->lat.n || !c->bw.n)
        warp_ini_fail(ini, "simplenet", c->lat.n ? "latency_matrix" : "bandwidth_matrix",
                      "given without %s; per-pair matrices come together",
                      c->lat.n ? "bandwidth_matrix" : "latency_matrix");
    if (c->lat.n != c->bw.n)
        warp_ini_fail(ini, "simplenet", "bandwidth_matrix", "%llu x %llu, but latency_matrix is %llu x %llu",
                      (unsigned long long)c->bw.n, (unsigned long long)c->bw.n, (unsigned long long)c->lat.n,
                      (unsigned long long)c->lat.n);
    c->bw_file = warp_xstrdup(warp_ini_string(ini, "simplenet", "bandwidth_matrix", NULL));
    const double mib = 1048576.0 / 1e9; /* MiB/s in bytes/ns */
    for (uint64_t i = 0; i < c->bw.n; i++)
        for (uint64_t j = 0; j < c->bw.n; j++) {
            size_t k = (size_t)(i * c->bw.n + j);
            c->bw.out[k] *= mib;
            c->bw.in[k] *= mib;
            if (i == j || !(c->bw.out[k] > 0 && c->bw.in[k] > 0))
                continue;
            if (!(c->lat.out[k] > 0))
                warp_ini_fail(ini, "simplenet", "latency_matrix", "row %llu, column %llu is 0 for a pair "
                              "with a link; give it a positive latency (Warpnet's lookahead)",
                              (unsigned long long)i + 1, (unsigned long long)j + 1);
            if (c->lat.out[k] < c->min_latency)
                c->min_latency = c->lat.out[k];
        }
}

/* [simplenet]: latency, bandwidth, nodes, the per-pair matrices. */
static void read_simplenet(warp_ini *ini, nic_net *c)
{
    c->latency = warp_ini_time_ns(ini, "simplenet", "latency", 1000);
    c->bandwidth = warp_ini_bandwidth(ini, "simplenet", "bandwidth", 12.5);
    if (!(c->bandwidth > 0))
        warp_ini_fail(ini, "simplenet", "bandwidth", "must be positive (e.g. 100Gbps)");
    read_matrices(ini, c);
}

/* [loggp]: L, o, g, G, O as times, S as a size (LogGOPSim's defaults). */
static void read_loggp(warp_ini *ini, nic_net *c)
{
    c->L = warp_ini_time_ns(ini, "loggp", "L", 2500);
    c->o = warp_ini_time_ns(ini, "loggp", "o", 1500);
    c->g = warp_ini_time_ns(ini, "loggp", "g", 1000);
    c->G = warp_ini_time_ns(ini, "loggp", "G", 6);
    c->O = warp_ini_time_ns(ini, "loggp", "O", 0);
    c->S = warp_ini_bytes(ini, "loggp", "S", 65535);
    const char *k[] = {"L", "o", "g", "G", "O"};
    double v[] = {c->L, c->o, c->g, c->G, c->O};
    for (int i = 0; i < 5; i++)
        if (v[i] < 0)
            warp_ini_fail(ini, "loggp", k[i], "must not be negative");
}

/* A node's bandwidth for loads: bandwidth, or the least any linked pair of
 * the matrices sends at. */
static double injection(const nic_net *c)
{
    double least = 0;
    for (size_t k = 0; k < (size_t)(c->bw.n * c->bw.n); k++)
        if (k % (c->bw.n + 1) && c->bw.out[k] > 0 && c->bw.in[k] > 0 && (least == 0 || c->bw.out[k] < least))
            least = c->bw.out[k];
    return least > 0 ? least : c->bandwidth;
}

static void *nic_setup(warp_ini *ini, net_model *n, int loggp)
{
    const char *sec = loggp ? "loggp" : "simplenet";
    nic_net *c = warp_xcalloc(1, sizeof *c);
    c->loggp = loggp;
    if (loggp)
        read_loggp(ini, c);
    else
        read_simplenet(ini, c);
    /* Without a size of its own the network has one node per rank of the
     * workload's input (a replay's jobs), when it names them. */
    uint64_t dflt = c->bw.n ? c->bw.n : net_ranks_hint(n);
    uint64_t nodes = (uint64_t)warp_ini_int(ini, sec, "nodes", (int64_t)dflt, 0, INT64_C(1) << 40);
    if (nodes == 0)
        warp_ini_fail(ini, sec, "nodes", "missing; give the number of nodes (e.g. 64)");
    if (c->bw.n && nodes != c->bw.n)
        warp_ini_fail(ini, sec, "nodes", "the matrices are %llu x %llu; give %llu nodes or leave nodes out",
                      (unsigned long long)c->bw.n, (unsigned long long)c->bw.n, (unsigned long long)c->bw.n);
    net_declare(n, nodes, 0, loggp ? (c->G > 0 ? 1.0 / c->G : 1e9) : injection(c));
    warp_lp_type *t = &c->type;
    t->name = loggp ? "loggp-nic" : "simplenet-nic";
    t->state_size = sizeof(nic_state);
    t->out_size = sizeof(net_term_out);
    t->save = WARP_SAVE_FULL;
    t->init = nic_init;
    t->forward = nic_forward;
    t->commit = nic_commit;
    t->finish = nic_finish;
    t->event_name = net_event_name;
    t->ckpt_save = net_terminal_ckpt_save;
    t->ckpt_load = net_terminal_ckpt_load;
    return c;
}

static void *simplenet_setup(warp_ini *ini, net_model *n) { return nic_setup(ini, n, 0); }
static void *loggp_setup(warp_ini *ini, net_model *n) { return nic_setup(ini, n, 1); }
static void nic_destroy(void *net)
{
    nic_net *c = net;
    simple_matrix_free(&c->lat);
    simple_matrix_free(&c->bw);
    free(c->bw_file);
    free(c);
}

static const warp_lp_type *nic_lp_type(const void *net, uint64_t index)
{
    (void)index; /* every LP of these networks is a NIC */
    return &((const nic_net *)net)->type;
}

static uint64_t loggp_eager_limit(const void *net) { return ((const nic_net *)net)->S; }

/* A message reaches the other NIC at least the least latency (simplenet's,
 * or its matrix's) or o + L (LogGOPS) after it is sent. nic_send computes the delay from absolute
 * times, whose rounding may take it a hair below that: half is the bound. */
static double nic_lookahead(const void *net)
{
    const nic_net *l = net;
    return 0.5 * (l->loggp ? l->o + l->L : l->min_latency);
}

static const warp_key simplenet_keys[] = {
    {"nodes", WARP_KEY_COUNT, "(the matrices' size, else the workload's ranks)", "1..2^40", "nodes"},
    {"latency", WARP_KEY_TIME, "1us", ">= 0", "alpha: a message's latency"},
    {"bandwidth", WARP_KEY_RATE, "12.5GB/s", "> 0", "beta: a node's bandwidth"},
    {"latency_matrix", WARP_KEY_FILE, "(none)", NULL,
     "per-pair latencies (CODES simplenet's matrix file, with bandwidth_matrix)"},
    {"bandwidth_matrix", WARP_KEY_FILE, "(none)", NULL,
     "per-pair bandwidths in MiB/s (CODES simplenet's matrix file, with latency_matrix)"},
    {0},
};

static const warp_key loggp_keys[] = {
    {"nodes", WARP_KEY_COUNT, "(the workload's ranks)", "1..2^40", "nodes"},
    {"L", WARP_KEY_TIME, "2500ns", ">= 0", "latency"},
    {"o", WARP_KEY_TIME, "1500ns", ">= 0", "overhead per message"},
    {"g", WARP_KEY_TIME, "1000ns", ">= 0", "gap between messages"},
    {"G", WARP_KEY_TIME, "6ns", ">= 0", "gap per byte"},
    {"O", WARP_KEY_TIME, "0ns", ">= 0", "overhead per byte"},
    {"S", WARP_KEY_SIZE, "65535B", ">= 0", "eager limit: larger messages use rendezvous"},
    {0},
};

static const warp_key_group simplenet_groups[] = {
    {"simplenet", "the alpha-beta network (CODES simplenet)", simplenet_keys, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

static const warp_key_group loggp_groups[] = {
    {"loggp", "the LogGOPS network (LogGOPSim's parameters)", loggp_keys, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

const net_network_ops simplenet_network = {
    .name = "simplenet",
    .section = "simplenet",
    .keys = simplenet_groups,
    .setup = simplenet_setup,
    .destroy = nic_destroy,
    .lp_type = nic_lp_type,
    .lookahead = nic_lookahead,
    .whole_messages = 1,
};

const net_network_ops loggp_network = {
    .name = "loggp",
    .section = "loggp",
    .keys = loggp_groups,
    .setup = loggp_setup,
    .destroy = nic_destroy,
    .lp_type = nic_lp_type,
    .eager_limit = loggp_eager_limit,
    .lookahead = nic_lookahead,
    .whole_messages = 1,
};
