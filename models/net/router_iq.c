/* net/router_iq.c — the input-queued router LP ([network] router =
 * input-queued): a FIFO per input port and VC; a packet is routed when it
 * arrives and competes for the switch only from the head of its FIFO, so
 * head-of-line blocking happens as in hardware. Switch and VC allocation
 * run together in one NET_EV_ALLOC self-event at the time of any change
 * (an arrival, a credit, a link or input falling free), sent with zero
 * delay so that every change of that instant is in: iSLIP-style requests,
 * grants (each output round-robin over input ports) and accepts (each input
 * round-robin over its VCs), repeated to a maximal matching or for
 * [network] alloc_iters rounds (what a hardware allocator does in a
 * cycle; heads left over try again a cycle later); with [network]
 * alloc_timing = per-cycle only once per allocator cycle, at its boundary,
 * after every change of that instant (a wake-up event there asks for the
 * allocation with zero delay). An input port
 * sends at most [network] speedup packets at once (from different VCs), an
 * output link one; with [network] internal_speedup = N the switch moves a
 * packet in 1/N of the output link's time, so an output takes up to N
 * packets a link time from different inputs into its output buffer (as
 * BookSim's iq_router with internal_speedup: the buffer is bounded by the
 * downstream credits, taken at the grant), and the link sends them in
 * order as it falls free; a VC FIFO starts its next packet once the previous tail
 * has left, and its next head may go [network] alloc_delay after that (route
 * computation and allocation start only once a packet heads its FIFO; a
 * packet that finds its FIFO idle has had them in router_delay). VC allocation: a packet may take any lane of the VC class its
 * route names whose downstream buffer holds all of it (virtual cut-through).
 * Invariant: every state write is logged with warp_save (a field at a
 * time, or a whole port record where an event writes several of its
 * fields), except what iq_reverse takes back: an arrival's writes (its
 * output's queued bytes, its FIFO push, a heads bit, the low words of its
 * port statistics) and
 * an allocation's heads bits and reset of alloc_at (no event logs a word it
 * writes unlogged). Port statistics are accounted by the arrival, in the
 * records it touches anyway (net_rcore_account), and taken back by
 * iq_reverse; commit counts --sample alone. Built by build.c. */
#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "net/fifo.h"
#include "net/router_core.h"

typedef struct inode {
    net_node node;
    net_packet pkt;   /* in_port/vc: the FIFO it sits in */
    double ready;     /* earliest time its head may leave (slow-in, fast-out) */
    double arrived;   /* it entered this router's input buffer */
    int32_t port;     /* output port */
    int32_t vc, span; /* lanes vc .. vc+span-1 at the next hop */
    int32_t lane;     /* vc_allocation = before-switch: the output lane it holds (-1: none yet) */
    net_node *prev;   /* its FIFO's tail when it arrived (iq_reverse takes the push back) */
} inode;

/* One VC FIFO of an input port. */
typedef struct ivc {
    net_fifo q;
    double busy; /* the last tail of this FIFO leaves then */
} ivc;

/* An input port's record: what an arrival or a departure from it touches,
 * one cache line with two VCs (istride). The packets that left it are not
 * counted: they are those that came in (st) and are not in its FIFOs. */
typedef struct iin {
    uint32_t rr;         /* VC to accept first */
    net_rcore_in st;     /* the link's statistics and packets */
    ivc vc[];            /* vcs of them */
} iin;

/* An output port's record (ostride bytes, one cache line with two VCs):
 * its net_rcore_port (queued bytes, the input port to grant first,
 * credits; router_core.h), then busy_until, then per lane the time its
 * last tail leaves (LANE_TAKEN while a head waiting for the switch holds
 * it), then per lane the input VC to grant it first (before-switch VC
 * allocation), then, with internal_speedup > 1 only (it would take a
 * second line at one), the time the link has sent its output buffer. */
typedef struct iout {
    double busy_until; /* the switch moves a packet into this output until then */
    double lane_busy[]; /* vcs of them, then lane_rr (vcs of them) */
} iout;

typedef struct iq_state {
    double alloc_at; /* time of the latest NET_EV_ALLOC scheduled and not yet run (-1: none) */
    double last_pass; /* alloc_timing = per-cycle: time of the latest allocation (-1: none) */
} iq_state;

/* Where the parts of a router's state lie, computed once per process
 * (n->router_layout, read-only like the rest of the model) rather than on
 * every event. */
typedef struct iq_layout {
    size_t heads, in, out, view, wide;   /* byte offsets from the state */
    size_t istride, ostride, rc;         /* rc: bytes of an output record's net_rcore_port */
    size_t link;                         /* bytes of an output record before its link_free */
} iq_layout;

/* State layout: header, a bitmap of the input ports that hold a packet
 * (the allocator visits only those: with radix 264 a scan of every FIFO
 * read ~13 KB of cold state per allocation; a bit per port, not per VC
 * FIFO, keeps header and bitmap in one line up to radix 384, and the
 * allocator reads the port's record anyway), max_radix input records,
 * max_radix output records, then the shared view array and the ports'
 * wide statistics (router_core.h). Per port records, not an array per
 * field: at radix 264 the eight arrays an arrival or a departure touched
 * lay ~38 KB apart, a miss each. The records start on cache lines (the
 * state is 64-byte aligned) and take whole lines: an 88-byte record at an
 * 88-byte stride took two or three lines an access, and the million-node
 * Slim Fly ran 12 % slower (bench/RESULTS.md). */
