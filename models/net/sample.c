/* net/sample.c — the --sample time series: recording in commit handlers,
 * the finish-time copy into the per-process results, and samples.csv.
 * Invariant: commit handlers of one LP run in the same order in every mode
 * and partition, so even the float sums come out bit-identical. */
#include <stdlib.h>

#include "net/sample.h"

/* Sampling area of a terminal: uint32 count[interval][2]. Of a router: the
 * same counts, then float byte_ns[interval][ports]. */
size_t net_sample_term_bytes(const net_sampling *s)
{
    return s->interval > 0 ? (size_t)s->count * 2 * sizeof(uint32_t) : 0;
}

size_t net_sample_router_bytes(const net_sampling *s)
{
    if (!(s->interval > 0))
        return 0;
    return (size_t)s->count * s->ports * sizeof(float) + (size_t)s->count * 2 * sizeof(uint32_t);
}

static float *byte_ns_of(const net_sampling *s, const void *area)
{
    return (float *)((uint32_t *)area + (size_t)s->count * 2);
}

void net_sample_count(const net_sampling *s, void *area, double t, int which)
{
    ((uint32_t *)area)[2 * net_sample_bin(s, t) + (uint32_t)which]++;
}

/* Length of interval b (the last one may end early, at the run's end). */
static double bin_length(const net_sampling *s, uint32_t b)
{
    double lo = b * s->interval, hi = lo + s->interval;
    return (hi < s->end ? hi : s->end) - lo;
}

void net_sample_dwell(const net_sampling *s, void *area, uint32_t pv, double from, double to,
                      uint64_t bytes)
{
    float *byte_ns = byte_ns_of(s, area);
    if (to > s->end)
        to = s->end;
    for (uint32_t b = net_sample_bin(s, from); from < to; b++) {
        double close = b + 1 < s->count ? (b + 1) * s->interval : to;
        double upto = close < to ? close : to;
        byte_ns[(size_t)b * s->ports + pv] += (float)((double)bytes * (upto - from));
        from = upto;
    }
}

void net_sample_term_finish(const net_sampling *s, const void *area, uint64_t term,
                            net_results *r)
{
    const uint32_t *c = area;
    for (uint32_t b = 0; b < s->count; b++) {
        uint32_t *row = r->term_cnt + ((size_t)b * r->nodes + term) * 2;
        row[0] = c[2 * b];
        row[1] = c[2 * b + 1];
    }
}

void net_sample_router_finish(const net_sampling *s, const void *area, uint64_t router,
                              net_results *r)
{
    const float *byte_ns = byte_ns_of(s, area);
    const uint32_t *c = area;
    for (uint32_t b = 0; b < s->count; b++) {
        float *orow = r->occ + ((size_t)b * r->routers + router) * s->ports;
        double len = bin_length(s, b);
        for (uint32_t pv = 0; pv < s->ports; pv++)
            orow[pv] = (float)(byte_ns[(size_t)b * s->ports + pv] / len);
        uint32_t *row = r->router_cnt + ((size_t)b * r->routers + router) * 2;
        row[0] = c[2 * b];
        row[1] = c[2 * b + 1];
    }
}

double net_sample_interval_bytes(uint32_t ports, uint64_t nodes, uint64_t routers)
{
    return (double)routers * ports * sizeof(float) +
           (double)(nodes + routers) * 2 * sizeof(uint32_t);
}

int net_sample_results_alloc(net_results *r, const net_sampling *s)
{
    if (!(s->interval > 0))
        return 0;
    r->samples = s->count;
    r->sample_ports = s->ports;
    r->sample_interval = s->interval;
    size_t nocc = (size_t)s->count * r->routers * s->ports;
    r->occ = calloc(nocc ? nocc : 1, sizeof(float));
    r->term_cnt = calloc((size_t)s->count * r->nodes * 2 + 1, sizeof(uint32_t));
    r->router_cnt = calloc((size_t)s->count * r->routers * 2 + 1, sizeof(uint32_t));
    return r->occ && r->term_cnt && r->router_cnt ? 0 : -1;
}

static void write_counts(FILE *f, double t, const char *sent, const char *recv,
                         const uint32_t *row, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        if (row[2 * i])
            fprintf(f, "%.17g,%s,%llu,-1,-1,%u\n", t, sent, (unsigned long long)i, row[2 * i]);
        if (row[2 * i + 1])
            fprintf(f, "%.17g,%s,%llu,-1,-1,%u\n", t, recv, (unsigned long long)i,
                    row[2 * i + 1]);
    }
}

int net_samples_write(const net_results *r, const char *path)
{
    uint32_t vcs = r->sample_ports / (uint32_t)r->max_radix;
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs("time_ns,kind,id,port,vc,value\n", f);
    for (uint32_t b = 0; b < r->samples; b++) {
        double t = b * r->sample_interval;
        const float *occ = r->occ + (size_t)b * r->routers * r->sample_ports;
        for (uint64_t rt = 0; rt < r->routers; rt++)
            for (uint32_t pv = 0; pv < r->sample_ports; pv++) {
                float v = occ[rt * r->sample_ports + pv];
                if (v != 0)
                    fprintf(f, "%.17g,occupancy,%llu,%u,%u,%.9g\n", t, (unsigned long long)rt,
                            pv / vcs, pv % vcs, (double)v);
            }
        write_counts(f, t, "term_sent", "term_recv", r->term_cnt + (size_t)b * r->nodes * 2,
                     r->nodes);
        write_counts(f, t, "router_sent", "router_recv",
                     r->router_cnt + (size_t)b * r->routers * 2, r->routers);
    }
    int bad = ferror(f);
    return fclose(f) == 0 && !bad ? 0 : -1;
}
