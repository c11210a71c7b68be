/* optical/optical.c — the optical network's configuration ([optical]), its
 * LP layout and placement, and its results (reduce, summary lines,
 * summary.json). LPs: servers (terminals), rack switches (routers of the
 * fabric, racks.c), then a ToR per rack (tor.c), an OPS output port per
 * rack (ops.c) and the OCS control plane (ocs.c). Invariant: everything a
 * rack owns lives on one process; the description is read-only after
 * setup except `res`, which finish handlers fill. Found through the
 * catalogue. */
#include <stdlib.h>
#include <string.h>

#include "optical/optical.h"
#include "optical/optical_impl.h"

#define SEC "optical"

static const char *const path_names[] = {"electrical", "ops", "ocs", NULL};
static const char *const policy_names[] = {"ops", "ocs", "hybrid", NULL};
static const char *const contention_names[] = {"fiber", "port", NULL};

/* photonic_packet = packet | message | a size: electrical packets per
 * photonic packet (0 for a whole message). */
static uint32_t read_group(warp_ini *ini, uint64_t packet_size)
{
    const char *v = warp_ini_string(ini, SEC, "photonic_packet", "packet");
    if (strcmp(v, "packet") == 0)
        return 1;
    if (strcmp(v, "message") == 0)
        return 0;
    uint64_t b = 0;
    const char *why;
    if (warp_parse_bytes(v, &b, &why) < 0 || b < packet_size || b % packet_size || b / packet_size > UINT32_MAX)
        warp_ini_fail(ini, SEC, "photonic_packet",
                      "must be packet, message, or a multiple of [network] packet_size (%llu B)",
                      (unsigned long long)packet_size);
    return (uint32_t)(b / packet_size);
}

static uint64_t required_count(warp_ini *ini, const char *key, const char *example)
{
    int64_t v = warp_ini_int(ini, SEC, key, 0, 0, INT64_C(1) << 30);
    if (v == 0)
        warp_ini_fail(ini, SEC, key, "missing or zero; give a count (e.g. %s)", example);
    return (uint64_t)v;
}

static void nonnegative(warp_ini *ini, const char *key, double v)
{
    if (v < 0)
        warp_ini_fail(ini, SEC, key, "must not be negative");
}

static void read_tor(warp_ini *ini, opt_net *o)
{
    o->group = read_group(ini, o->packet_size);
    o->tor_startup = warp_ini_time_ns(ini, SEC, "tor_startup", 1678);
    o->tor_per_byte = warp_ini_time_ns(ini, SEC, "tor_per_byte", 1.35);
    o->policy = warp_ini_choice(ini, SEC, "path", policy_names, OPT_USE_HYBRID);
    o->ocs_threshold = warp_ini_bytes(ini, SEC, "ocs_threshold", 64 * 1024);
    o->tor_buffer = (uint32_t)warp_ini_int(ini, SEC, "tor_buffer", 16, 1, INT32_MAX);
    o->ack_delay = warp_ini_time_ns(ini, SEC, "ack_delay", 20);
    o->optical_bw = warp_ini_bandwidth(ini, SEC, "optical_bandwidth", 1.25);
    double cable_m = warp_ini_length_m(ini, SEC, "cable_length", 10);
    double per_m = warp_ini_time_ns(ini, SEC, "fiber_delay", 5);
    o->cable = cable_m * per_m;
    nonnegative(ini, "tor_startup", o->tor_startup);
    nonnegative(ini, "tor_per_byte", o->tor_per_byte);
    nonnegative(ini, "ack_delay", o->ack_delay);
}

