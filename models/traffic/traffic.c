/* traffic/traffic.c — the synthetic traffic workload: one LP per rank
 * generating messages with Poisson, fixed or slotted Bernoulli inter-arrival
 * times towards
 * pattern destinations. State is a few counters saved by full copy, so
 * rollback needs no reverse handler; the RNG is rewound by the engine. No
 * commit handler: the net layer's terminals report what was sent and
 * received (a committed copy of these counters, read by nothing, cost a
 * cache miss per commit).
 * Called through traffic_workload by the network layer. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "traffic/traffic.h"

enum pattern {
    P_UNIFORM, P_NEIGHBOR, P_PERM, P_BITCOMP, P_TRANSPOSE, P_ALLTOALL, P_INCAST, P_PAIR, P_PINGPONG,
    P_WORST, P_BITREV, P_SHUFFLE, P_TORNADO, P_GROUP_SHIFT,
    P_BITCOMP_NAME, P_RANDPERM_NAME, /* BookSim's names of bitcomplement and permutation */
    P_HOTSPOT
};
static const char *const pattern_names[] = {"uniform",   "neighbor",    "permutation", "bitcomplement",
                                            "transpose", "alltoall",    "incast",      "pair",
                                            "pingpong",  "worst",       "bitrev",      "shuffle",
                                            "tornado",   "group-shift", "bitcomp",     "randperm",
                                            "hotspot",   NULL};
enum arrivals { A_POISSON, A_FIXED, A_BERNOULLI };
static const char *const arrival_names[] = {"poisson", "fixed", "bernoulli", NULL};

/* EV_REPLY: a ping-pong message goes out once the receiver's CPU has taken
 * the previous one (cpu_ns of the arrival, 0 except on loggp). */
enum { EV_GEN = NET_EV_WORKLOAD, EV_REPLY };
enum { TAG_PING = 1, TAG_PONG = 2 };

typedef struct traffic {
    int pattern, arrivals;
    uint64_t size, count, ranks, src, dst, distance;
    double interval, start;
    double slot, log_q; /* bernoulli: the slot, ln(1 - p) (p = slot / interval) */
    int bits;             /* log2(ranks) for bitcomplement / transpose / bitrev / shuffle */
    uint64_t *dst_of;     /* permutation and worst: each rank's destination; group-shift:
                           * the first terminal of the group after its own */
    uint64_t *rank_at;    /* group-shift: the rank on each terminal */
    uint64_t group;       /* group-shift: terminals per group */
    uint64_t *spot, *spot_weight; /* hotspot: the spots' ranks and weights */
    uint64_t spots, spot_total;   /* hotspot: how many, the weights' sum */
    warp_lp_type type;
} traffic;

typedef struct traffic_state {
    uint64_t generated;
    uint64_t received, received_bytes;
    uint64_t sent_done;
} traffic_state;

static int log2_exact(uint64_t n)
{
    int b = 0;
    while ((UINT64_C(1) << b) < n)
        b++;
    return (UINT64_C(1) << b) == n ? b : -1;
}

/* Whether rank r generates traffic at all. */
static int active(const traffic *t, uint64_t r)
{
    if (t->ranks < 2)
        return 0;
    if (t->pattern == P_PAIR || t->pattern == P_PINGPONG)
        return r == t->src;
    if (t->pattern == P_INCAST)
        return r != t->dst;
    if (t->pattern == P_HOTSPOT && t->spots == 1)
        return r != t->spot[0];
    return 1;
}

/* hotspot: a spot drawn by weight, never r itself (a spot sends to the
 * others, in proportion to their weights). */
static uint64_t hotspot(const traffic *t, warp_lp *lp, uint64_t r)
{
    uint64_t own = 0;
    for (uint64_t k = 0; k < t->spots; k++)
        if (t->spot[k] == r)
            own = t->spot_weight[k];
    uint64_t x = (uint64_t)warp_rng_integer(warp_lp_rng(lp), 0, (int64_t)(t->spot_total - own) - 1);
    for (uint64_t k = 0;; k++) {
        if (t->spot[k] == r)
            continue;
        if (x < t->spot_weight[k] || k + 1 == t->spots)
            return t->spot[k];
        x -= t->spot_weight[k];
    }
}