typedef struct iview {
    iq_state *s;
    uint64_t *heads; /* bit p: a FIFO of input port p is not empty */
    char *in, *out;  /* the records */
    size_t istride, ostride, rc; /* rc: bytes of an output record's net_rcore_port */
    size_t link;                 /* bytes of an output record before its link_free */
    net_rcore c;
    int32_t vcs, radix;
} iview;

/* The bytes of whole cache lines that hold b bytes. */
static size_t lines(size_t b) { return (b + 63) & ~(size_t)63; }

/* Strides of an input port's and an output port's record for vcs VCs:
 * whole lines (two VCs: one each). */
static size_t in_bytes(size_t vcs) { return lines(sizeof(iin) + vcs * sizeof(ivc)); }
/* Bytes of an output record before its link_free (a multiple of 8). */
static size_t out_link_at(const net_model *n)
{
    size_t vcs = (size_t)n->vcs;
    return (net_rcore_port_bytes(n) + sizeof(iout) + vcs * (sizeof(double) + sizeof(uint32_t)) + 7) &
           ~(size_t)7;
}
static size_t out_bytes(const net_model *n)
{
    return lines(out_link_at(n) + (n->params.internal_speedup > 1 ? sizeof(double) : 0));
}

static iin *in_at(const iview *v, int32_t p) { return (iin *)(v->in + (size_t)p * v->istride); }
static ivc *ivc_at(const iview *v, int32_t p, int32_t vc) { return &in_at(v, p)->vc[vc]; }
static iout *out_at(const iview *v, int32_t p)
{
    return (iout *)(v->out + (size_t)p * v->ostride + v->rc);
}
/* Credits of the lanes of output p. */
static int32_t *credits(const iview *v, int32_t p) { return net_rcore_port_at(&v->c, p)->credits; }
static uint32_t *out_rr(const iview *v, int32_t p) { return &net_rcore_port_at(&v->c, p)->rr; }
static double *lane_busy(const iview *v, int32_t p, int32_t lane)
{
    return &out_at(v, p)->lane_busy[lane];
}
static uint32_t *lane_rr(const iview *v, int32_t p, int32_t lane)
{
    return (uint32_t *)(out_at(v, p)->lane_busy + v->vcs) + lane;
}
/* When output p's link has sent its output buffer (internal_speedup > 1 only). */
static double *link_free(const iview *v, int32_t p)
{
    return (double *)(v->out + (size_t)p * v->ostride + v->link);
}

/* Words of a bitmap of k bits. */
static size_t bitmap_words(size_t k) { return (k + 63) / 64; }

static int bit_test(const uint64_t *b, int32_t i) { return (int)(b[i >> 6] >> (i & 63) & 1); }

static void bit_set(uint64_t *b, int32_t i) { b[i >> 6] |= UINT64_C(1) << (i & 63); }

static void bit_clear(uint64_t *b, int32_t i) { b[i >> 6] &= ~(UINT64_C(1) << (i & 63)); }

/* 1 when a VC FIFO of input record `in` holds a packet. */
static int port_waiting(const iview *v, const iin *in)
{
    for (int32_t vc = 0; vc < v->vcs; vc++)
        if (in->vc[vc].q.head)
            return 1;
    return 0;
}

/* A hint: the first line of a port record (stride bytes, line-aligned) and,
 * when the record takes more than one, the line of byte off in it. */
static inline void prefetch_record(const char *rec, size_t stride, size_t off)
{
    __builtin_prefetch(rec);
    if (stride > 64)
        __builtin_prefetch(rec + off);
}

/* Visits the set bits of bitmap b (words words) in ascending order as i. */
#define FOR_BITS(i, b, words)                                                                     \
    for (size_t w_ = 0; w_ < (words); w_++)                                                        \
        for (uint64_t m_ = (b)[w_], i = 0; m_ && (i = w_ * 64 + (uint64_t)__builtin_ctzll(m_), 1); \
             m_ &= m_ - 1)

static iq_layout layout_of(const net_model *n)
{
    iq_layout l;
    l.istride = in_bytes((size_t)n->vcs);
    l.ostride = out_bytes(n); /* strides: multiples of 8 */
    l.rc = net_rcore_port_bytes(n);
    l.link = out_link_at(n);
    l.heads = sizeof(iq_state);
    l.in = lines(l.heads + bitmap_words((size_t)n->max_radix) * sizeof(uint64_t));
    l.out = l.in + (size_t)n->max_radix * l.istride;
    l.view = l.out + (size_t)n->max_radix * l.ostride;
    l.wide = l.view + net_rcore_view_bytes(n);
    return l;
}

/* Inlined: called on every event, and a by-value copy of the view cost more
 * than computing it. */
static inline __attribute__((always_inline)) iview view(const net_model *n, void *state)
{
    const iq_layout *l = n->router_layout;
    char *b = state;
    iview v;
    v.s = state;
    v.heads = (uint64_t *)(b + l->heads);
    v.istride = l->istride;
    v.ostride = l->ostride;
    v.rc = l->rc;
    v.link = l->link;
    v.in = b + l->in;
    v.out = b + l->out;
    v.c = net_rcore_at(v.out, v.ostride, b + l->view, b + l->wide);
    v.vcs = n->vcs;
    v.radix = n->max_radix;
    return v;
}

static size_t iq_state_size(const net_model *n)
{
    return layout_of(n).wide + net_rcore_wide_bytes(n);
}

/* Departures one allocation records for --sample (in the event's payload);
 * an allocation that matches more continues in a second one at once. */
