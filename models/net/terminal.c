/* net/terminal.c — the terminal (NIC) LP of packet networks: splits messages
 * into packets, injects them onto its link when the router's input buffer
 * has credit, and reassembles arriving packets into messages.
 * Invariant: every state write is logged with warp_save, except the counts
 * of packets and bytes received and of a partial message's packets, which
 * term_reverse takes back. The message, packet and byte counts of
 * terminals.csv and summary.json are kept in the state, next to what the
 * forward handler writes anyway (exact under rollback by the log or
 * term_reverse); latencies, eject_busy_ns and paths are written by the
 * commit handler. A terminal may have several NIC ports (planes, rails:
 * net_params.nic_ports), each with its link clock and credits; rail_select
 * picks the port of each packet. Built by build.c. */
#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "net/fifo.h"
#include "net/net_impl.h"
#include "net/port.h"

/* A message waiting in (or being injected from) the NIC's queue. */
typedef struct term_msg {
    net_node node;
    net_message msg;
    uint64_t dst;       /* destination terminal */
    uint32_t next;      /* next packet to inject */
    uint32_t count;
    int32_t rail;       /* its NIC port (static and round-robin rail selection) */
} term_msg;

/* A message some of whose packets have arrived. */
typedef struct term_partial {
    net_node node;
    uint64_t src_rank, seq;
    uint32_t got;
} term_partial;

typedef struct term_state {
    net_fifo outq;      /* term_msg, FIFO: messages are injected in send order */
    net_fifo partial;   /* term_partial */
    uint64_t seq;       /* messages accepted so far (offered_msgs) */
    net_port_clock link; /* the injection link (of NIC port 0) */
    uint64_t sent, recv; /* packets onto / off the link */
    /* Statistics (net_term_out's meaning): in a committed block they cost
     * a cache miss per commit of a send or an injection. */
    uint64_t recv_bytes, recv_bytes_win; /* delivered_bytes(_win), next to recv */
    uint64_t offered_bytes;
    uint64_t sent_bytes, sent_bytes_win; /* injected_bytes(_win) */
    /* Bytes free in the router's input buffer, per injection lane
     * (term_lanes: [network] lanes of VC class 0, or every VC with
     * injection_vcs = all); at most NET_VC_BUFFER_MAX. With up to four
     * lanes the state is two cache lines. With several NIC ports: the
     * lanes of port 0, of port 1, ..., then the link clocks of ports 1 ..
     * (term_clock). */
    int32_t credits[];
} term_state;

/* The injection lanes a terminal keeps credits for. */
static int32_t term_lanes(const net_model *n)
{
    return n->params.inject_all_vcs ? n->vcs : n->params.lanes > 0 ? n->params.lanes : 1;
}

/* Where the link clocks of NIC ports 1 .. start (after every port's credits). */
static size_t clocks_at(const net_model *n)
{
    size_t c = offsetof(term_state, credits) + (size_t)n->params.nic_ports * term_lanes(n) * sizeof(int32_t);
    return (c + 7) / 8 * 8;
}

/* The state's bytes, its credits included (what a whole-state log saves). */
static size_t term_bytes(const net_model *n)
{
    if (n->params.nic_ports == 1)
        return offsetof(term_state, credits) + (size_t)term_lanes(n) * sizeof(int32_t);
    return clocks_at(n) + (size_t)(n->params.nic_ports - 1) * sizeof(net_port_clock);
}

/* The credits (one per lane) and the link clock of NIC port j. */
static int32_t *term_credits(const net_model *n, term_state *s, int32_t j)
{
    return s->credits + (size_t)j * term_lanes(n);
}

static net_port_clock *term_clock(const net_model *n, term_state *s, int32_t j)
{
    return j == 0 ? &s->link : (net_port_clock *)((char *)s + clocks_at(n)) + (j - 1);
}

/* Where NIC port j of terminal t is wired. */
static net_attach term_attach(const net_model *n, uint64_t t, int32_t j)
{
    return j == 0 || n->params.nic_ports == 1 ? n->topo_ops->attach(n->topo, t)
                                              : n->topo_ops->attach_port(n->topo, t, j);
}

/* The lane of port j with the most room (as routers pick). */
static int32_t best_lane(const net_model *n, term_state *s, int32_t j)
{
    int32_t lanes = term_lanes(n), vc = 0, *cr = term_credits(n, s, j);
    for (int32_t l = 1; l < lanes; l++)
        if (cr[l] > cr[vc])
            vc = l;
    return vc;
}

/* Facts commit reads: the message completed here; a packet was injected
 * (--sample). */