static uint64_t destination(const traffic *t, warp_lp *lp, uint64_t r, uint64_t i)
{
    uint64_t n = t->ranks;
    switch (t->pattern) {
    case P_UNIFORM: {
        uint64_t d = (uint64_t)warp_rng_integer(warp_lp_rng(lp), 0, (int64_t)n - 2);
        return d >= r ? d + 1 : d;
    }
    case P_NEIGHBOR:
        return (r + t->distance) % n;
    case P_PERM:
    case P_WORST:
        return t->dst_of[r];
    case P_BITCOMP:
        return ~r & (n - 1);
    case P_BITREV: {
        uint64_t d = 0;
        for (int b = 0; b < t->bits; b++)
            d |= (r >> b & 1) << (t->bits - 1 - b);
        return d;
    }
    case P_SHUFFLE: /* the bits rotated left by one */
        return ((r << 1) & (n - 1)) | (r >> (t->bits - 1));
    case P_TORNADO: /* BookSim's on one dimension of n: ceil(n / 2) - 1 ahead */
        return (r + (n + 1) / 2 - 1) % n;
    case P_GROUP_SHIFT: /* BookSim's bad_dragon: any terminal of the next group */
        return t->rank_at[t->dst_of[r] + (uint64_t)warp_rng_integer(warp_lp_rng(lp), 0, (int64_t)t->group - 1)];
    case P_TRANSPOSE: {
        int h = t->bits / 2;
        uint64_t lo = r & ((UINT64_C(1) << h) - 1), hi = r >> h;
        return (lo << h) | hi;
    }
    case P_ALLTOALL:
        return (r + 1 + i % (n - 1)) % n;
    case P_HOTSPOT:
        return hotspot(t, lp, r);
    default: /* P_INCAST, P_PAIR */
        return t->dst;
    }
}

/* Bernoulli: the number of slots to the next arrival, >= 1, geometric with
 * success probability p by inverse transform, so that it costs one draw like
 * the exponential gap and rolls back the same way. */
static double slots(const traffic *t, warp_lp *lp)
{
    double u = warp_rng_unif(warp_lp_rng(lp));
    return t->log_q < 0 ? 1 + floor(log(u) / t->log_q) : 1;
}

static double gap(const traffic *t, warp_lp *lp)
{
    if (t->arrivals == A_FIXED)
        return t->interval;
    if (t->arrivals == A_POISSON)
        return warp_rng_exp(warp_lp_rng(lp), t->interval);
    double now = warp_now(lp);
    return (net_grid_index(now, t->slot) + slots(t, lp)) * t->slot - now;
}

/* The first arrival: at start (fixed, pingpong), a gap after it (poisson),
 * or at the first slot boundary from start on which the Bernoulli trial
 * succeeds (bernoulli). */
static double first(const traffic *t, warp_lp *lp)
{
    if (t->arrivals == A_FIXED || t->pattern == P_PINGPONG)
        return t->start;
    if (t->arrivals == A_POISSON)
        return t->start + gap(t, lp);
    return (net_grid_index(t->start, t->slot) + slots(t, lp) - 1) * t->slot;
}

static void schedule(const traffic *t, warp_lp *lp, double delay)
{
    if (warp_now(lp) + delay >= warp_end(lp))
        return;
    net_event *e = net_workload_event(lp, net_rank_of(lp), delay, EV_GEN);
    warp_event_send(lp, e);
}

static void tr_init(warp_lp *lp, void *state)
{
    const traffic *t = net_workload_of(lp);
    memset(state, 0, sizeof(traffic_state));
    if (active(t, net_rank_of(lp)))
        schedule(t, lp, first(t, lp));
}