#define IQ_DEPS ((int)(sizeof(((net_event *)0)->u) / sizeof(net_departure)))

/* The allocator's work area, on the stack of the allocation that uses it
 * (allocate), so that the model stays read-only and each PE (a thread,
 * later) has its own: per output the best request (rotated priority key,
 * input port, VC); per input its sends now. Every allocation fills what it
 * reads. */
typedef struct iq_scratch {
    int64_t *key;
    int32_t *gp, *gv, *active;
    int32_t *best, *best_d; /* per input: the grant it takes next, its VC distance */
    int64_t *lkey;          /* per output lane (before-switch VC allocation): best request */
    int32_t *lgrant;        /* its input VC (p * vcs + vc) */
    int32_t *hl, nh;        /* the FIFOs holding a packet when the allocation began, ascending */
    int32_t *pl, np;        /* their input ports, ascending */
    uint64_t *granted;      /* per output: key/gp/gv hold this round's request */
    uint64_t *lgranted;     /* per output lane: lkey/lgrant hold this round's request */
} iq_scratch;

/* NET_EV_ALLOC's port: an allocation; a wake-up (per-cycle: at a cycle
 * boundary it asks, with zero delay, for the allocation that then comes
 * after every change of that instant); the rest of an allocation whose
 * payload filled up. */
enum { IQ_PASS, IQ_WAKE, IQ_MORE };

/* NET_EV_ALLOC's bits: it found alloc_at == now (its own request) and reset
 * it unlogged; iq_reverse puts now back, so no write to alloc_at in that
 * event is logged. */
enum { IQ_BIT_ALLOC_AT = 1 };

/* With alloc_iters rounds an allocation may leave a head unmatched that
 * could go now (its output granted another input, which accepted a
 * different grant); it tries again an allocator cycle later: alloc_cycle,
 * or the time a link takes for a credit unit (a flit), or for a packet
 * without credit_unit. Per-cycle allocation runs at multiples of it. */
static double alloc_cycle(const net_model *n)
{
    if (n->params.alloc_cycle > 0)
        return n->params.alloc_cycle;
    uint64_t unit = n->params.credit_unit ? n->params.credit_unit : n->params.packet_size;
    double c = (double)unit / n->params.link_bandwidth;
    /* A switch N times the link's speed allocates N times a link cycle, as
     * BookSim's router runs its internal step internal_speedup times a cycle. */
    return n->params.internal_speedup > 1 ? c / n->params.internal_speedup : c;
}

/* The first allocator cycle boundary at or after t. */
static double cycle_at(const net_model *n, double t)
{
    double c = alloc_cycle(n);
    return net_grid_index(t, c) * c;
}

/* save 0: iq_reverse restores alloc_at itself (allocate's IQ_BIT_ALLOC_AT). */
static void send_alloc(warp_lp *lp, iq_state *s, double t, int32_t kind, int save)
{
    if (save)
        warp_save(lp, &s->alloc_at, sizeof s->alloc_at);
    s->alloc_at = t;
    net_event *e = warp_event_new(lp, warp_lp_id(lp), t - warp_now(lp));
    e->kind = NET_EV_ALLOC;
    e->port = kind;
    warp_event_send(lp, e);
}

/* Asks for an allocation at time t (>= now), unless one already comes
 * between now and t (that one asks again for whatever still waits).
 * Per-cycle: at the first cycle boundary from t whose allocation has not
 * run yet. */
static void request_alloc(warp_lp *lp, const net_model *n, iq_state *s, double t, int save)
{
    double now = warp_now(lp);
    int32_t kind = IQ_PASS;
    if (n->params.per_cycle) {
        t = cycle_at(n, t);
        if (t <= s->last_pass) /* this cycle's allocation is over: the next one's */
            t = cycle_at(n, s->last_pass + alloc_cycle(n));
        kind = t > now ? IQ_WAKE : IQ_PASS;
    }
    if (s->alloc_at >= now && s->alloc_at <= t)
        return;
    send_alloc(lp, s, t, kind, save);
}

/* A hint: the input records the allocation that runs next (a zero-delay
 * self-event) reads first, those of every port with a packet waiting
 * (list_heads), whose lines have gone cold since this router's last event.
 * Loaded now, they overlap the rest of this event. Writes nothing. */
static void prefetch_waiting(const iview *v)
{
    FOR_BITS(p, v->heads, bitmap_words((size_t)v->radix))
    {
        prefetch_record((const char *)in_at(v, (int32_t)p), v->istride, v->istride - 1);
    }
}

/* request_alloc for now, with the allocation's lines loading. */
static void request_alloc_now(warp_lp *lp, const net_model *n, const iview *v)
{
    double now = warp_now(lp);
    request_alloc(lp, n, v->s, now, 1);
    if (v->s->alloc_at == now)
        prefetch_waiting(v);
}

/* Credit of a port that leads to a terminal or gateway (or nowhere): they
 * take every packet, so their credit never runs out (set by iq_init). */
#define NO_CREDIT_LIMIT INT32_MAX

/* lane_busy of an output lane a head holds before the switch (before-switch
 * VC allocation): it frees when that head is sent. */
#define LANE_TAKEN 1e300

/* The lane a head packet would take now: of the lanes its route allows
 * with room for all of it (virtual cut-through; any lane without room) and
 * not held, the one with the most credit (-1: none). An output lane is held
 * by one packet at a time from VC allocation until its tail has left, as a
 * VC of a wormhole/VCT router is: the next packet may start on it lane_hold
 * after that tail (its own VC allocation). *free_at: when the first lane
 * with room falls free (-1: none has room, a credit will ask again, or each
 * is held by a waiting head, whose departure will). */
