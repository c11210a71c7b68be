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

/* Handles NET_EV_SEND: times the message and sends DELIVER and SENT. */
static void nic_send(warp_lp *lp, nic_state *s, const net_model *n, const net_message *m)
{
    const nic_net *l = net_network_of(n);
    double now = warp_now(lp), t0 = fmax2(now, s->send_free), deliver, sent, cpu = 0;
    double b = (double)m->bytes;
    if (!l->loggp) {
        s->send_free = t0 + b / l->bandwidth;
        sent = s->send_free;
        deliver = t0 + l->latency + b / l->bandwidth;
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
}

/* Handles NET_EV_DELIVER: returns when the message is complete here. */
static double nic_deliver(warp_lp *lp, nic_state *s, const net_model *n, const net_message *m)
{
    const nic_net *l = net_network_of(n);
    double now = warp_now(lp), b = (double)m->bytes, done;
    net_message out = *m;
    if (!l->loggp) {
        done = fmax2(now, s->recv_free + b / l->bandwidth);
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
        nic_send(lp, state, n, &e->u.msg);
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

/* [simplenet]: latency, bandwidth, nodes. */
static void read_simplenet(warp_ini *ini, nic_net *c)
{
    c->latency = warp_ini_time_ns(ini, "simplenet", "latency", 1000);
    c->bandwidth = warp_ini_bandwidth(ini, "simplenet", "bandwidth", 12.5);
    if (!(c->bandwidth > 0))
        warp_ini_fail(ini, "simplenet", "bandwidth", "must be positive (e.g. 100Gbps)");
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
    uint64_t nodes = (uint64_t)warp_ini_int(ini, sec, "nodes", (int64_t)net_ranks_hint(n), 0, INT64_C(1) << 40);
    if (nodes == 0)
        warp_ini_fail(ini, sec, "nodes", "missing; give the number of nodes (e.g. 64)");
    net_declare(n, nodes, 0, loggp ? (c->G > 0 ? 1.0 / c->G : 1e9) : c->bandwidth);
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
static void nic_destroy(void *net) { free(net); }

static const warp_lp_type *nic_lp_type(const void *net, uint64_t index)
{
    (void)index; /* every LP of these networks is a NIC */
    return &((const nic_net *)net)->type;
}

static uint64_t loggp_eager_limit(const void *net) { return ((const nic_net *)net)->S; }

/* A message reaches the other NIC at least latency (simplenet) or o + L
 * (LogGOPS) after it is sent. nic_send computes the delay from absolute
 * times, whose rounding may take it a hair below that: half is the bound. */
static double nic_lookahead(const void *net)
{
    const nic_net *l = net;
    return 0.5 * (l->loggp ? l->o + l->L : l->latency);
}

const net_network_ops simplenet_network = {
    .name = "simplenet",
    .section = "simplenet",
    .setup = simplenet_setup,
    .destroy = nic_destroy,
    .lp_type = nic_lp_type,
    .lookahead = nic_lookahead,
    .whole_messages = 1,
};

const net_network_ops loggp_network = {
    .name = "loggp",
    .section = "loggp",
    .setup = loggp_setup,
    .destroy = nic_destroy,
    .lp_type = nic_lp_type,
    .eager_limit = loggp_eager_limit,
    .lookahead = nic_lookahead,
    .whole_messages = 1,
};