static void tr_forward(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    const traffic *t = net_workload_of(lp);
    traffic_state *s = state;
    net_event *e = msg;
    switch (e->kind) {
    case EV_GEN: {
        uint64_t r = net_rank_of(lp);
        uint64_t d = destination(t, lp, r, s->generated);
        s->generated++;
        if (t->pattern == P_PINGPONG) {
            net_send(lp, d, t->size, TAG_PING, NULL, 0);
            break;
        }
        net_send(lp, d, t->size, 0, NULL, 0);
        if (!t->count || s->generated < t->count)
            schedule(t, lp, gap(t, lp));
        break;
    }
    case NET_EV_ARRIVE:
        s->received++;
        s->received_bytes += e->u.msg.bytes;
        if (t->pattern != P_PINGPONG)
            break;
        if (e->u.msg.tag == TAG_PING) {
            net_event *r = net_workload_event(lp, net_rank_of(lp), e->u.msg.cpu_ns, EV_REPLY);
            warp_event_send(lp, r);
        } else if (!t->count || s->received < t->count) {
            net_event *g = net_workload_event(lp, net_rank_of(lp), e->u.msg.cpu_ns, EV_GEN);
            warp_event_send(lp, g);
        }
        break;
    case EV_REPLY:
        net_send(lp, t->src, t->size, TAG_PONG, NULL, 0);
        break;
    case NET_EV_SENT:
        s->sent_done++;
        break;
    default:
        break;
    }
}

/* A generation or a reply sends a message: its terminal's place. */
static void tr_prefetch(const warp_lp *lp, const void *state, const void *msg)
{
    uint32_t kind = ((const net_event *)msg)->kind;
    if (kind == EV_GEN || kind == EV_REPLY)
        net_send_prefetch(lp);
}

static uint64_t *rank_table(uint64_t n)
{
    uint64_t *a = warp_xcalloc(n, sizeof *a);
    return a;
}

/* Sattolo's shuffle: one cycle through all ranks, so nobody sends to itself. */
static void permute(traffic *t, warp_ini *ini)
{
    t->dst_of = rank_table(t->ranks);
    for (uint64_t i = 0; i < t->ranks; i++)
        t->dst_of[i] = i;
    uint64_t seed = (uint64_t)warp_ini_int(ini, "workload", "permutation_seed", 1, 0, INT64_MAX);
    warp_rng rng = warp_rng_stream(seed, UINT64_MAX - 1);
    for (uint64_t i = t->ranks - 1; i > 0; i--) {
        uint64_t j = (uint64_t)warp_rng_integer(&rng, 0, (int64_t)i - 1);
        uint64_t x = t->dst_of[i];
        t->dst_of[i] = t->dst_of[j];
        t->dst_of[j] = x;
    }
}

/* The rank on each terminal, UINT64_MAX where none is placed (a new array). */
static uint64_t *terminal_ranks(const traffic *t, const net_model *net)
{
    uint64_t nodes = net_nodes(net);
    uint64_t *rank_at = rank_table(nodes);
    for (uint64_t term = 0; term < nodes; term++)
        rank_at[term] = UINT64_MAX;
    for (uint64_t r = 0; r < t->ranks; r++)
        rank_at[net_rank_terminal(net, r)] = r;
    return rank_at;
}

/* The topology's worst case, terminal to terminal, read through the
 * placement: the rank on the terminal's partner. */
static void worst_case(traffic *t, warp_ini *ini, const net_model *net)
{
    const void *topo;
    const net_topology_ops *ops = net_topology(net, &topo);
    if (!ops || !ops->worst_case_dst)
        warp_ini_fail(ini, "workload", "pattern",
                      "worst needs a topology that defines its worst case (slimfly, dragonfly); topology "
                      "%s has none: choose another pattern (e.g. permutation or bitcomplement)",
                      ops ? ops->name : warp_ini_string(ini, "network", "topology", "?"));
    uint64_t nodes = net_nodes(net);
    uint64_t *rank_at = terminal_ranks(t, net);
    t->dst_of = rank_table(t->ranks);
    for (uint64_t r = 0; r < t->ranks; r++) {
        uint64_t term = net_rank_terminal(net, r), d = ops->worst_case_dst(topo, term);
        if (rank_at[d] == UINT64_MAX) {
            free(rank_at);
            warp_ini_fail(ini, "workload", "pattern",
                          "rank %llu (terminal %llu) sends to terminal %llu, which holds "
                          "no rank; give every node a rank ([network] ranks = %llu)",
                          (unsigned long long)r, (unsigned long long)term,
                          (unsigned long long)d, (unsigned long long)nodes);
        }
        t->dst_of[r] = rank_at[d];
    }
    free(rank_at);
}

