/* net/stats.c — latency histograms and the reduction of per-process results.
 * Invariant: everything here is fed from committed-output blocks or final
 * states, so numbers never include rolled-back work. Called by the terminal
 * and router finish handlers and by the warpnet driver after warp_run. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "net/stats.h"

int net_hist_bin(double ns)
{
    if (!(ns >= 1.0))
        return 0;
    int e;
    double f = frexp(ns, &e); /* ns = f * 2^e, f in [0.5, 1) */
    int sub = (int)((2.0 * f - 1.0) * NET_HIST_SUB);
    int b = 1 + (e - 1) * NET_HIST_SUB + sub;
    return b < NET_HIST_BINS - 1 ? b : NET_HIST_BINS - 1;
}

double net_hist_mid(int b)
{
    if (b == 0)
        return 0.5;
    int e = (b - 1) / NET_HIST_SUB, sub = (b - 1) % NET_HIST_SUB;
    double lo = ldexp(1.0 + (double)sub / NET_HIST_SUB, e);
    double hi = ldexp(1.0 + (double)(sub + 1) / NET_HIST_SUB, e);
    return sqrt(lo * hi);
}

double net_hist_quantile(const uint32_t *h, double q)
{
    uint64_t n = 0;
    for (int b = 0; b < NET_HIST_BINS; b++)
        n += h[b];
    if (n == 0)
        return 0;
    uint64_t rank = (uint64_t)ceil(q * (double)n);
    if (rank < 1)
        rank = 1;
    uint64_t seen = 0;
    for (int b = 0; b < NET_HIST_BINS; b++) {
        seen += h[b];
        if (seen >= rank)
            return net_hist_mid(b);
    }
    return net_hist_mid(NET_HIST_BINS - 1);
}

double net_hist_quantile_in(const uint32_t *h, double q, double lo, double hi)
{
    double x = net_hist_quantile(h, q);
    return x < lo ? lo : x > hi ? hi : x;
}

void net_term_out_latency(net_term_out *o, net_results *r, double lat, int msg_done)
{
    o->lat_min = o->lat_pkts && o->lat_min < lat ? o->lat_min : lat;
    o->lat_pkts++;
    o->lat_sum_q += net_lat_q(lat);
    o->lat_max = fmax(o->lat_max, lat);
    r->hist[net_hist_bin(lat)]++;
    if (!msg_done)
        return;
    o->mlat_min = o->msgs_lat && o->mlat_min < lat ? o->mlat_min : lat;
    o->msgs_lat++;
    o->mlat_sum_q += net_lat_q(lat);
    o->mlat_max = fmax(o->mlat_max, lat);
    r->mhist[net_hist_bin(lat)]++;
}

void net_hist_claim(net_results *r, warp_lpid gid)
{
    if (gid < r->hist_owner)
        r->hist_owner = gid;
}

void net_hist_ckpt_save(const net_results *r, warp_lpid gid, warp_ckpt *c)
{
    uint8_t carries = gid == r->hist_owner;
    warp_ckpt_write(c, &carries, 1);
    if (carries) {
        warp_ckpt_write(c, r->hist, sizeof r->hist);
        warp_ckpt_write(c, r->mhist, sizeof r->mhist);
    }
}

void net_hist_ckpt_load(net_results *r, warp_lpid gid, warp_ckpt *c)
{
    uint8_t carries;
    warp_ckpt_read(c, &carries, 1);
    if (carries) {
        uint32_t h[NET_HIST_BINS], m[NET_HIST_BINS];
        warp_ckpt_read(c, h, sizeof h);
        warp_ckpt_read(c, m, sizeof m);
        for (int b = 0; b < NET_HIST_BINS; b++) {
            r->hist[b] += h[b];
            r->mhist[b] += m[b];
        }
    }
    net_hist_claim(r, gid);
}

/* The smaller minimum of two blocks, counting only blocks that saw any. */
static double min_of(double a, uint64_t na, double b, uint64_t nb)
{
    return !na ? b : !nb ? a : fmin(a, b);
}

