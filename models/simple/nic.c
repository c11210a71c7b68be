/* simple/nic.c — the NIC LP of the analytic networks (simplenet, loggp):
 * one LP per node that times whole messages by closed rules (simple.h).
 * Invariant: state is two "free at" times and counters, saved by full copy;
 * statistics are written only by commit, which reads the completion time the
 * forward handler left in the event's bits. Built by models/net/model.c. */
#include <string.h>

#include "net/net_impl.h"
#include "simple/simple.h"

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
    double now = warp_now(lp), t0 = fmax2(now, s->send_free), deliver, sent, cpu = 0;
    double b = (double)m->bytes;
    if (n->kind == NET_KIND_SIMPLE) {
        s->send_free = t0 + b / n->simple_bandwidth;
        sent = s->send_free;
        deliver = t0 + n->simple_latency + b / n->simple_bandwidth;
    } else {
        const net_loggp_params *l = &n->loggp;
        s->send_free = t0 + l->g + (b - 1) * l->G;
        cpu = l->o + (b - 1) * l->O;
        sent = t0 + cpu;
        deliver = t0 + l->o + l->L;
    }
    net_event *e = warp_event_new(lp, net_term_lp(n, n->rank_term[m->dst_rank]), deliver - now);
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
    double now = warp_now(lp), b = (double)m->bytes, done;
    net_message out = *m;
    if (n->kind == NET_KIND_SIMPLE) {
        done = fmax2(now, s->recv_free + b / n->simple_bandwidth);
        s->recv_free = done;
        out.cpu_ns = 0;
    } else {
        const net_loggp_params *l = &n->loggp;
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

static void nic_init(warp_lp *lp, void *state) { memset(state, 0, sizeof(nic_state)); }

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
        if (m->t_send >= n->warmup) {
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
        if (done >= n->warmup)
            o->delivered_bytes_win += m->bytes;
        if (m->t_send >= n->warmup) {
            o->lat_pkts++;
            o->lat_sum_q += net_lat_q(lat);
            o->lat_max = fmax2(o->lat_max, lat);
            o->hist[net_hist_bin(lat)]++;
            o->msgs_lat++;
            o->mlat_sum_q += net_lat_q(lat);
            o->mlat_max = fmax2(o->mlat_max, lat);
            o->mhist[net_hist_bin(lat)]++;
        }
    }
}

static void nic_finish(warp_lp *lp, void *state, void *out)
{
    const net_model *n = warp_model_arg(lp);
    const nic_state *s = state;
    const net_term_out *o = out;
    net_term_out_add(&n->res->total, o);
    n->res->flight.term_sent += s->sent;
    n->res->flight.term_recv += s->recv;
    double *row = n->res->term_rows + warp_lp_id(lp) * NET_TERM_COLS;
    row[0] = (double)o->injected_pkts;
    row[1] = (double)o->injected_bytes;
    row[2] = (double)o->delivered_pkts;
    row[3] = (double)o->delivered_bytes;
    row[4] = o->lat_pkts ? (double)o->lat_sum_q / NET_LAT_Q / (double)o->lat_pkts : 0;
}

static void nic_type(warp_lp_type *t, const char *name)
{
    memset(t, 0, sizeof *t);
    t->name = name;
    t->state_size = sizeof(nic_state);
    t->out_size = sizeof(net_term_out);
    t->save = WARP_SAVE_FULL;
    t->init = nic_init;
    t->forward = nic_forward;
    t->commit = nic_commit;
    t->finish = nic_finish;
    t->event_name = net_event_name;
}

void simplenet_nic_type(net_model *n, warp_lp_type *t) { nic_type(t, "simplenet-nic"); }
void loggp_nic_type(net_model *n, warp_lp_type *t) { nic_type(t, "loggp-nic"); }

uint64_t net_loggp_eager_limit(const net_model *n)
{
    return n->kind == NET_KIND_LOGGP ? n->loggp.S : 0;
}