/* group-shift: each rank's next group (its first terminal) and the rank on
 * every terminal, which must hold one. */
static void group_shift(traffic *t, warp_ini *ini, const net_model *net)
{
    const void *topo;
    const net_topology_ops *ops = net_topology(net, &topo);
    if (!ops || !ops->group_terminals)
        warp_ini_fail(ini, "workload", "pattern",
                      "group-shift needs a topology of groups (dragonfly, dragonflyplus); topology %s has "
                      "none: choose another pattern (e.g. worst or permutation)",
                      ops ? ops->name : warp_ini_string(ini, "network", "topology", "?"));
    uint64_t nodes = net_nodes(net), g = ops->group_terminals(topo);
    t->group = g;
    t->rank_at = terminal_ranks(t, net);
    for (uint64_t term = 0; term < nodes; term++)
        if (t->rank_at[term] == UINT64_MAX)
            warp_ini_fail(ini, "workload", "pattern",
                          "group-shift sends to every terminal of the next group, and terminal %llu holds "
                          "no rank; give every node a rank ([network] ranks = %llu)",
                          (unsigned long long)term, (unsigned long long)nodes);
    t->dst_of = rank_table(t->ranks);
    for (uint64_t r = 0; r < t->ranks; r++)
        t->dst_of[r] = (net_rank_terminal(net, r) / g + 1) % (nodes / g) * g;
}

/* The number of values of a [workload] list key (0 when absent). */
static uint64_t list_length(warp_ini *ini, const char *key)
{
    const char *v = warp_ini_get(ini, "workload", key);
    uint64_t n = v ? 1 : 0;
    for (; v && *v; v++)
        n += *v == ',';
    return n;
}

/* A [workload] list of whole numbers from lo to hi ("0,17,33") into a new
 * array; returns the count (0 when the key is absent). */
static uint64_t read_numbers(warp_ini *ini, const char *key, uint64_t lo, uint64_t hi, uint64_t **out)
{
    const char *v = warp_ini_get(ini, "workload", key);
    *out = NULL;
    if (!v)
        return 0;
    uint64_t n = list_length(ini, key);
    uint64_t *a = warp_xcalloc(n, sizeof *a);
    const char *p = v;
    for (uint64_t k = 0; k < n; k++) {
        char *end;
        while (*p == ' ')
            p++;
        unsigned long long x = strtoull(p, &end, 10);
        while (*end == ' ')
            end++;
        if (end == p || *p == '-' || (*end && *end != ',') || x < lo || x > hi) {
            free(a);
            warp_ini_fail(ini, "workload", key, "value %llu is not a whole number from %llu to %llu "
                          "(write a list such as 0,17,33)", (unsigned long long)k + 1,
                          (unsigned long long)lo, (unsigned long long)hi);
        }
        a[k] = x;
        p = end + 1;
    }
    *out = a;
    return n;
}

/* hotspots = RANKS and hotspot_weights = WEIGHTS (BookSim's hotspot({..},
 * {..}): a weight list shorter than the spots' repeats its last value; no
 * weights, 1 each). */