void net_term_out_add(net_term_out *acc, const net_term_out *o)
{
    acc->lat_min = min_of(acc->lat_min, acc->lat_pkts, o->lat_min, o->lat_pkts);
    acc->mlat_min = min_of(acc->mlat_min, acc->msgs_lat, o->mlat_min, o->msgs_lat);
    acc->offered_msgs += o->offered_msgs;
    acc->offered_bytes += o->offered_bytes;
    acc->injected_pkts += o->injected_pkts;
    acc->injected_bytes += o->injected_bytes;
    acc->injected_bytes_win += o->injected_bytes_win;
    acc->delivered_pkts += o->delivered_pkts;
    acc->delivered_bytes += o->delivered_bytes;
    acc->delivered_bytes_win += o->delivered_bytes_win;
    acc->lat_pkts += o->lat_pkts;
    acc->hops_sum += o->hops_sum;
    acc->lat_sum_q += o->lat_sum_q;
    acc->lat_max = fmax(acc->lat_max, o->lat_max);
    acc->msgs_delivered += o->msgs_delivered;
    acc->msgs_lat += o->msgs_lat;
    acc->mlat_sum_q += o->mlat_sum_q;
    acc->mlat_max = fmax(acc->mlat_max, o->mlat_max);
    acc->t_last = fmax(acc->t_last, o->t_last);
    acc->eject_busy_ns += o->eject_busy_ns;
}

void net_path_out_add(net_path_out *acc, const net_path_out *o, int npaths)
{
    for (int i = 0; i < npaths; i++) {
        acc[i].pkts += o[i].pkts;
        acc[i].msgs += o[i].msgs;
        acc[i].lat_pkts += o[i].lat_pkts;
        acc[i].msgs_lat += o[i].msgs_lat;
        acc[i].lat_sum_q += o[i].lat_sum_q;
        acc[i].mlat_sum_q += o[i].mlat_sum_q;
        acc[i].lat_max = fmax(acc[i].lat_max, o[i].lat_max);
        acc[i].mlat_max = fmax(acc[i].mlat_max, o[i].mlat_max);
    }
}

net_results *net_results_new(uint64_t nodes, uint64_t routers, int32_t max_radix)
{
    net_results *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->nodes = nodes;
    r->routers = routers;
    r->max_radix = max_radix;
    r->hist_owner = UINT64_MAX;
    r->term_rows = calloc(nodes * NET_TERM_COLS + 1, sizeof(double));
    r->port_rows = calloc(routers * (uint64_t)max_radix * NET_PORT_COLS + 1, sizeof(double));
    if (!r->term_rows || !r->port_rows) {
        net_results_free(r);
        return NULL;
    }
    return r;
}

void net_results_free(net_results *r)
{
    if (!r)
        return;
    free(r->term_rows);
    free(r->port_rows);
    free(r->occ);
    free(r->term_cnt);
    free(r->router_cnt);
    free(r);
}

/* Sums (maxima for the _max fields) onto rank 0. Every per-terminal and
 * per-port row is nonzero on at most one rank, so the sums are exact
 * whatever their type. */