static int32_t lane_with(const net_model *n, const iview *v, const inode *h, int room, double now,
                         double *free_at)
{
    int32_t best = -1;
    *free_at = -1;
    const int32_t *cr = credits(v, h->port);
    for (int32_t vc = h->vc; vc < h->vc + h->span; vc++) {
        double busy = *lane_busy(v, h->port, vc);
        if ((room && cr[vc] < (int64_t)h->pkt.size) || busy == LANE_TAKEN)
            continue;
        double t = busy + n->params.lane_hold;
        if (t > now) {
            if (*free_at < 0 || t < *free_at)
                *free_at = t;
        } else if (best < 0 || cr[vc] > cr[best]) {
            best = vc;
        }
    }
    if (best >= 0)
        *free_at = now;
    return best;
}

/* The lane head h may be sent on now (-1: none): with-switch VC allocation
 * the best with room, before-switch the one it holds, once it has room. */
static int32_t lane_for(const net_model *n, const iview *v, const inode *h, double now, double *free_at)
{
    if (!n->params.vc_first)
        return lane_with(n, v, h, 1, now, free_at);
    int ok = h->lane >= 0 && credits(v, h->port)[h->lane] >= (int64_t)h->pkt.size;
    *free_at = ok ? now : -1;
    return ok ? h->lane : -1;
}

/* Logs input record `in` before an event writes its header (rr) and VC
 * vc's FIFO or busy: in one warp_save while the record is small (a few log
 * records of a field each cost more than the bytes), else the header and
 * that VC alone (at many VCs the rest is cold). */
static void save_in(warp_lp *lp, const iview *v, iin *in, int32_t vc)
{
    if (v->istride <= 2 * sizeof(iin) + 2 * sizeof(ivc)) {
        warp_save(lp, in, v->istride);
    } else {
        warp_save(lp, in, sizeof *in);
        warp_save(lp, &in->vc[vc], sizeof in->vc[vc]);
    }
}

/* Starts sending the head of VC FIFO (p, vc) out of its port. */
static void start(warp_lp *lp, const net_model *n, iview *v, uint64_t router, int32_t p, int32_t vc,
                  net_departure *dep)
{
    iin *in = in_at(v, p);
    net_fifo *q = &in->vc[vc].q;
    /* One log record for the input's record (rr, the FIFO, busy)
     * and one for the output's (queued, credit, busy_until, its rr and
     * lane): eleven warp_saves of a field each cost more than the bytes. */
    save_in(lp, v, in, vc);
    inode *x = (inode *)net_fifo_pop_saved(q);
    if (!q->head && !port_waiting(v, in)) /* unlogged: iq_reverse sets the bit of every departure's port */
        bit_clear(v->heads, p);
    double now = warp_now(lp), free_at;
    int32_t lane = lane_for(n, v, x, now, &free_at);
    assert(lane >= 0 && "router_iq: only a head with a free lane with room downstream is granted");
    warp_save(lp, net_rcore_port_at(&v->c, x->port), v->ostride);
    /* With internal speed-up the packet crosses the switch in ser / N into
     * the output buffer, and its head goes onto the link once the packets
     * ahead of it there have gone. */
    int32_t S = n->params.internal_speedup;
    double wait = 0, *lf = S > 1 ? link_free(v, x->port) : NULL;
    if (lf && *lf > now)
        wait = *lf - now;
    double ser = net_rcore_send(lp, n, &v->c, router, x->port, lane, &x->pkt, 0, wait);
    double xbar = S > 1 ? ser / S : ser;
    if (lf)
        *lf = now + wait + ser;
    net_rcore_credit(lp, n, router, p, vc, x->pkt.size,
                     net_rcore_credit_delay(n, router, p, x->pkt.size, xbar));
    iout *o = out_at(v, x->port);
    o->busy_until = now + xbar;
    *out_rr(v, x->port) = (uint32_t)(p + 1) % (uint32_t)v->radix;
    in->rr = (uint32_t)(vc + 1) % (uint32_t)v->vcs;
    in->vc[vc].busy = now + xbar;
    o->lane_busy[lane] = now + xbar;
    net_rcore_port_at(&v->c, x->port)->queued -= x->pkt.size;
    *dep = (net_departure){.arrived = x->arrived,
                           .left = now + wait + ser,
                           .size = x->pkt.size,
                           .in_port = (uint16_t)p,
                           .vc = (uint8_t)vc,
                           .valid = 1};
    warp_free_on_commit(lp, x);
}

/* Before-switch VC allocation, one round: every free output lane grants
 * the first head in its round-robin order over input VCs that asks for it
 * (a head without a lane whose FIFO may start it, for any free lane of its
 * VC class, room or not, as BookSim's VCs are allocated without credits);
 * each head takes the granted lane with the most credit and holds it until
 * it is sent. Returns the grants declined (another round may match more). */