static void read_ops(warp_ini *ini, opt_net *o)
{
    o->fibers = (uint32_t)warp_ini_int(ini, SEC, "fibers", 8, 1, INT32_MAX);
    o->wavelengths = (uint32_t)warp_ini_int(ini, SEC, "wavelengths", 8, 1, INT32_MAX);
    o->ops_delay = warp_ini_time_ns(ini, SEC, "ops_delay", 30);
    o->shared_output = warp_ini_choice(ini, SEC, "ops_contention", contention_names, 0);
    if ((uint64_t)o->fibers * o->wavelengths < o->racks.racks)
        warp_ini_fail(ini, SEC, "fibers",
                      "the OPS has fibers x wavelengths = %llu ports for %llu racks; raise "
                      "fibers or wavelengths",
                      (unsigned long long)o->fibers * o->wavelengths,
                      (unsigned long long)o->racks.racks);
}

static void read_ocs(warp_ini *ini, opt_net *o)
{
    o->ocs_ports = (uint32_t)warp_ini_int(ini, SEC, "ocs_ports", 192, 1, INT32_MAX);
    o->ocs_links = (uint32_t)warp_ini_int(ini, SEC, "ocs_links", 1, 1, INT32_MAX);
    o->ocs_setup = warp_ini_time_ns(ini, SEC, "ocs_setup", 753e6);
    o->ocs_reconfig = warp_ini_time_ns(ini, SEC, "ocs_reconfig", 25e6);
    o->retry_delay = warp_ini_time_ns(ini, SEC, "retry_delay", 10e6);
    o->ocs_idle = warp_ini_time_ns(ini, SEC, "ocs_idle", 100e6);
    o->ocs_transfer = warp_ini_time_ns(ini, SEC, "ocs_transfer", 0);
    o->ocs_bw = warp_ini_bandwidth(ini, SEC, "ocs_bandwidth", o->optical_bw);
    if ((uint64_t)o->ocs_links * o->racks.racks > o->ocs_ports)
        warp_ini_fail(ini, SEC, "ocs_ports",
                      "%llu racks x ocs_links %u need %llu switch ports; raise ocs_ports or "
                      "lower ocs_links",
                      (unsigned long long)o->racks.racks, o->ocs_links,
                      (unsigned long long)o->racks.racks * o->ocs_links);
    if (o->ocs_reconfig > o->ocs_setup)
        warp_ini_fail(ini, SEC, "ocs_reconfig",
                      "the reconfiguration (%g ns) is part of ocs_setup (%g ns) and cannot "
                      "exceed it",
                      o->ocs_reconfig, o->ocs_setup);
    if (!(o->retry_delay > 0))
        warp_ini_fail(ini, SEC, "retry_delay", "must be positive (e.g. 10ms)");
    o->ocs_signal = (o->ocs_setup - o->ocs_reconfig) / 2;
}

static void *optical_setup(warp_ini *ini, net_model *n)
{
    opt_net *o = warp_xcalloc(1, sizeof *o);
    o->n = n;
    const net_params *p = net_fabric_params(ini, n);
    o->packet_size = p->packet_size;
    opt_racks *r = &o->racks;
    r->racks = required_count(ini, "racks", "32");
    r->spr = required_count(ini, "servers_per_rack", "32");
    if (r->spr >= INT32_MAX)
        warp_ini_fail(ini, SEC, "servers_per_rack", "must be below %d", INT32_MAX);
    o->nodes = r->racks * r->spr;
    o->routers = r->racks;
    o->tor0 = o->nodes + o->routers;
    o->ops0 = o->tor0 + r->racks;
    o->ocs_lp = o->ops0 + r->racks;
    r->tor0 = o->tor0;
    r->bandwidth = p->link_bandwidth;
    r->latency = p->link_latency;
    read_tor(ini, o);
    read_ops(ini, o);
    read_ocs(ini, o);
    net_fabric_use(ini, n, &opt_racks_topology, r);
    o->vc_buffer = p->vc_buffer; /* read by net_fabric_use */
    net_declare(n, o->nodes, o->routers + 2 * r->racks + 1, p->link_bandwidth);
    opt_tor_type(o, &o->tor_type);
    opt_ops_type(o, &o->ops_type);
    opt_ocs_type(o, &o->ocs_type);
    o->res = warp_xcalloc(1, sizeof *o->res);
    return o;
}