void net_results_reduce(net_results *r, const warp_ctx *w)
{
    if (warp_nranks(w) == 1)
        return;
    net_term_out *t = &r->total;
    uint64_t lat_pkts_here = t->lat_pkts, msgs_lat_here = t->msgs_lat;
    uint64_t u[] = {t->offered_msgs,  t->offered_bytes,       t->injected_pkts, t->injected_bytes,
                    t->injected_bytes_win, t->delivered_pkts, t->delivered_bytes,
                    t->delivered_bytes_win, t->lat_pkts,      t->hops_sum,      t->msgs_delivered,
                    t->msgs_lat,      t->lat_sum_q, t->mlat_sum_q, r->flight.term_sent,    r->flight.term_recv,
                    r->flight.router_recv, r->flight.router_sent, r->flight.router_queued,
                    r->flight.nic_waiting_msgs, r->flight.gateway_recv, r->flight.gateway_sent};
    warp_reduce_to_root(w, u, sizeof u / sizeof u[0], WARP_TYPE_U64, WARP_OP_SUM);
    int k = 0;
    t->offered_msgs = u[k++];
    t->offered_bytes = u[k++];
    t->injected_pkts = u[k++];
    t->injected_bytes = u[k++];
    t->injected_bytes_win = u[k++];
    t->delivered_pkts = u[k++];
    t->delivered_bytes = u[k++];
    t->delivered_bytes_win = u[k++];
    t->lat_pkts = u[k++];
    t->hops_sum = u[k++];
    t->msgs_delivered = u[k++];
    t->msgs_lat = u[k++];
    t->lat_sum_q = u[k++];
    t->mlat_sum_q = u[k++];
    r->flight.term_sent = u[k++];
    r->flight.term_recv = u[k++];
    r->flight.router_recv = u[k++];
    r->flight.router_sent = u[k++];
    r->flight.router_queued = u[k++];
    r->flight.nic_waiting_msgs = u[k++];
    r->flight.gateway_recv = u[k++];
    r->flight.gateway_sent = u[k++];
    uint64_t pu[6 * NET_PATHS];
    double pm[2 * NET_PATHS];
    for (int i = 0; i < NET_PATHS; i++) {
        const net_path_out *p = &r->paths[i];
        uint64_t *u6 = pu + 6 * i;
        u6[0] = p->pkts, u6[1] = p->msgs, u6[2] = p->lat_pkts, u6[3] = p->msgs_lat;
        u6[4] = p->lat_sum_q, u6[5] = p->mlat_sum_q;
        pm[2 * i] = p->lat_max, pm[2 * i + 1] = p->mlat_max;
    }
    warp_reduce_to_root(w, pu, 6 * NET_PATHS, WARP_TYPE_U64, WARP_OP_SUM);
    warp_reduce_to_root(w, pm, 2 * NET_PATHS, WARP_TYPE_DOUBLE, WARP_OP_MAX);
    for (int i = 0; i < NET_PATHS; i++) {
        const uint64_t *u6 = pu + 6 * i;
        r->paths[i] = (net_path_out){u6[0], u6[1], u6[2], u6[3], u6[4], u6[5], pm[2 * i], pm[2 * i + 1]};
    }
    /* Minima travel negated through the maximum; a rank that saw none sends -inf. */
    double m[] = {t->lat_max, t->mlat_max, t->t_last, lat_pkts_here ? -t->lat_min : -INFINITY,
                  msgs_lat_here ? -t->mlat_min : -INFINITY};
    warp_reduce_to_root(w, m, 5, WARP_TYPE_DOUBLE, WARP_OP_MAX);
    t->lat_max = m[0];
    t->mlat_max = m[1];
    t->t_last = m[2];
    t->lat_min = -m[3];
    t->mlat_min = -m[4];
    warp_reduce_to_root(w, r->hist, NET_HIST_BINS, WARP_TYPE_U32, WARP_OP_SUM);
    warp_reduce_to_root(w, r->mhist, NET_HIST_BINS, WARP_TYPE_U32, WARP_OP_SUM);
    warp_reduce_to_root(w, r->term_rows, r->nodes * NET_TERM_COLS, WARP_TYPE_DOUBLE, WARP_OP_SUM);
    warp_reduce_to_root(w, r->port_rows, r->routers * (uint64_t)r->max_radix * NET_PORT_COLS,
                        WARP_TYPE_DOUBLE, WARP_OP_SUM);
    if (r->samples) {
        warp_reduce_to_root(w, r->occ, (uint64_t)r->samples * r->routers * r->sample_ports,
                            WARP_TYPE_FLOAT, WARP_OP_SUM);
        warp_reduce_to_root(w, r->term_cnt, (uint64_t)r->samples * r->nodes * 2, WARP_TYPE_U32,
                            WARP_OP_SUM);
        warp_reduce_to_root(w, r->router_cnt, (uint64_t)r->samples * r->routers * 2,
                            WARP_TYPE_U32, WARP_OP_SUM);
    }
}
