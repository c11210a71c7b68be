/* warpnet/reference.c — the reference bandwidth a run's throughput is
 * compared with: [network] reference_bandwidth = 71% (of a node's injection
 * bandwidth), = 8.9GB/s (per node, any bandwidth unit), or = bisection (the
 * topology's bisection_bandwidth shared by the nodes of one half).
 * Called by main.c after the network is built, before unused keys are
 * rejected; the summary reports accepted load as a percentage of it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/net.h"
#include "summary.h"

static const char fix[] = "write a share of the injection bandwidth (71%), a bandwidth per node "
                          "(8.9GB/s) or bisection";

/* "71%", "71 %": the number, or -1 when s is not a percentage. */
static double percent(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s)
        return -1;
    while (*end == ' ')
        end++;
    return end[0] == '%' && end[1] == 0 ? v : -1;
}

void wn_reference_read(wn_reference *ref, warp_ini *ini, const net_model *n)
{
    memset(ref, 0, sizeof *ref);
    const char *s = warp_ini_string(ini, "network", "reference_bandwidth", NULL);
    if (!s)
        return;
    double inj = net_injection_bandwidth(n), v;
    const char *why = NULL;
    if (strcmp(s, "bisection") == 0) {
        const void *topo;
        const net_topology_ops *ops = net_topology(n, &topo);
        if (!ops || !ops->bisection_bandwidth)
            warp_ini_fail(ini, "network", "reference_bandwidth",
                          "topology %s has no bisection formula; give the reference as a share "
                          "of the injection bandwidth (71%%) or a bandwidth per node (8.9GB/s)",
                          net_model_topology_name(n));
        ref->gbps = ops->bisection_bandwidth(topo) / ((double)net_nodes(n) / 2);
        snprintf(ref->source, sizeof ref->source, "bisection of %s", ops->name);
    } else if (strchr(s, '%')) {
        v = percent(s);
        if (!(v > 0) || !isfinite(v))
            warp_ini_fail(ini, "network", "reference_bandwidth",
                          "not a positive percentage; %s", fix);
        ref->gbps = v / 100 * inj;
        snprintf(ref->source, sizeof ref->source, "%s", s);
    } else if (warp_parse_bandwidth(s, &v, &why) == 0) {
        if (!(v > 0))
            warp_ini_fail(ini, "network", "reference_bandwidth", "must be positive; %s", fix);
        ref->gbps = v;
        snprintf(ref->source, sizeof ref->source, "%s", s);
    } else {
        warp_ini_fail(ini, "network", "reference_bandwidth", "%s; %s", why, fix);
    }
    ref->of_injection = ref->gbps / inj;
}