enum { BIT_MSG_DONE = 1, BIT_INJECTED = 2, BIT_GOT = 8 /* term_reverse: a partial's got++ */ };

/* Adaptive rail selection: of the NIC ports whose link is free with a lane
 * that holds `size`, the one with the most credit in all, ties to the first
 * from a start that rotates with the packet; -1 when none (a wake-up is
 * asked of each busy link). */
static int32_t adaptive_rail(warp_lp *lp, term_state *s, const net_model *n, const term_msg *m,
                             uint32_t size, int saved)
{
    int32_t ports = n->params.nic_ports, best = -1, lanes = term_lanes(n);
    int64_t most = -1;
    for (int32_t i = 0; i < ports; i++) {
        int32_t j = (int32_t)((m->msg.seq + m->next + i) % (uint64_t)ports);
        if (!net_port_is_free_log(lp, term_clock(n, s, j), j, 1, !saved))
            continue;
        int32_t *cr = term_credits(n, s, j);
        if (cr[best_lane(n, s, j)] < (int32_t)size)
            continue;
        int64_t room = 0;
        for (int32_t l = 0; l < lanes; l++)
            room += cr[l];
        if (room > most) {
            most = room;
            best = j;
        }
    }
    return best;
}

/* Injects the next packet of the head message if its NIC port is free and
 * has credit; returns 1 when it did. saved: the caller has logged all of *s
 * in this event already. */
static int inject_one(warp_lp *lp, term_state *s, const net_model *n, warp_bits *bits, int saved)
{
    if (!s->outq.head)
        return 0;
    term_msg *m = (term_msg *)s->outq.head;
    uint64_t psz = n->params.packet_size;
    uint64_t off = (uint64_t)m->next * psz;
    uint32_t size = (uint32_t)(m->msg.bytes - off < psz ? m->msg.bytes - off : psz);
    int32_t j = m->rail;
    if (n->params.rail_select == NET_RAIL_ADAPTIVE && n->params.nic_ports > 1) {
        if ((j = adaptive_rail(lp, s, n, m, size, saved)) < 0)
            return 0;
    } else if (!net_port_is_free_log(lp, term_clock(n, s, j), j, 1, !saved)) {
        return 0;
    }
    /* The injection link is in no cycle of channel dependencies, so with
     * injection_vcs = all a packet may take any VC of it (as in BookSim). */
    int32_t vc = best_lane(n, s, j), *cr = term_credits(n, s, j);
    if (cr[vc] < (int32_t)size)
        return 0;
    uint64_t self = warp_lp_id(lp);
    net_attach at = term_attach(n, self, j);

    if (!saved)
        warp_save(lp, s, term_bytes(n));
    cr[vc] -= size;
    s->sent++;
    s->sent_bytes += size;
    if (warp_now(lp) >= n->warmup)
        s->sent_bytes_win += size;
    bits->b |= BIT_INJECTED;

    net_packet p = {.msg = m->msg,
                    .src = self,
                    .dst = m->dst,
                    .index = m->next,
                    .count = m->count,
                    .size = size,
                    .flow = (uint32_t)(m->msg.seq * 2654435761u ^ self * 40503u)};
    double ser = net_fabric_inject_vc(lp, n, at.router, at.port, vc, &p);

    if (m->next + 1 == m->count) {
        net_fifo_pop_saved(&s->outq); /* s is logged above */
        net_notify_sent(lp, n, &m->msg, ser);
        warp_free_on_commit(lp, m);
    } else {
        warp_save(lp, &m->next, sizeof m->next);
        m->next++;
    }
    net_port_take_log(lp, term_clock(n, s, j), j, ser, s->outq.head != NULL, 0); /* s is logged above */
    return 1;
}

/* One packet onto the link; with several NIC ports as many as find a free
 * port with credit (after the first, *s is logged). */
static void try_inject(warp_lp *lp, term_state *s, const net_model *n, warp_bits *bits, int saved)
{
    if (inject_one(lp, s, n, bits, saved) && n->params.nic_ports > 1)
        while (inject_one(lp, s, n, bits, 1))
            ;
}

/* Counts a packet of message (src_rank, seq) in; returns 1 when it completes it. */
/* The partial of message (src_rank, seq) in s (NULL: none). */
static term_partial *partial_of(const term_state *s, uint64_t src_rank, uint64_t seq, net_node **prev)
{
    *prev = NULL;
    for (net_node *x = s->partial.head; x; *prev = x, x = x->next) {
        term_partial *q = (term_partial *)x;
        if (q->src_rank == src_rank && q->seq == seq)
            return q;
    }
    return NULL;
}