static int vc_round(warp_lp *lp, const net_model *n, iview *v, iq_scratch *w)
{
    double now = warp_now(lp);
    int32_t V = v->vcs, RV = v->radix * V;
    memset(w->lgranted, 0, bitmap_words((size_t)RV) * sizeof *w->lgranted);
    int granted = 0, taken = 0;
    for (int32_t k = 0; k < w->nh; k++) {
        int32_t iv = w->hl[k];
        const ivc *f = ivc_at(v, iv / V, iv % V);
        const inode *h = (const inode *)f->q.head;
        if (!h || h->lane >= 0 || h->ready > now || f->busy + n->params.alloc_delay > now)
            continue;
        for (int32_t l = h->vc; l < h->vc + h->span; l++) {
            int32_t i = h->port * V + l;
            double busy = *lane_busy(v, h->port, l);
            if (busy == LANE_TAKEN || busy + n->params.lane_hold > now)
                continue;
            int64_t key = (int64_t)(((uint32_t)(iv + RV) - *lane_rr(v, h->port, l)) % (uint32_t)RV);
            if (!bit_test(w->lgranted, i)) {
                bit_set(w->lgranted, i);
                granted++;
            } else if (key >= w->lkey[i]) {
                continue;
            }
            w->lkey[i] = key;
            w->lgrant[i] = iv;
        }
    }
    for (int32_t k = 0; k < w->nh && taken < granted; k++) {
        int32_t iv = w->hl[k];
        inode *h = (inode *)ivc_at(v, iv / V, iv % V)->q.head;
        int32_t best = -1;
        if (!h || h->lane >= 0)
            continue;
        for (int32_t l = h->vc; l < h->vc + h->span; l++) {
            int32_t i = h->port * V + l;
            if (bit_test(w->lgranted, i) && w->lgrant[i] == iv &&
                (best < 0 || credits(v, h->port)[l] > credits(v, h->port)[best]))
                best = l;
        }
        if (best < 0)
            continue;
        warp_save(lp, &h->lane, sizeof h->lane);
        h->lane = best;
        double *held = lane_busy(v, h->port, best);
        uint32_t *rr = lane_rr(v, h->port, best);
        warp_save(lp, held, sizeof *held);
        *held = LANE_TAKEN;
        warp_save(lp, rr, sizeof *rr);
        *rr = (uint32_t)(iv + 1) % (uint32_t)RV;
        taken++;
    }
    return granted - taken;
}

/* One round of requests, grants and accepts; its departures go to
 * dep[*ndep] on. Returns 0 once the matching is maximal, else the packets
 * it started (another round may match more). Only the FIFOs and ports of
 * w->hl and w->pl are visited: the others hold no request. */
static int match_round(warp_lp *lp, const net_model *n, iview *v, uint64_t router, iq_scratch *w,
                       net_departure *dep, int *ndep)
{
    double now = warp_now(lp);
    int32_t R = v->radix, V = v->vcs, S = n->params.speedup;
    size_t RW = bitmap_words((size_t)R);
    memset(w->granted, 0, RW * sizeof *w->granted);
    /* Requests and grants: each free output keeps its first requester in
     * round-robin order (input port, then that input's VC order). */
    for (int32_t k = 0; k < w->nh; k++) {
        int32_t iv = w->hl[k], p = iv / V, vc = iv % V;
        if (w->active[p] >= S)
            continue;
        const iin *in = in_at(v, p);
        const inode *h = (const inode *)in->vc[vc].q.head;
        double free_at;
        if (!h || h->ready > now || in->vc[vc].busy + n->params.alloc_delay > now ||
            out_at(v, h->port)->busy_until > now || lane_for(n, v, h, now, &free_at) < 0)
            continue;
        int64_t key = (int64_t)(((uint32_t)(p + R) - *out_rr(v, h->port)) % (uint32_t)R) * V +
                      (int64_t)(((uint32_t)(vc + V) - in->rr) % (uint32_t)V);
        if (!bit_test(w->granted, h->port) || key < w->key[h->port]) {
            bit_set(w->granted, h->port);
            w->key[h->port] = key;
            w->gp[h->port] = p;
            w->gv[h->port] = vc;
        }
    }
    /* Accepts: an input takes its grants in its VC order, up to speedup;
     * a grant declined frees its output for another round. A grant taken
     * sets its key to INT64_MAX. */
    int started = 0, declined = 0;
    for (int32_t pass = 0; pass < S; pass++) {
        for (int32_t k = 0; k < w->np; k++)
            w->best[w->pl[k]] = -1;
        int any = 0;
        FOR_BITS(o, w->granted, RW)
        {
            if (w->key[o] == INT64_MAX)
                continue;
            int32_t p = w->gp[o];
            int32_t d = (int32_t)(((uint32_t)(w->gv[o] + V) - in_at(v, p)->rr) % (uint32_t)V);
            if (w->best[p] < 0 || d < w->best_d[p]) {
                w->best[p] = (int32_t)o;
                w->best_d[p] = d;
            }
            any = 1;
        }
        if (!any)
            break;
        for (int32_t k = 0; k < w->np; k++) {
            int32_t p = w->pl[k], o = w->best[p];
            if (o < 0 || w->active[p] >= S || *ndep >= IQ_DEPS)
                continue;
            w->key[o] = INT64_MAX;
            start(lp, n, v, router, p, w->gv[o], &dep[(*ndep)++]);
            w->active[p]++;
            started++;
        }
    }
    FOR_BITS(o, w->granted, RW)
    {
        declined += w->key[o] != INT64_MAX;
    }
    /* Without a declined grant every request either won or lost to an
     * output now busy: the matching is maximal. */
    return declined ? started : 0;
}

/* The earliest time a waiting head may be granted without a credit first
 * (-1: none); after a maximal matching every such time lies after now. */
