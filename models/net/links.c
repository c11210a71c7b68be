/* net/links.c — the --describe lines about link bandwidths: every port of
 * every router is visited once, and links are counted by kind (router to
 * router, router to terminal) and bandwidth. Reads only the read-only
 * description. Called by net_describe (dot.c). */
#include <stdio.h>

#include "net/model.h"
#include "net/net_impl.h"

#define LINK_CLASSES 8 /* distinct bandwidths per kind that are listed */

typedef struct link_class {
    double bandwidth;
    uint64_t count;
} link_class;

/* Counts a link of bandwidth bw; returns 0, or -1 when the kind has more
 * distinct bandwidths than it lists. */
static int count(link_class *c, int *n, double bw)
{
    for (int i = 0; i < *n; i++)
        if (c[i].bandwidth == bw) {
            c[i].count++;
            return 0;
        }
    if (*n == LINK_CLASSES)
        return -1;
    c[(*n)++] = (link_class){bw, 1};
    return 0;
}

static void print(FILE *f, const char *name, const link_class *c, int n, int more)
{
    fprintf(f, "%s:", name);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s %g x %llu", i ? "," : "", c[i].bandwidth, (unsigned long long)c[i].count);
    fprintf(f, "%s\n", more ? ", and others" : n ? "" : " none");
}

void net_describe_links(const net_model *n, FILE *f)
{
    if (!n->routers) /* no fabric: no links to list */
        return;
    link_class rr[LINK_CLASSES], rt[LINK_CLASSES];
    int nrr = 0, nrt = 0, more_rr = 0, more_rt = 0;
    const net_topology_ops *t = n->topo_ops;
    for (uint64_t r = 0; r < n->routers; r++) {
        int32_t k = t->radix(n->topo, r);
        for (int32_t p = 0; p < k; p++) {
            net_peer q = t->peer(n->topo, r, p);
            /* each router-router link is seen from both ends: count it at the lower one */
            if (q.kind == NET_PEER_ROUTER && (q.id > r || (q.id == r && q.port > p)))
                more_rr |= count(rr, &nrr, q.bandwidth);
            else if (q.kind == NET_PEER_TERMINAL)
                more_rt |= count(rt, &nrt, q.bandwidth);
        }
    }
    print(f, "router_links_GBps", rr, nrr, more_rr);
    print(f, "terminal_links_GBps", rt, nrt, more_rt);
}