static void hotspots(traffic *t, warp_ini *ini)
{
    uint64_t *w;
    int used = t->pattern == P_HOTSPOT;
    t->spots = read_numbers(ini, "hotspots", 0, t->ranks - 1, &t->spot);
    uint64_t nw = read_numbers(ini, "hotspot_weights", 1, UINT32_MAX, &w);
    if (!used && (t->spots || nw)) {
        free(w);
        warp_ini_fail(ini, "workload", t->spots ? "hotspots" : "hotspot_weights",
                      "applies to pattern = hotspot only (pattern is %s)", pattern_names[t->pattern]);
    }
    if (!used)
        return;
    if (!t->spots) {
        free(w);
        warp_ini_fail(ini, "workload", "pattern", "hotspot needs [workload] hotspots, the ranks that receive "
                      "(e.g. hotspots = 0,17,33)");
    }
    if (nw > t->spots) {
        free(w);
        warp_ini_fail(ini, "workload", "hotspot_weights", "%llu weights for %llu hotspots: give at most one "
                      "a spot", (unsigned long long)nw, (unsigned long long)t->spots);
    }
    t->spot_weight = rank_table(t->spots);
    for (uint64_t k = 0; k < t->spots; k++) {
        for (uint64_t j = 0; j < k; j++)
            if (t->spot[j] == t->spot[k]) {
                free(w);
                warp_ini_fail(ini, "workload", "hotspots", "rank %llu is listed twice: give a weight "
                              "instead (hotspot_weights)", (unsigned long long)t->spot[k]);
            }
        t->spot_weight[k] = nw ? w[k < nw ? k : nw - 1] : 1;
        t->spot_total += t->spot_weight[k];
    }
    free(w);
}

/* [workload] pattern, BookSim's names read as Warpnet's. */
static int read_pattern(warp_ini *ini)
{
    int p = warp_ini_choice(ini, "workload", "pattern", pattern_names, P_UNIFORM);
    return p == P_BITCOMP_NAME ? P_BITCOMP : p == P_RANDPERM_NAME ? P_PERM : p;
}

/* Every message has the same size: its last packet is the smallest. */
static uint64_t tr_min_packet(const void *wl, uint64_t packet_size)
{
    const traffic *t = wl;
    return t->size % packet_size ? t->size % packet_size : packet_size;
}

/* The mean time between a rank's messages of `size` bytes: [workload]
 * interval, or the time `load` of the NIC's bandwidth takes to send one. */
static double mean_interval(warp_ini *ini, const net_model *net, uint64_t size)
{
    int has_load = warp_ini_string(ini, "workload", "load", NULL) != NULL;
    int has_interval = warp_ini_string(ini, "workload", "interval", NULL) != NULL;
    if (has_load && has_interval)
        warp_ini_fail(ini, "workload", "interval", "give load or interval, not both");
    if (has_interval) {
        double interval = warp_ini_time_ns(ini, "workload", "interval", 0);
        if (!(interval > 0))
            warp_ini_fail(ini, "workload", "interval", "must be positive");
        return interval;
    }
    double load = warp_ini_double(ini, "workload", "load", 0.1, 1e-9, 1.0);
    return (double)size / (load * net_injection_bandwidth(net));
}

/* Sizing (net/memory.c): every rank offers its load, with its next
 * message's timer and the message waiting for the NIC pending; one pair
 * offers it alone; the patterns with a table hold it on every rank. */
static void tr_mem_hint(warp_ini *ini, const net_model *net, net_workload_mem *m)
{
    int pattern = read_pattern(ini);
    uint64_t size = warp_ini_bytes(ini, "workload", "message_size", 1024);
    if (size == 0)
        warp_ini_fail(ini, "workload", "message_size", "must be at least 1B");
    double load = (double)size / (mean_interval(ini, net, size) * net_injection_bandwidth(net));
    uint64_t ranks = net_ranks(net);
    if (pattern == P_PAIR || pattern == P_PINGPONG)
        load /= (double)(ranks ? ranks : 1);
    m->load = load > 1 ? 1 : load;
    m->message_bytes = (double)size;
    m->pending = 2;
    m->heap_bytes = pattern == P_PERM || pattern == P_WORST ? 8.0 * (double)ranks
                    : pattern == P_GROUP_SHIFT       ? 8.0 * (double)(ranks + net_nodes(net))
                    : pattern == P_HOTSPOT           ? 16.0 * (double)list_length(ini, "hotspots")
                                                     : 0;
}