static void optical_destroy(void *net)
{
    opt_net *o = net;
    free(o->res);
    free(o);
}

static const warp_lp_type *optical_lp_type(const void *net, uint64_t index)
{
    const opt_net *o = net;
    if (index < o->tor0)
        return net_fabric_lp_type(o->n, index);
    if (index < o->ops0)
        return &o->tor_type;
    return index < o->ocs_lp ? &o->ops_type : &o->ocs_type;
}

/* A rack's servers, switch, ToR and OPS port on one process; racks in
 * contiguous blocks; the control plane with rack 0. */
static int optical_map(const void *net, uint64_t index, int npes)
{
    const opt_net *o = net;
    uint64_t rack = index < o->nodes  ? index / o->racks.spr
                    : index < o->tor0 ? index - o->nodes
                    : index < o->ops0 ? index - o->tor0
                    : index < o->ocs_lp ? index - o->ops0
                                        : 0;
    return (int)(rack * (uint64_t)npes / o->racks.racks);
}

static void optical_reduce(void *net, const net_model *n)
{
    opt_net *o = net;
    opt_results *r = o->res;
    uint64_t u[3 * OPT_NPATHS + 14];
    int k = 0;
    for (int p = 0; p < OPT_NPATHS; p++)
        u[k++] = r->formed[p], u[k++] = r->arrived[p], u[k++] = r->tor_lat_q[p];
    uint64_t *tail[] = {&r->ops_sent,         &r->ops_resent,          &r->ops_acks,
                        &r->ops_nacks,        &r->ops_passed,          &r->ops_dropped,
                        &r->ocs_sent,         &r->ocs_requests,        &r->ocs_setups,
                        &r->ocs_refusals,     &r->ocs_release_idle,    &r->ocs_release_capacity,
                        &r->circuit_q,        &r->tor_waiting};
    for (size_t i = 0; i < sizeof tail / sizeof tail[0]; i++)
        u[k++] = *tail[i];
    warp_reduce_to_root(net_engine(n), u, (uint64_t)k, WARP_TYPE_U64, WARP_OP_SUM);
    warp_reduce_to_root(net_engine(n), &r->buffer_max, 1, WARP_TYPE_U64, WARP_OP_MAX);
    k = 0;
    for (int p = 0; p < OPT_NPATHS; p++)
        r->formed[p] = u[k++], r->arrived[p] = u[k++], r->tor_lat_q[p] = u[k++];
    for (size_t i = 0; i < sizeof tail / sizeof tail[0]; i++)
        *tail[i] = u[k++];
}

static double mean_ns(uint64_t sum_q, uint64_t count)
{
    return count ? (double)sum_q / NET_LAT_Q / (double)count : 0;
}

/* One figure of the results, named as summary.json names it. */
typedef struct opt_figure {
    const char *key;
    double value;
    int whole; /* print as an integer */
} opt_figure;

#define OPT_FIGURES 10