static double next_chance(const net_model *n, const iview *v, const iq_scratch *w, double now)
{
    int32_t V = v->vcs, S = n->params.speedup, last_p = -1;
    double best = -1, in_free = now; /* an input sending speedup packets frees with the first tail */
    for (int32_t k = 0; k < w->nh; k++) {
        int32_t iv = w->hl[k], p = iv / V;
        const iin *in = in_at(v, p);
        const inode *h = (const inode *)in->vc[iv % V].q.head;
        double lane_free;
        if (!h) /* without a lane with room, a credit will ask again */
            continue;
        if (p != last_p) {
            last_p = p;
            in_free = now;
            if (w->active[p] >= S) {
                in_free = -1;
                for (int32_t vc = 0; vc < V; vc++) {
                    double b = in->vc[vc].busy;
                    if (b > now && (in_free < 0 || b < in_free))
                        in_free = b;
                }
            }
        }
        int vc_alloc = n->params.vc_first && h->lane < 0; /* next: VC allocation */
        if (vc_alloc)
            lane_with(n, v, h, 0, now, &lane_free);
        else
            lane_for(n, v, h, now, &lane_free);
        if (lane_free < 0)
            continue;
        double t = h->ready > lane_free ? h->ready : lane_free;
        if (in->vc[iv % V].busy + n->params.alloc_delay > t)
            t = in->vc[iv % V].busy + n->params.alloc_delay;
        /* A head still to get its lane needs neither output nor input
         * yet: the switch comes after, in the same allocation. */
        if (!vc_alloc && out_at(v, h->port)->busy_until > t)
            t = out_at(v, h->port)->busy_until;
        if (!vc_alloc && in_free > t)
            t = in_free;
        if (t <= now && n->params.alloc_iters) /* left unmatched by the rounds: the next cycle's */
            t = now + alloc_cycle(n);
        if (t > now && (best < 0 || t < best))
            best = t;
    }
    return best;
}

/* The work area's 8-byte words for radix R and vcs V (the layout of scratch()). */
static size_t scratch_words(size_t R, size_t V)
{
    return R + R * V + bitmap_words(R) + bitmap_words(R * V) + (6 * R + 2 * R * V + 1) / 2;
}

/* The work area's arrays in `area` (scratch_words of them). */
static iq_scratch scratch(const net_model *n, int64_t *area)
{
    size_t R = (size_t)n->max_radix, RV = R * (size_t)n->vcs;
    iq_scratch w;
    w.key = area;
    w.lkey = w.key + R;
    w.granted = (uint64_t *)(w.lkey + RV);
    w.lgranted = w.granted + bitmap_words(R);
    w.gp = (int32_t *)(w.lgranted + bitmap_words(RV));
    w.gv = w.gp + R;
    w.active = w.gv + R;
    w.best = w.active + R;
    w.best_d = w.best + R;
    w.pl = w.best_d + R;
    w.lgrant = w.pl + R;
    w.hl = w.lgrant + RV;
    w.nh = w.np = 0;
    return w;
}

/* Lists the FIFOs holding a packet and their ports in w, and counts each
 * such port's VCs still sending (w->active). */
static void list_heads(const iview *v, iq_scratch *w, double now)
{
    int32_t V = v->vcs;
    FOR_BITS(b, v->heads, bitmap_words((size_t)v->radix))
    {
        int32_t p = (int32_t)b;
        w->pl[w->np++] = p;
        w->active[p] = 0;
        const iin *in = in_at(v, p);
        for (int32_t vc = 0; vc < V; vc++) {
            if (in->vc[vc].q.head)
                w->hl[w->nh++] = p * V + vc;
            w->active[p] += in->vc[vc].busy > now;
        }
    }
}

/* NET_EV_ALLOC: matches heads to outputs until no more fit, then asks for
 * the next allocation a link, input or slow-in packet makes possible. */
static void allocate(warp_lp *lp, const net_model *n, iview *v, net_event *e, warp_bits *bits)
{
    double now = warp_now(lp);
    uint64_t router = warp_lp_id(lp) - n->nodes;
    if (e->port == IQ_WAKE) { /* the allocation comes after this instant's changes */
        net_event *a = warp_event_new(lp, warp_lp_id(lp), 0);
        a->kind = NET_EV_ALLOC;
        a->port = IQ_PASS;
        warp_event_send(lp, a);
        memset(&e->u, 0, sizeof e->u);
        return;
    }
    if (n->params.per_cycle && e->port == IQ_PASS) {
        if (v->s->last_pass == now) { /* a stale wake-up's: this cycle's has run */
            memset(&e->u, 0, sizeof e->u);
            return;
        }
        warp_save(lp, &v->s->last_pass, sizeof v->s->last_pass);
        v->s->last_pass = now;
    }
    if (v->s->alloc_at == now) { /* unlogged: iq_reverse puts now back */
        v->s->alloc_at = -1;
        bits->b |= IQ_BIT_ALLOC_AT;
    }
    int save = !(bits->b & IQ_BIT_ALLOC_AT);
    int64_t area[scratch_words((size_t)n->max_radix, (size_t)n->vcs)];
    iq_scratch w = scratch(n, area);
    list_heads(v, &w, now);
    net_departure *dep = (net_departure *)e->u.user;
    memset(&e->u, 0, sizeof e->u); /* all of it: the digest hashes the payload */
    int ndep = 0, rounds = 0;
    if (n->params.vc_first)
        while (vc_round(lp, n, v, &w) > 0 && ++rounds != n->params.alloc_iters)
            ;
    rounds = 0;
    while (match_round(lp, n, v, router, &w, dep, &ndep) > 0 && ndep < IQ_DEPS &&
           ++rounds != n->params.alloc_iters)
        ;
    if (ndep == IQ_DEPS) { /* the payload is full: match the rest in a second round now */
        /* on-change: as any */
        send_alloc(lp, v->s, now, n->params.per_cycle ? IQ_MORE : IQ_PASS, save);
        return;
    }
    double t = next_chance(n, v, &w, now);
    if (t > now)
        request_alloc(lp, n, v->s, t, save);
}