static void *tr_setup(warp_ini *ini, const net_model *net)
{
    traffic *t = warp_xcalloc(1, sizeof *t);
    t->ranks = net_ranks(net);
    t->pattern = read_pattern(ini);
    t->arrivals = warp_ini_choice(ini, "workload", "arrivals", arrival_names, A_POISSON);
    t->size = warp_ini_bytes(ini, "workload", "message_size", 1024);
    if (t->size == 0)
        warp_ini_fail(ini, "workload", "message_size", "must be at least 1B");
    t->count = (uint64_t)warp_ini_int(ini, "workload", "count", 0, 0, INT64_MAX);
    t->start = warp_ini_time_ns(ini, "workload", "start", 0);
    t->distance = (uint64_t)warp_ini_int(ini, "workload", "distance", 1, 1, INT64_MAX);
    t->src = (uint64_t)warp_ini_int(ini, "workload", "src", 0, 0, (int64_t)t->ranks - 1);
    t->dst = (uint64_t)warp_ini_int(ini, "workload", "dst", t->pattern == P_PAIR || t->pattern == P_PINGPONG, 0,
                                    (int64_t)t->ranks - 1);
    if ((t->pattern == P_PAIR || t->pattern == P_PINGPONG) && t->src == t->dst)
        warp_ini_fail(ini, "workload", "dst", "pair and pingpong traffic need dst != src");
    t->interval = mean_interval(ini, net, t->size);
    /* A preset's slot (booksim) goes with its arrivals; arrivals the user
     * chose instead leave it unused, not wrong. */
    if (warp_ini_string(ini, "workload", "arrival_slot", NULL) && t->arrivals != A_BERNOULLI &&
        !warp_ini_from_preset(ini, "workload", "arrival_slot"))
        warp_ini_fail(ini, "workload", "arrival_slot", "applies to arrivals = bernoulli only (arrivals is %s)",
                      arrival_names[t->arrivals]);
    if (t->arrivals == A_BERNOULLI) {
        /* Default slot: one message's time on the injection link, so that
         * p = load (a slotted source offering load of its link). */
        double msg_time = (double)t->size / net_injection_bandwidth(net);
        t->slot = warp_ini_time_ns(ini, "workload", "arrival_slot", msg_time);
        if (!(t->slot > 0))
            warp_ini_fail(ini, "workload", "arrival_slot", "must be a positive time (e.g. 1ns)");
        double p = t->slot / t->interval;
        if (p > 1 + 1e-12)
            warp_ini_fail(ini, "workload", "arrival_slot",
                          "a slot of %g ns at a mean inter-arrival of %g ns needs %.3g messages a slot "
                          "(p = slot / inter-arrival > 1): lower the slot to at most %g ns, or lower "
                          "load (or raise interval)",
                          t->slot, t->interval, p, t->interval);
        t->log_q = p >= 1 ? 0 : log1p(-p);
    }
    t->bits = log2_exact(t->ranks);
    if (t->pattern == P_BITCOMP && t->bits < 0)
        warp_ini_fail(ini, "workload", "pattern",
                      "bitcomplement needs a power-of-two number of ranks (have %llu)",
                      (unsigned long long)t->ranks);
    if ((t->pattern == P_BITREV || t->pattern == P_SHUFFLE) && t->bits < 1)
        warp_ini_fail(ini, "workload", "pattern", "%s needs a power-of-two number of ranks, at least 2 (have %llu)",
                      pattern_names[t->pattern], (unsigned long long)t->ranks);
    if (t->pattern == P_TORNADO && t->ranks < 3)
        warp_ini_fail(ini, "workload", "pattern",
                      "tornado needs at least 3 ranks (with %llu every rank would send to itself)",
                      (unsigned long long)t->ranks);
    if (t->pattern == P_TRANSPOSE && (t->bits < 0 || t->bits % 2))
        warp_ini_fail(ini, "workload", "pattern",
                      "transpose needs a power-of-four number of ranks (have %llu)",
                      (unsigned long long)t->ranks);
    if (t->pattern == P_PERM)
        permute(t, ini);
    else if (t->pattern == P_WORST)
        worst_case(t, ini, net);
    else if (t->pattern == P_GROUP_SHIFT)
        group_shift(t, ini, net);
    hotspots(t, ini);
    t->type = (warp_lp_type){.name = "traffic",
                             .state_size = sizeof(traffic_state),
                             .save = WARP_SAVE_FULL,
                             .init = tr_init,
                             .forward = tr_forward,
                             .prefetch = tr_prefetch};
    return t;
}