static int reassemble(warp_lp *lp, term_state *s, const net_packet *p, warp_bits *bits)
{
    if (p->count == 1)
        return 1;
    net_node *prev;
    term_partial *q = partial_of(s, p->msg.src_rank, p->msg.seq, &prev);
    if (q && q->got + 1 == p->count) {
        net_fifo_unlink(lp, &s->partial, prev, &q->node);
        warp_free_on_commit(lp, q);
        return 1;
    }
    if (q) {
        q->got++; /* unlogged: term_reverse finds q again and takes it back */
        bits->b |= BIT_GOT;
        return 0;
    }
    q = warp_alloc(lp, sizeof *q);
    q->src_rank = p->msg.src_rank;
    q->seq = p->msg.seq;
    q->got = 1;
    net_fifo_push(lp, &s->partial, &q->node);
    return 0;
}

static void term_init(warp_lp *lp, void *state)
{
    term_state *s = state;
    const net_model *n = warp_model_arg(lp);
    memset(s, 0, term_bytes(n));
    for (int32_t j = 0; j < n->params.nic_ports; j++) {
        net_attach at = term_attach(n, warp_lp_id(lp), j);
        for (int32_t l = 0; l < term_lanes(n); l++)
            term_credits(n, s, j)[l] = (int32_t)net_input_buffer(n, at.router, at.port);
    }
    net_terminal_claim(lp);
}

void net_terminal_claim(warp_lp *lp)
{
    const net_model *n = warp_model_arg(lp);
    net_hist_claim(n->res, warp_lp_id(lp));
}

void net_terminal_ckpt_save(warp_lp *lp, const void *state, const void *out, warp_ckpt *c)
{
    (void)state, (void)out;
    const net_model *n = warp_model_arg(lp);
    net_hist_ckpt_save(n->res, warp_lp_id(lp), c);
}

void net_terminal_ckpt_load(warp_lp *lp, void *state, void *out, warp_ckpt *c)
{
    (void)state, (void)out;
    const net_model *n = warp_model_arg(lp);
    net_hist_ckpt_load(n->res, warp_lp_id(lp), c);
}

void net_terminal_latency(warp_lp *lp, net_term_out *o, double lat, int msg_done)
{
    const net_model *n = warp_model_arg(lp);
    net_term_out_latency(o, n->res, lat, msg_done);
}

static void term_forward(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    term_state *s = state;
    net_event *e = msg;
    const net_model *n = warp_model_arg(lp);
    switch (e->kind) {
    case NET_EV_SEND: {
        term_msg *m = warp_alloc(lp, sizeof *m);
        m->msg = e->u.msg;
        warp_save(lp, s, term_bytes(n));
        m->msg.seq = s->seq++;
        /* Messages count over the whole run (seq), like deliveries (so
         * offered >= delivered); bytes only after warm-up, for the offered
         * load. */
        if (m->msg.t_send >= n->warmup)
            s->offered_bytes += m->msg.bytes;
        m->dst = net_term_of_rank(n, m->msg.dst_rank);
        m->next = 0;
        m->rail = (int32_t)((n->params.rail_select == NET_RAIL_ROUND_ROBIN ? m->msg.seq : m->dst) %
                            (uint64_t)n->params.nic_ports);
        uint64_t psz = n->params.packet_size;
        m->count = (uint32_t)((m->msg.bytes + psz - 1) / psz);
        net_fifo_push_saved(lp, &s->outq, &m->node);
        try_inject(lp, s, n, bits, 1);
        break;
    }
    case NET_EV_CREDIT: {
        assert(e->u.credit.vc < term_lanes(n) && "terminal: a credit comes back for an injection lane");
        assert(e->u.credit.port < n->params.nic_ports && "terminal: a credit comes back to a NIC port");
        int32_t *cr = term_credits(n, s, e->u.credit.port) + e->u.credit.vc;
        /* With a message waiting the packet it lets go writes more of s:
         * one log record for all of it. */
        if (s->outq.head)
            warp_save(lp, s, term_bytes(n));
        else
            warp_save(lp, cr, sizeof *cr);
        *cr += (int32_t)e->u.credit.bytes;
        try_inject(lp, s, n, bits, s->outq.head != NULL);
        break;
    }
    case NET_EV_PORT_FREE:
        /* As for a credit: with a message waiting, one log record for all of s. */
        if (s->outq.head)
            warp_save(lp, s, term_bytes(n));
        net_port_woken_log(lp, term_clock(n, s, e->port), s->outq.head == NULL);
        try_inject(lp, s, n, bits, s->outq.head != NULL);
        break;
    case NET_EV_PKT:
        /* unlogged: term_reverse; nothing below logs these bytes of s */
        s->recv++;
        s->recv_bytes += e->u.pkt.size;
        if (e->u.pkt.t_tail >= n->warmup)
            s->recv_bytes_win += e->u.pkt.size;
        if (reassemble(lp, s, &e->u.pkt, bits)) {
            bits->b |= BIT_MSG_DONE;
            net_deliver_message(lp, n, &e->u.pkt.msg);
        }
        break;
    default:
        assert(!"terminal: event kind is one a terminal handles");
    }
}