static void arrive(warp_lp *lp, const net_model *n, iview *v, const net_packet *p, warp_bits *bits)
{
    uint64_t router = warp_lp_id(lp) - n->nodes;
    net_rcore_route r = net_rcore_route_packet(lp, n, &v->c, router, p);
    __builtin_prefetch(net_rcore_port_at(&v->c, r.port)); /* its queued bytes, after the input's work */
    net_peer down = net_rcore_link(n, router, r.port);
    inode *x = warp_alloc(lp, sizeof *x);
    x->pkt = *p;
    x->pkt.aux[0] = r.aux[0];
    x->pkt.aux[1] = r.aux[1];
    if (down.kind == NET_PEER_ROUTER)
        x->pkt.hops++;
    x->port = r.port;
    x->vc = r.vc;
    x->span = r.span;
    if (down.kind != NET_PEER_ROUTER) { /* at its last router a packet may take any VC out */
        x->vc = 0;
        x->span = v->vcs;
    }
    x->lane = -1;
    double now = warp_now(lp);
    x->ready = net_rcore_ready(n, router, p, &down, now);
    x->arrived = now;
    iin *in = in_at(v, p->in_port);
    uint64_t *queued = &net_rcore_port_at(&v->c, r.port)->queued;
    *queued += p->size; /* unlogged: iq_reverse takes it back (the port is in bits) */
    net_fifo *q = &in->vc[p->vc].q;
    int head = q->head == NULL;
    x->prev = q->tail;
    net_fifo_push_unlogged(q, &x->node);
    if (head) /* unlogged: iq_reverse recomputes it from the port's FIFOs */
        bit_set(v->heads, p->in_port);
    bits->b = net_rcore_bits(r.port, *queued);
    net_rcore_account(lp, n, &v->c, router, &in->st, p, bits->b);
    net_rcore_status(lp, n, &v->c, router, r.port);
    if (head) /* behind another packet it waits for that one's allocation */
        request_alloc_now(lp, n, v);
}

/* Output records an arrival's hint loads at most: a Slim Fly's minimal
 * routes mostly have one or two first hops to choose from; past four the
 * hint loads the first four. */
#define IQ_HINT_PORTS 4

/* The hint (warp_lp_type.prefetch): the records an arrival or a credit
 * touches first, which its payload names: an arrival's input record, its
 * VC FIFO and the heads word of that FIFO; a credit's output record and
 * credit word. An arrival's output record is the route's: where the
 * topology can name the ports its route may take from the destination
 * alone (route_ports), their records load too; the wait for it was 27 %
 * of iq_forward on the million-node Slim Fly (bench/RESULTS.md). */
static void iq_prefetch(const warp_lp *lp, const void *state, const void *msg)
{
    const net_model *n = warp_model_arg(lp);
    const iq_layout *l = n->router_layout;
    const net_event *e = msg;
    const char *b = state;
    if (e->kind == NET_EV_PKT) {
        const net_packet *p = &e->u.pkt;
        const char *in = b + l->in + (size_t)p->in_port * l->istride;
        size_t bit = (size_t)p->in_port;
        prefetch_record(in, l->istride, offsetof(iin, vc) + (size_t)p->vc * sizeof(ivc));
        __builtin_prefetch(b + l->heads + bit / 64 * sizeof(uint64_t));
        int32_t ports[IQ_HINT_PORTS];
        int32_t k = n->topo_ops->route_ports
                        ? n->topo_ops->route_ports(n->topo, warp_lp_id(lp) - n->nodes, p->dst, ports, IQ_HINT_PORTS)
                        : 0;
        for (int32_t i = 0; i < k; i++)
            __builtin_prefetch(b + l->out + (size_t)ports[i] * l->ostride);
        /* Ejection sends to a terminal: its place is a random table entry. */
        if (k && n->topo_ops->attach(n->topo, p->dst).router == warp_lp_id(lp) - n->nodes)
            warp_prefetch_dest(lp, net_term_lp(n, p->dst));
    } else if (e->kind == NET_EV_CREDIT) {
        const char *out = b + l->out + (size_t)e->u.credit.port * l->ostride;
        prefetch_record(out, l->ostride, offsetof(net_rcore_port, credits) + (size_t)e->u.credit.vc * sizeof(int32_t));
    }
}

static void iq_init(warp_lp *lp, void *state)
{
    const net_model *n = warp_model_arg(lp);
    memset(state, 0, iq_state_size(n));
    iview v = view(n, state);
    v.s->alloc_at = -1;
    v.s->last_pass = -1;
    uint64_t router = warp_lp_id(lp) - n->nodes;
    net_rcore_init(n, router, &v.c);
    for (int32_t p = 0; p < n->max_radix; p++)
        if (net_downstream_buffer(n, router, p) == 0)
            for (int32_t vc = 0; vc < n->vcs; vc++)
                credits(&v, p)[vc] = NO_CREDIT_LIMIT;
}