/* The figures of one switch ("ops" or "ocs"): fills f, returns how many. */
static int figures(const opt_results *r, int ocs, opt_figure *f)
{
    int k = 0, p = ocs ? OPT_PATH_OCS : OPT_PATH_OPS;
    f[k++] = (opt_figure){"formed", (double)r->formed[p], 1};
    if (!ocs) {
        f[k++] = (opt_figure){"sent", (double)r->ops_sent, 1};
        f[k++] = (opt_figure){"resent", (double)r->ops_resent, 1};
        f[k++] = (opt_figure){"passed", (double)r->ops_passed, 1};
        f[k++] = (opt_figure){"dropped", (double)r->ops_dropped, 1};
        f[k++] = (opt_figure){"acks", (double)r->ops_acks, 1};
        f[k++] = (opt_figure){"nacks", (double)r->ops_nacks, 1};
        f[k++] = (opt_figure){"buffer_max", (double)r->buffer_max, 1};
    } else {
        f[k++] = (opt_figure){"sent", (double)r->ocs_sent, 1};
        f[k++] = (opt_figure){"requests", (double)r->ocs_requests, 1};
        f[k++] = (opt_figure){"setups", (double)r->ocs_setups, 1};
        f[k++] = (opt_figure){"refusals", (double)r->ocs_refusals, 1};
        f[k++] = (opt_figure){"releases_idle", (double)r->ocs_release_idle, 1};
        f[k++] = (opt_figure){"releases_capacity", (double)r->ocs_release_capacity, 1};
        f[k++] = (opt_figure){"circuit_seconds", (double)r->circuit_q / NET_LAT_Q / 1e9, 0};
    }
    f[k++] = (opt_figure){"arrived", (double)r->arrived[p], 1};
    f[k++] = (opt_figure){"tor_to_tor_mean_ns", mean_ns(r->tor_lat_q[p], r->arrived[p]), 0};
    return k;
}

static void optical_report(const void *net, const net_model *n, FILE *f)
{
    (void)n;
    const opt_net *o = net;
    char group[48];
    if (o->group)
        snprintf(group, sizeof group, "%u packet%s", o->group, o->group == 1 ? "" : "s");
    else
        snprintf(group, sizeof group, "whole messages");
    fprintf(f, "optical           %llu racks x %llu servers, path %s, photonic packets of %s; "
               "waiting in ToRs at the end %llu\n",
            (unsigned long long)o->racks.racks, (unsigned long long)o->racks.spr,
            policy_names[o->policy], group, (unsigned long long)o->res->tor_waiting);
    for (int ocs = 0; ocs < 2; ocs++) {
        opt_figure fig[OPT_FIGURES];
        int k = figures(o->res, ocs, fig);
        fprintf(f, "%-18s", ocs ? "ocs" : "ops");
        for (int i = 0; i < k; i++)
            fprintf(f, fig[i].whole ? "%s%s %.0f" : "%s%s %.9g", i ? ", " : "", fig[i].key,
                    fig[i].value);
        fprintf(f, "\n");
    }
}

static void optical_json(const void *net, const net_model *n, FILE *f)
{
    (void)n;
    const opt_net *o = net;
    fprintf(f, "  \"optical\": {\"racks\": %llu, \"servers_per_rack\": %llu, \"path\": \"%s\", "
               "\"photonic_packet_packets\": %u, \"waiting_in_tors\": %llu",
            (unsigned long long)o->racks.racks, (unsigned long long)o->racks.spr,
            policy_names[o->policy], o->group, (unsigned long long)o->res->tor_waiting);
    for (int ocs = 0; ocs < 2; ocs++) {
        opt_figure fig[OPT_FIGURES];
        int k = figures(o->res, ocs, fig);
        fprintf(f, ",\n    \"%s\": {", ocs ? "ocs" : "ops");
        for (int i = 0; i < k; i++)
            fprintf(f, fig[i].whole ? "%s\"%s\": %.0f" : "%s\"%s\": %.17g", i ? ", " : "",
                    fig[i].key, fig[i].value);
        fprintf(f, "}");
    }
    fprintf(f, "},\n");
}

/* Every event between its LPs crosses a cable (ToR <-> OPS port, ToR <->
 * ToR, each delay a sum of that and times >= 0), the OCS control channel
 * (ocs_signal, plus reconfiguration for a grant) or the electrical fabric. */
static double optical_lookahead(const void *net)
{
    const opt_net *o = net;
    double la = net_fabric_lookahead(o->n);
    la = o->cable < la ? o->cable : la;
    return o->ocs_signal < la ? o->ocs_signal : la;
}

static const warp_key opt_keys[] = {
    {"racks", WARP_KEY_COUNT, "(required)", "1..2^30", "racks (servers are numbered rack by rack)"},
    {"servers_per_rack", WARP_KEY_COUNT, "(required)", "1..2^30", "servers per rack"},
    {0},
};