/* Reverse computation of the unlogged writes, plain counts of an arrival
 * (the engine replays the undo log after this runs): packets and bytes
 * received, and the packets a partial message holds. */
static void term_reverse(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    term_state *s = state;
    const net_event *e = msg;
    const net_model *n = warp_model_arg(lp);
    if (e->kind != NET_EV_PKT)
        return;
    s->recv--;
    s->recv_bytes -= e->u.pkt.size;
    if (e->u.pkt.t_tail >= n->warmup)
        s->recv_bytes_win -= e->u.pkt.size;
    if (bits->b & BIT_GOT) {
        net_node *prev;
        partial_of(s, e->u.pkt.msg.src_rank, e->u.pkt.msg.seq, &prev)->got--;
    }
}

/* A terminal's output block holds only the leading part of net_term_out
 * that commit writes (the counts after it are in term_state), then the
 * sampling area, then the per-path blocks. */
#define OUT_HEAD offsetof(net_term_out, offered_msgs)
_Static_assert(OUT_HEAD % 8 == 0, "terminal: the sampling area after the head stays aligned");

static void *sample_area(const net_term_out *o) { return (char *)o + OUT_HEAD; }

static net_path_out *paths_of(const net_model *n, const net_term_out *o)
{
    return (net_path_out *)((char *)sample_area(o) + net_sample_term_bytes(&n->sampling));
}

static void count_path(net_path_out *q, const net_packet *p, double warmup, int msg_done)
{
    double lat = p->t_tail - p->msg.t_send;
    q->pkts++;
    q->msgs += msg_done != 0;
    if (p->msg.t_send < warmup)
        return;
    q->lat_pkts++;
    q->lat_sum_q += net_lat_q(lat);
    if (lat > q->lat_max)
        q->lat_max = lat;
    if (msg_done) {
        q->msgs_lat++;
        q->mlat_sum_q += net_lat_q(lat);
        if (lat > q->mlat_max)
            q->mlat_max = lat;
    }
}

static void term_commit(warp_lp *lp, void *out, const void *msg, const warp_bits *bits)
{
    net_term_out *o = out;
    const net_event *e = msg;
    const net_model *n = warp_model_arg(lp);
    double w = n->warmup;
    if (n->sampling.interval > 0) {
        void *area = sample_area(o);
        if (bits->b & BIT_INJECTED)
            net_sample_count(&n->sampling, area, warp_now(lp), 0);
        if (e->kind == NET_EV_PKT)
            net_sample_count(&n->sampling, area, warp_now(lp), 1);
    }
    if (e->kind == NET_EV_PKT) {
        const net_packet *p = &e->u.pkt;
        net_attach at = term_attach(n, warp_lp_id(lp), p->in_port);
        net_peer link = n->topo_ops->peer(n->topo, at.router, at.port);
        double ser = p->size / link.bandwidth;
        if (p->t_tail - ser - link.latency >= w)
            o->eject_busy_ns += ser;
        if (p->msg.t_send >= w) {
            double lat = p->t_tail - p->msg.t_send;
            o->hops_sum += p->hops;
            net_terminal_latency(lp, o, lat, (bits->b & BIT_MSG_DONE) != 0);
        }
        if (bits->b & BIT_MSG_DONE) {
            o->msgs_delivered++;
            if (p->t_tail > o->t_last)
                o->t_last = p->t_tail;
        }
        assert(p->path < (uint32_t)(n->npaths ? n->npaths : 1) &&
               "terminal: a packet's path is one the network names");
        if (n->npaths)
            count_path(paths_of(n, o) + p->path, p, w, bits->b & BIT_MSG_DONE);
    }
}

