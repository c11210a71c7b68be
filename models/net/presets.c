/* net/presets.c — [network] preset = NAME: the network layer's own entries
 * (booksim's router pipeline), and the gathering of a preset's entries from
 * the run's topology or network, its workload and this file, applied before
 * the model reads its keys. Invariant: a preset fills only keys the run file
 * leaves unset, the most specific entry first. Called by net_model_size;
 * the entries are listed by `warpnet keys` (tools/warpnet/keys.c). */
#include <stdio.h>
#include <string.h>

#include "net/model.h"
#include "net/net_impl.h"

/* BookSim2's iq_router on its clock: 1 cycle = 1 ns, 1 flit = 1 byte at
 * 1 GB/s; route, VC allocation, switch allocation and crossbar in 4
 * cycles; a VC's next packet 3 cycles after its predecessor's (alloc_delay
 * 2 after the tail), an output VC reallocated a cycle after its tail
 * (lane_hold 1); one islip round, VC before switch allocation, once per
 * cycle; 8-flit VC buffers, credits per flit, injection on any VC; 1-cycle
 * channels; 1-flit packets; BookSim's default internal_speedup of 1 (its
 * dragonfly example's 2.0 belongs to that example: bench/booksim.sh passes
 * it there) (bench/booksim.sh, docs/routers.md, docs/validation.md). */
static const char *const booksim_network[] = {
    "router", "input-queued", "link_bandwidth", "1GB/s", "link_latency", "1ns", "terminal_latency", "1ns",
    "router_delay", "4ns", "packet_size", "1B", "vc_buffer", "8B", "credit_unit", "1B",
    "injection_vcs", "all", "alloc_delay", "2ns", "lane_hold", "1ns", "alloc_iters", "1",
    "vc_allocation", "before-switch", "alloc_timing", "per-cycle", "internal_speedup", "1", NULL,
};

const warp_preset net_presets[] = {
    {"booksim", "BookSim2's input-queued router on its 1-ns cycle with 1-byte flits (bench/booksim.sh): "
                "4-cycle pipeline, one islip round, VC before switch allocation once per cycle, 8-flit "
                "buffers, credits per flit, internal speed-up 1 (BookSim's default), Bernoulli sources "
                "on the cycle grid",
     "network", booksim_network},
    {NULL, NULL, NULL, NULL},
};

const char *net_model_preset(const net_model *n) { return n->preset; }

static int apply_named(warp_ini *ini, const warp_preset *list, const char *name)
{
    int n = 0;
    for (const warp_preset *p = list; p && p->name; p++)
        if (!strcmp(p->name, name)) {
            warp_ini_apply_preset(ini, p);
            n++;
        }
    return n;
}

/* A topology or network with an entry of the preset (for the message). */
static const char *owner_of(const net_catalog *cat, const char *name)
{
    for (const net_topology_ops *const *t = cat->topologies; *t; t++)
        for (const warp_preset *p = (*t)->presets; p && p->name; p++)
            if (!strcmp(p->name, name))
                return (*t)->name;
    for (const net_network_ops *const *o = cat->networks; *o; o++)
        for (const warp_preset *p = (*o)->presets; p && p->name; p++)
            if (!strcmp(p->name, name))
                return (*o)->name;
    return NULL;
}

static void add_names(const warp_preset *list, const char *owner, void *arg)
{
    (void)owner;
    char *known = arg;
    for (const warp_preset *p = list; p && p->name; p++) {
        size_t len = strlen(known);
        char item[80];
        snprintf(item, sizeof item, "%s%s,", len ? " " : "", p->name);
        if (!strstr(known, item + (len ? 1 : 0)) && len + strlen(item) < 511)
            strcat(known, item);
    }
}

void net_presets_apply(warp_ini *ini, const net_catalog *cat, net_model *n)
{
    const char *name = warp_ini_string(ini, "network", "preset", NULL);
    if (!name)
        return;
    n->preset = name;
    const warp_preset *own = n->topo_ops ? n->topo_ops->presets : n->net_ops->presets;
    int model = apply_named(ini, own, name);
    apply_named(ini, n->wl_ops->presets, name);
    int general = apply_named(ini, net_presets, name);
    if (model || general)
        return;
    const char *owner = owner_of(cat, name);
    if (owner)
        warp_ini_fail(ini, "network", "preset", "is a preset of topology = %s (this run has %s); drop the "
                      "preset or set topology = %s", owner, n->name, owner);
    char known[512] = "";
    net_catalog_each_presets(cat, add_names, known);
    size_t len = strlen(known);
    if (len && known[len - 1] == ',')
        known[len - 1] = '\0';
    warp_ini_fail(ini, "network", "preset", "unknown preset; choose one of: %s", known);
}

void net_catalog_each_presets(const net_catalog *cat,
                              void (*fn)(const warp_preset *presets, const char *owner, void *arg), void *arg)
{
    char owner[96];
    fn(net_presets, NULL, arg);
    for (const net_topology_ops *const *t = cat->topologies; *t; t++)
        if ((*t)->presets) {
            snprintf(owner, sizeof owner, "[network] topology = %s", (*t)->name);
            fn((*t)->presets, owner, arg);
        }
    for (const net_network_ops *const *o = cat->networks; *o; o++)
        if ((*o)->presets) {
            snprintf(owner, sizeof owner, "[network] topology = %s", (*o)->name);
            fn((*o)->presets, owner, arg);
        }
    for (const net_workload_ops *const *w = cat->workloads; *w; w++)
        if ((*w)->presets) {
            snprintf(owner, sizeof owner, "[workload] type = %s", (*w)->name);
            fn((*w)->presets, owner, arg);
        }
}