static void iq_forward(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    const net_model *n = warp_model_arg(lp);
    net_event *e = msg;
    iview v = view(n, state);
    switch (e->kind) {
    case NET_EV_PKT:
        arrive(lp, n, &v, &e->u.pkt, bits);
        break;
    case NET_EV_CREDIT:
    case NET_EV_STATUS:
    {
        int32_t port = net_rcore_event(lp, n, &v.c, e, 0); /* a credit: iq_reverse */
        if (port >= 0 && net_rcore_port_at(&v.c, port)->queued > 0) /* a packet waits for it */
            request_alloc_now(lp, n, &v);
        break;
    }
    case NET_EV_ALLOC:
        allocate(lp, n, &v, e, bits);
        break;
    default:
        assert(!"router_iq: event kind is one an input-queued router handles");
    }
}

/* Reverse computation for the writes the most common events need not log:
 * an arrival's bytes queued for its output port (the port is in bits),
 * the low words of its port statistics and its push onto its FIFO (whose
 * tail it is now: an arrival only pushes; it keeps the tail before), a
 * credit, and the heads bits, which mark exactly the input ports with a
 * packet: an arrival's is recomputed from its port's FIFOs once the push is
 * undone, and every port an allocation started a packet from (its
 * departures in the payload) held that packet before; an
 * allocation that reset alloc_at found it at now (IQ_BIT_ALLOC_AT). Every
 * other write is logged with warp_save; the engine replays that log after
 * this runs. */
static void iq_reverse(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    const net_model *n = warp_model_arg(lp);
    const net_event *e = msg;
    iview v = view(n, state);
    if (e->kind == NET_EV_PKT) {
        const net_packet *p = &e->u.pkt;
        net_rcore_port_at(&v.c, (int32_t)net_rcore_bits_port(bits->b))->queued -= p->size;
        iin *in = in_at(&v, p->in_port);
        net_fifo *q = &in->vc[p->vc].q;
        net_node *prev = ((const inode *)q->tail)->prev; /* an arrival only pushes */
        net_fifo_unpush(q, prev);
        if (!prev && !port_waiting(&v, in))
            bit_clear(v.heads, p->in_port);
        net_rcore_unaccount(n, &v.c, warp_lp_id(lp) - n->nodes, &in->st, p, bits->b);
    } else if (e->kind == NET_EV_CREDIT) {
        net_rcore_credit_reverse(&v.c, e);
    } else if (e->kind == NET_EV_ALLOC) {
        if (bits->b & IQ_BIT_ALLOC_AT)
            v.s->alloc_at = warp_now(lp);
        const net_departure *dep = (const net_departure *)e->u.user;
        for (int i = 0; i < IQ_DEPS && dep[i].valid; i++)
            bit_set(v.heads, dep[i].in_port);
    }
}

static void iq_commit(warp_lp *lp, void *out, const void *msg, const warp_bits *bits)
{
    const net_event *e = msg;
    int ndep = 0;
    const net_departure *dep = (const net_departure *)e->u.user;
    if (e->kind == NET_EV_ALLOC)
        while (ndep < IQ_DEPS && dep[ndep].valid)
            ndep++;
    (void)bits;
    net_rcore_commit(lp, out, e, dep, ndep);
}

static void iq_finish(warp_lp *lp, void *state, void *out)
{
    const net_model *n = warp_model_arg(lp);
    iview v = view(n, state);
    uint64_t queued = 0, recv = 0;
    for (int32_t p = 0; p < n->max_radix; p++)
        assert(bit_test(v.heads, p) == port_waiting(&v, in_at(&v, p)) &&
               "router_iq: the heads bitmap marks exactly the input ports holding a packet");
    for (int32_t i = 0; i < n->max_radix * n->vcs; i++) {
        const net_fifo *q = &ivc_at(&v, i / n->vcs, i % n->vcs)->q;
        for (net_node *x = q->head; x; x = x->next) {
            queued++;
            const inode *k = (const inode *)x;
            if (n->sampling.interval > 0)
                net_sample_dwell(&n->sampling, out, (uint32_t)i, k->arrived, n->end, k->pkt.size);
        }
    }
    for (int32_t p = 0; p < n->max_radix; p++)
        recv += net_rcore_finish_port(lp, &v.c, p, &in_at(&v, p)->st);
    assert(queued <= recv && "router_iq: its FIFOs hold only packets that came in");
    n->res->flight.router_queued += queued;
    net_rcore_finish(lp, out, recv - queued, recv);
}

void net_router_iq_type(net_model *n, warp_lp_type *t)
{
    size_t R = (size_t)n->max_radix;
    iq_layout *l = warp_xcalloc(1, sizeof *l);
    *l = layout_of(n);
    free(n->router_layout);
    n->router_layout = l;
    memset(t, 0, sizeof *t);
    t->name = "router";
    t->state_size = iq_state_size(n);
    t->out_size = net_rcore_out_bytes(n);
    t->save = WARP_SAVE_NONE;
    t->init = iq_init;
    t->forward = iq_forward;
    t->reverse = iq_reverse;
    t->commit = n->sampling.interval > 0 ? iq_commit : NULL; /* commit counts --sample alone */
    t->finish = iq_finish;
    t->prefetch = iq_prefetch;
    /* Every event reads the header and the heads bitmap (56 bytes at radix
     * 264: one line); the port records after them are the hint's (the
     * engine's default 256 bytes loaded input records no event needed). */
    t->state_head = sizeof(iq_state) + bitmap_words(R) * sizeof(uint64_t);
    t->state_align = 64; /* the records start on cache lines */
    t->event_name = net_event_name;
}