static void tr_destroy(void *wl)
{
    traffic *t = wl;
    free(t->dst_of);
    free(t->rank_at);
    free(t->spot);
    free(t->spot_weight);
    free(t);
}

static const warp_lp_type *tr_type(const void *wl) { return &((const traffic *)wl)->type; }

static const warp_key tr_keys[] = {
    {"pattern", WARP_KEY_CHOICE, "uniform",
     "uniform | neighbor | permutation | bitcomplement | transpose | alltoall | incast | pair | pingpong | worst | "
     "bitrev | shuffle | tornado | group-shift | bitcomp | randperm | hotspot",
     "who sends to whom (worst: the topology's worst case)"},
    {"message_size", WARP_KEY_SIZE, "1KiB", ">= 1B", "bytes per message"},
    {"load", WARP_KEY_REAL, "0.1", "(0, 1]", "offered load, a fraction of injection bandwidth (or give interval)"},
    {"interval", WARP_KEY_TIME, "(from load)", "> 0", "mean time between a rank's messages (instead of load)"},
    {"arrivals", WARP_KEY_CHOICE, "poisson", "poisson | fixed | bernoulli",
     "inter-arrival times: exponential, fixed, or slotted as BookSim's sources"},
    {"arrival_slot", WARP_KEY_TIME, "(one message's time on the injection link)", "> 0",
     "arrivals = bernoulli: messages only at multiples of the slot, each with p = slot / interval"},
    {"count", WARP_KEY_COUNT, "0", ">= 0", "messages per rank (0: until end)"},
    {"start", WARP_KEY_TIME, "0ns", ">= 0", "when ranks start sending"},
    {"distance", WARP_KEY_COUNT, "1", ">= 1", "pattern = neighbor: rank i sends to i + distance"},
    {"permutation_seed", WARP_KEY_COUNT, "1", ">= 0", "pattern = permutation: the permutation's seed"},
    {"src", WARP_KEY_COUNT, "0", "0..ranks-1", "pattern = pair or pingpong: the sender"},
    {"dst", WARP_KEY_COUNT, "(1 for pair and pingpong, else 0)", "0..ranks-1",
     "pattern = incast, pair or pingpong: the receiver"},
    {"hotspots", WARP_KEY_LIST, "(none)", "0..ranks-1 each, distinct",
     "pattern = hotspot: the ranks every message goes to (BookSim's hotspot)"},
    {"hotspot_weights", WARP_KEY_LIST, "(1 each)", "1..2^32-1 each, at most one a spot",
     "pattern = hotspot: each spot's share of the messages; a short list repeats its last weight"},
    {0},
};

static const warp_key_group tr_groups[] = {
    {"workload", "type = traffic: synthetic traffic", tr_keys, NULL, "type", "traffic"},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

/* BookSim's sources: a packet each cycle with probability load / packet
 * flits, on the cycle grid, one packet a message. */
static const warp_preset tr_presets[] = {
    {"booksim", NULL, "workload",
     (const char *const[]){"arrivals", "bernoulli", "arrival_slot", "1ns", "message_size", "1B", NULL}},
    {NULL, NULL, NULL, NULL},
};

const net_workload_ops traffic_workload = {
    .name = "traffic",
    .keys = tr_groups,
    .presets = tr_presets,
    .setup = tr_setup,
    .destroy = tr_destroy,
    .lp_type = tr_type,
    .min_packet = tr_min_packet,
    .mem_hint = tr_mem_hint,
};