static void term_finish(warp_lp *lp, void *state, void *out)
{
    term_state *s = state;
    const net_model *n = warp_model_arg(lp);
    const net_term_out *o = out;
    net_term_out t = {0};
    memcpy(&t, o, OUT_HEAD);
    uint64_t waiting = 0; /* messages in the NIC's queue */
    for (const net_node *x = s->outq.head; x; x = x->next)
        waiting++;
    t.offered_msgs = s->seq;
    t.offered_bytes = s->offered_bytes;
    t.injected_pkts = s->sent;
    t.injected_bytes = s->sent_bytes;
    t.injected_bytes_win = s->sent_bytes_win;
    t.delivered_pkts = s->recv;
    t.delivered_bytes = s->recv_bytes;
    t.delivered_bytes_win = s->recv_bytes_win;
    net_terminal_results(lp, &t, s->sent, s->recv, waiting);
    net_path_out_add(n->res->paths, paths_of(n, o), n->npaths);
    if (n->sampling.interval > 0)
        net_sample_term_finish(&n->sampling, sample_area(o), warp_lp_id(lp), n->res);
}

double net_fabric_inject(warp_lp *lp, const net_model *n, uint64_t router, int32_t port,
                         const net_packet *p)
{
    return net_fabric_inject_vc(lp, n, router, port, 0, p);
}

double net_fabric_inject_vc(warp_lp *lp, const net_model *n, uint64_t router, int32_t port, int32_t vc,
                            const net_packet *p)
{
    net_peer link = n->topo_ops->peer(n->topo, router, port);
    double ser = p->size / link.bandwidth, now = warp_now(lp);
    double delay = link.latency + n->params.router_delay + (n->params.store_forward ? ser : 0);
    net_event *e = warp_event_new(lp, net_router_lp(n, router), delay);
    e->kind = NET_EV_PKT;
    e->u.pkt = *p;
    e->u.pkt.in_port = port;
    e->u.pkt.vc = vc;
    e->u.pkt.t_tail = now + ser + link.latency;
    warp_event_send(lp, e);
    return ser;
}

void net_gateway_results(warp_lp *lp, uint64_t received, uint64_t sent)
{
    const net_model *n = warp_model_arg(lp);
    n->res->flight.gateway_recv += received;
    n->res->flight.gateway_sent += sent;
}

void net_terminal_results(warp_lp *lp, const net_term_out *o, uint64_t sent, uint64_t recv,
                          uint64_t waiting)
{
    const net_model *n = warp_model_arg(lp);
    net_results *r = n->res;
    net_term_out_add(&r->total, o);
    r->flight.term_sent += sent;
    r->flight.term_recv += recv;
    r->flight.nic_waiting_msgs += waiting;
    double *row = r->term_rows + warp_lp_id(lp) * NET_TERM_COLS;
    row[0] = (double)o->injected_pkts;
    row[1] = (double)o->injected_bytes;
    row[2] = (double)o->delivered_pkts;
    row[3] = (double)o->delivered_bytes;
    row[4] = o->lat_pkts ? (double)o->lat_sum_q / NET_LAT_Q / (double)o->lat_pkts : 0;
    row[5] = o->lat_pkts ? (double)o->hops_sum / (double)o->lat_pkts : 0;
    row[6] = o->eject_busy_ns / n->params.nic_ports; /* per NIC port: a link's busy time */
}

/* The sends whose destination's place is a random entry of the engine's
 * table: an arrival's notice to its rank (net_deliver_message), a send
 * request's notice back to its sender (net_notify_sent). */
static void term_prefetch(const warp_lp *lp, const void *state, const void *msg)
{
    const net_model *n = warp_model_arg(lp);
    const net_event *e = msg;
    if (e->kind == NET_EV_PKT)
        warp_prefetch_dest(lp, net_rank_lp(n, e->u.pkt.msg.dst_rank));
    else if (e->kind == NET_EV_SEND)
        warp_prefetch_dest(lp, net_rank_lp(n, e->u.msg.src_rank));
}

void net_terminal_type(net_model *n, warp_lp_type *t)
{
    memset(t, 0, sizeof *t);
    t->name = "terminal";
    t->state_size = term_bytes(n);
    t->state_align = 64; /* two whole lines, not three */
    t->out_size = OUT_HEAD + net_sample_term_bytes(&n->sampling) +
                  (size_t)n->npaths * sizeof(net_path_out);
    t->save = WARP_SAVE_NONE;
    t->init = term_init;
    t->forward = term_forward;
    t->reverse = term_reverse;
    t->commit = term_commit;
    t->finish = term_finish;
    t->prefetch = term_prefetch;
    t->event_name = net_event_name;
    t->ckpt_save = net_terminal_ckpt_save;
    t->ckpt_load = net_terminal_ckpt_load;
}