static const warp_key opt_tor_keys[] = {
    {"photonic_packet", WARP_KEY_TEXT, "packet", "packet | message | a multiple of packet_size",
     "the packets one photonic packet carries"},
    {"tor_startup", WARP_KEY_TIME, "1678ns", ">= 0", "the ToR's fixed delay per photonic packet"},
    {"tor_per_byte", WARP_KEY_TIME, "1.35ns", ">= 0", "the ToR's delay per byte of a photonic packet"},
    {"path", WARP_KEY_CHOICE, "hybrid", "ops | ocs | hybrid",
     "OPS only, OCS only, or OCS where a circuit is up and OPS else"},
    {"ocs_threshold", WARP_KEY_SIZE, "64KiB", ">= 0", "hybrid: messages this large ask for a circuit"},
    {"tor_buffer", WARP_KEY_COUNT, "16", ">= 1", "photonic packets awaiting their ACK"},
    {"ack_delay", WARP_KEY_TIME, "20ns", ">= 0", "ACK/NACK processing"},
    {"optical_bandwidth", WARP_KEY_RATE, "10Gbps", "> 0", "the ToR-OPS links"},
    {"cable_length", WARP_KEY_LENGTH, "10m", ">= 0", "between a ToR and a switch"},
    {"fiber_delay", WARP_KEY_TIME, "5ns", ">= 0", "propagation per metre"},
    {0},
};

static const warp_key opt_ops_keys[] = {
    {"fibers", WARP_KEY_COUNT, "8", ">= 1", "OPS fibers (fibers x wavelengths >= racks)"},
    {"wavelengths", WARP_KEY_COUNT, "8", ">= 1", "wavelengths per fiber"},
    {"ops_delay", WARP_KEY_TIME, "30ns", ">= 0", "the OPS's routing delay"},
    {"ops_contention", WARP_KEY_CHOICE, "fiber", "fiber | port",
     "a wavelength channel per input fiber at an output, or one channel per output"},
    {0},
};

static const warp_key opt_ocs_keys[] = {
    {"ocs_ports", WARP_KEY_COUNT, "192", ">= racks x ocs_links", "OCS ports"},
    {"ocs_links", WARP_KEY_COUNT, "1", ">= 1", "circuits a ToR can hold"},
    {"ocs_setup", WARP_KEY_TIME, "753ms", ">= 0", "request to circuit usable"},
    {"ocs_reconfig", WARP_KEY_TIME, "25ms", ">= 0", "of ocs_setup, the switch's own"},
    {"retry_delay", WARP_KEY_TIME, "10ms", ">= 0", "after a refusal"},
    {"ocs_idle", WARP_KEY_TIME, "100ms", ">= 0", "a circuit unused this long is released"},
    {"ocs_transfer", WARP_KEY_TIME, "0ns", ">= 0", "per packet over a circuit"},
    {"ocs_bandwidth", WARP_KEY_RATE, "(optical_bandwidth)", "> 0", "per circuit"},
    {0},
};

static const warp_key_group opt_groups[] = {
    {SEC, "the optical data-centre network: racks", opt_keys, NULL, NULL, NULL},
    {SEC, "the ToRs", opt_tor_keys, NULL, NULL, NULL},
    {SEC, "the optical packet switch (OPS)", opt_ops_keys, NULL, NULL, NULL},
    {SEC, "the optical circuit switch (OCS)", opt_ocs_keys, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

const net_network_ops optical_network = {
    .name = "optical",
    .section = SEC,
    .keys = opt_groups,
    .setup = optical_setup,
    .destroy = optical_destroy,
    .lp_type = optical_lp_type,
    .map = optical_map,
    .lookahead = optical_lookahead,
    .queues_packets = 1,
    .paths = path_names,
    .reduce = optical_reduce,
    .report = optical_report,
    .json = optical_json,
};
