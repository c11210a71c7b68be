/* warpnet/summary.c — turns the reduced committed statistics of a network
 * run into the summary block, summary.json and the CSV files.
 * Invariant: reads only reduced results (rank 0), never LP state.
 * Called by main.c after warp_run. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "net/net.h"
#include "summary.h"

void wn_summary_compute(wn_summary *s, const net_model *n, const net_results *r, double end,
                        double warmup, const wn_reference *ref)
{
    memset(s, 0, sizeof *s);
    const net_term_out *t = &r->total;
    double nodes = (double)net_nodes(n);
    s->window_ns = end - warmup;
    s->warmup_ns = warmup;
    s->inj_gbps = net_injection_bandwidth(n);
    double cap = nodes * s->inj_gbps * s->window_ns;
    s->offered = (double)t->offered_bytes / cap;
    s->accepted = (double)t->delivered_bytes_win / cap;
    s->offered_gbps = (double)t->offered_bytes / s->window_ns / nodes;
    s->accepted_gbps = (double)t->delivered_bytes_win / s->window_ns / nodes;
    if (ref && ref->gbps > 0) {
        s->ref = *ref;
        s->accepted_pct_of_ref = 100 * s->accepted_gbps / ref->gbps;
    }
    if (t->lat_pkts) {
        s->lat_mean = (double)t->lat_sum_q / NET_LAT_Q / (double)t->lat_pkts;
        s->hops_mean = (double)t->hops_sum / (double)t->lat_pkts;
    }
    s->lat_p50 = net_hist_quantile_in(r->hist, 0.5, t->lat_min, t->lat_max);
    s->lat_p99 = net_hist_quantile_in(r->hist, 0.99, t->lat_min, t->lat_max);
    s->lat_max = t->lat_max;
    if (t->msgs_lat)
        s->mlat_mean = (double)t->mlat_sum_q / NET_LAT_Q / (double)t->msgs_lat;
    s->mlat_p50 = net_hist_quantile_in(r->mhist, 0.5, t->mlat_min, t->mlat_max);
    s->mlat_p99 = net_hist_quantile_in(r->mhist, 0.99, t->mlat_min, t->mlat_max);
    s->mlat_max = t->mlat_max;
    s->msgs_delivered = t->msgs_delivered;
    for (uint64_t p = 0; p < r->routers * (uint64_t)r->max_radix; p++) {
        double u = r->port_rows[p * NET_PORT_COLS] / s->window_ns;
        if (u > s->busiest_util) {
            s->busiest_util = u;
            s->busiest_router = p / (uint64_t)r->max_radix;
            s->busiest_port = (int32_t)(p % (uint64_t)r->max_radix);
        }
    }
    for (uint64_t term = 0; net_model_routers(n) && term < r->nodes; term++) {
        double u = r->term_rows[term * NET_TERM_COLS + 6] / s->window_ns;
        if (u > s->busiest_util) {
            s->busiest_util = u;
            s->busiest_router = term;
            s->busiest_port = -1;
        }
    }
    /* Gateways (a network's own LPs on router ports) take packets off links
     * and put them back on; what they took and have not given back is in
     * the network's own LPs. */
    const net_flight *f = &r->flight;
    s->injected = f->term_sent;
    s->delivered = f->term_recv;
    s->queued = f->router_queued;
    s->in_gateways = f->gateway_recv - f->gateway_sent;
    uint64_t onto = f->term_sent + f->router_sent + f->gateway_sent;
    uint64_t off = f->router_recv + f->term_recv + f->gateway_recv;
    s->on_links = onto - off;
    s->conserved = onto >= off && f->gateway_recv >= f->gateway_sent &&
                   s->injected == s->delivered + s->queued + s->on_links + s->in_gateways &&
                   f->router_recv - f->router_sent == f->router_queued;
}

void wn_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", (unsigned)(unsigned char)*s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

void wn_summary_describe(wn_summary *s, const net_model *n, warp_ini *ini, const char *run_file, uint64_t seed)
{
    s->routing = net_model_routing(n, ini);
    s->run_file = run_file;
    s->seed = seed;
    s->preset = net_model_preset(n);
    s->router = net_model_routers(n) ? warp_ini_string(ini, "network", "router", "input-queued") : NULL;
    const char *type = warp_ini_get(ini, "workload", "type");
    const char *pattern = warp_ini_get(ini, "workload", "pattern");
    int traffic = !type || !strcmp(type, "traffic");
    s->pattern = traffic ? (pattern ? pattern : "uniform") : NULL;
    s->load = !traffic || warp_ini_get(ini, "workload", "interval") ? -1
                                                                   : warp_ini_double(ini, "workload", "load", 0.1, 1e-9, 1.0);
    if (!type || !strcmp(type, "traffic"))
        snprintf(s->workload, sizeof s->workload, "traffic, pattern %s", pattern ? pattern : "uniform");
    else
        snprintf(s->workload, sizeof s->workload, "%s", type);
}

static double path_mean(uint64_t sum_q, uint64_t count)
{
    return count ? (double)sum_q / NET_LAT_Q / (double)count : 0;
}

/* Latency covers what was sent after the warm-up and delivered by the end;
 * when nothing was, there is no latency to show (not a latency of 0). */
static void print_latency(FILE *f, const char *what, const char *units, uint64_t count, double mean,
                          double p50, double p99, double max, double warmup)
{
    if (count)
        fprintf(f, "%s   mean %.6g ns, p50 %.4g, p99 %.4g, max %.6g (%llu %s sent after warm-up)\n", what,
                mean, p50, p99, max, (unsigned long long)count, units);
    else
        fprintf(f, "%s   none: no %s sent after the warm-up (%.6g ns) arrived by the end; the network "
                   "is saturated or the window too short\n", what, units, warmup);
}

void wn_summary_print(const wn_summary *s, const net_model *n, const net_results *r, FILE *f)
{
    const net_term_out *t = &r->total;
    fprintf(f, "== warpnet: %s, %llu nodes, %llu routers, %llu application ranks\n",
            net_model_topology_name(n), (unsigned long long)net_nodes(n),
            (unsigned long long)net_model_routers(n), (unsigned long long)net_ranks(n));
    fprintf(f, "run file          %s\n", s->run_file);
    if (s->preset)
        fprintf(f, "preset            %s\n", s->preset);
    if (s->routing)
        fprintf(f, "routing           %s\n", s->routing);
    if (s->router)
        fprintf(f, "router            %s\n", s->router);
    fprintf(f, "workload          %s\n", s->workload);
    if (s->load >= 0)
        fprintf(f, "load              %.6g of injection bandwidth (configured)\n", s->load);
    fprintf(f, "seed              %llu\n", (unsigned long long)s->seed);
    fprintf(f, "window            %.6g ns (warmup excluded)\n", s->window_ns);
    /* With ranks on only some nodes, the per-node loads average over idle
     * nodes too: say so, and give the load of a node that holds a rank. */
    double per_rank = net_ranks(n) < net_nodes(n) && net_ranks(n) ? (double)net_nodes(n) / (double)net_ranks(n) : 0;
    fprintf(f, "offered load      %.4f of injection bandwidth (%.4g GB/s per node", s->offered,
            s->offered_gbps);
    if (per_rank)
        fprintf(f, "; %.4f, %.4g GB/s per active rank", s->offered * per_rank, s->offered_gbps * per_rank);
    fprintf(f, ")\naccepted load     %.4f of injection bandwidth (%.4g GB/s per node", s->accepted,
            s->accepted_gbps);
    if (per_rank)
        fprintf(f, "; %.4f, %.4g GB/s per active rank", s->accepted * per_rank, s->accepted_gbps * per_rank);
    fprintf(f, ")\n");
    if (s->ref.gbps > 0)
        fprintf(f, "reference         %.4g GB/s per node, %.4g %% of injection (%s): accepted "
                   "%.4g %% of reference\n",
                s->ref.gbps, 100 * s->ref.of_injection, s->ref.source, s->accepted_pct_of_ref);
    fprintf(f, "packets           injected %llu, delivered %llu\n",
            (unsigned long long)t->injected_pkts, (unsigned long long)t->delivered_pkts);
    fprintf(f, "messages          offered %llu, delivered %llu\n",
            (unsigned long long)t->offered_msgs, (unsigned long long)t->msgs_delivered);
    print_latency(f, "packet latency ", "packets", t->lat_pkts, s->lat_mean, s->lat_p50, s->lat_p99,
                  s->lat_max, s->warmup_ns);
    print_latency(f, "message latency", "messages", t->msgs_lat, s->mlat_mean, s->mlat_p50, s->mlat_p99,
                  s->mlat_max, s->warmup_ns);
    fprintf(f, "last delivery     %.9g ns\n", t->t_last);
    fprintf(f, "hops              mean %.4f router-to-router links\n", s->hops_mean);
    if (net_model_routers(n) && s->busiest_port < 0)
        fprintf(f, "busiest link      %.4f utilisation (into terminal %llu)\n", s->busiest_util,
                (unsigned long long)s->busiest_router);
    else if (net_model_routers(n))
        fprintf(f, "busiest link      %.4f utilisation (into router %llu port %d)\n",
                s->busiest_util, (unsigned long long)s->busiest_router, (int)s->busiest_port);
    if (r->flight.gateway_recv)
        fprintf(f, "conservation      injected %llu = delivered %llu + in flight %llu (queued %llu, "
                   "on links %llu, in the network's own LPs %llu): %s\n",
                (unsigned long long)s->injected, (unsigned long long)s->delivered,
                (unsigned long long)(s->queued + s->on_links + s->in_gateways),
                (unsigned long long)s->queued, (unsigned long long)s->on_links,
                (unsigned long long)s->in_gateways, s->conserved ? "ok" : "VIOLATED");
    else
        fprintf(f, "conservation      injected %llu = delivered %llu + in flight %llu (queued %llu, on links %llu): %s\n",
                (unsigned long long)s->injected, (unsigned long long)s->delivered,
                (unsigned long long)(s->queued + s->on_links), (unsigned long long)s->queued,
                (unsigned long long)s->on_links, s->conserved ? "ok" : "VIOLATED");
    for (int i = 0; net_model_path_name(n, i); i++) {
        const net_path_out *p = &r->paths[i];
        fprintf(f, "path %-12s packets %llu, messages %llu; packet latency mean %.6g ns, max %.6g; "
                   "message latency mean %.6g ns, max %.6g\n",
                net_model_path_name(n, i), (unsigned long long)p->pkts,
                (unsigned long long)p->msgs, path_mean(p->lat_sum_q, p->lat_pkts), p->lat_max,
                path_mean(p->mlat_sum_q, p->msgs_lat), p->mlat_max);
    }
    net_model_network_report(n, f);
    const void *wl;
    const net_workload_ops *w = net_model_workload(n, &wl);
    if (w->report)
        w->report(wl, n, f);
}

static void json_lat(FILE *f, const char *name, double mean, double p50, double p99, double max)
{
    fprintf(f, "  \"%s\": {\"mean\": %.17g, \"p50\": %.17g, \"p99\": %.17g, \"max\": %.17g},\n",
            name, mean, p50, p99, max);
}

static FILE *open_in(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return fopen(path, "w");
}

static int write_json(const wn_summary *s, const net_model *n, const net_results *r,
                      const warp_stats *st, const char *dir, const char *run_id)
{
    FILE *f = open_in(dir, "summary.json");
    if (!f)
        return -1;
    const net_term_out *t = &r->total;
    fprintf(f, "{\n  \"topology\": \"%s\",\n", net_model_topology_name(n));
    fprintf(f, "  \"nodes\": %llu,\n  \"routers\": %llu,\n  \"ranks\": %llu,\n",
            (unsigned long long)net_nodes(n), (unsigned long long)net_model_routers(n),
            (unsigned long long)net_ranks(n));
    fputs("  \"run_file\": ", f);
    wn_json_string(f, s->run_file);
    fputs(",\n  \"preset\": ", f);
    if (s->preset)
        wn_json_string(f, s->preset);
    else
        fputs("null", f);
    fputs(",\n", f);
    if (s->routing)
        fprintf(f, "  \"routing\": \"%s\",\n", s->routing);
    if (s->router)
        fprintf(f, "  \"router\": \"%s\",\n", s->router);
    fprintf(f, "  \"workload\": \"%s\",\n", s->workload);
    fputs("  \"pattern\": ", f);
    if (s->pattern)
        wn_json_string(f, s->pattern);
    else
        fputs("null", f);
    if (s->load >= 0)
        fprintf(f, ",\n  \"load\": %.17g", s->load);
    else
        fputs(",\n  \"load\": null", f);
    fprintf(f, ",\n  \"seed\": %llu,\n", (unsigned long long)s->seed);
    fprintf(f, "  \"window_ns\": %.17g,\n", s->window_ns);
    fprintf(f, "  \"offered_load\": %.17g,\n  \"accepted_load\": %.17g,\n", s->offered,
            s->accepted);
    fprintf(f, "  \"offered_gbps_per_node\": %.17g,\n  \"accepted_gbps_per_node\": %.17g,\n",
            s->offered_gbps, s->accepted_gbps);
    if (net_ranks(n) && net_ranks(n) < net_nodes(n)) { /* loads of the nodes that hold a rank */
        double k = (double)net_nodes(n) / (double)net_ranks(n);
        fprintf(f, "  \"offered_load_per_rank\": %.17g,\n  \"accepted_load_per_rank\": %.17g,\n",
                s->offered * k, s->accepted * k);
    }
    if (s->ref.gbps > 0) {
        fprintf(f, "  \"reference\": {\"gbps_per_node\": %.17g, \"of_injection\": %.17g, "
                   "\"source\": \"%s\"},\n",
                s->ref.gbps, s->ref.of_injection, s->ref.source);
        fprintf(f, "  \"accepted_pct_of_reference\": %.17g,\n", s->accepted_pct_of_ref);
    }
    fprintf(f, "  \"injected_packets\": %llu,\n  \"delivered_packets\": %llu,\n",
            (unsigned long long)t->injected_pkts, (unsigned long long)t->delivered_pkts);
    fprintf(f, "  \"offered_messages\": %llu,\n  \"delivered_messages\": %llu,\n",
            (unsigned long long)t->offered_msgs, (unsigned long long)t->msgs_delivered);
    json_lat(f, "packet_latency_ns", s->lat_mean, s->lat_p50, s->lat_p99, s->lat_max);
    json_lat(f, "message_latency_ns", s->mlat_mean, s->mlat_p50, s->mlat_p99, s->mlat_max);
    fprintf(f, "  \"latency_packets\": %llu,\n  \"latency_messages\": %llu,\n",
            (unsigned long long)t->lat_pkts, (unsigned long long)t->msgs_lat);
    fprintf(f, "  \"last_delivery_ns\": %.17g,\n", t->t_last);
    fprintf(f, "  \"hops_mean\": %.17g,\n  \"busiest_link_utilisation\": %.17g,\n", s->hops_mean,
            s->busiest_util);
    fprintf(f, "  \"in_flight_packets\": %llu,\n  \"conservation_ok\": %s,\n",
            (unsigned long long)(s->queued + s->on_links + s->in_gateways),
            s->conserved ? "true" : "false");
    if (net_model_path_name(n, 0)) {
        fprintf(f, "  \"paths\": {");
        for (int i = 0; net_model_path_name(n, i); i++) {
            const net_path_out *p = &r->paths[i];
            fprintf(f, "%s\n    \"%s\": {\"packets\": %llu, \"messages\": %llu, "
                       "\"packet_latency_mean_ns\": %.17g, \"packet_latency_max_ns\": %.17g, "
                       "\"message_latency_mean_ns\": %.17g, \"message_latency_max_ns\": %.17g}",
                    i ? "," : "", net_model_path_name(n, i), (unsigned long long)p->pkts,
                    (unsigned long long)p->msgs, path_mean(p->lat_sum_q, p->lat_pkts), p->lat_max,
                    path_mean(p->mlat_sum_q, p->msgs_lat), p->mlat_max);
        }
        fprintf(f, "\n  },\n");
    }
    net_model_network_json(n, f);
    fprintf(f, "  \"engine\": {\"committed_digest\": \"%016llx\", \"committed\": %llu, "
               "\"processed\": %llu, \"rolled_back\": %llu, \"efficiency\": %.17g, "
               "\"event_rate\": %.17g, \"run_s\": %.17g, \"setup_s\": %.17g, "
               "\"peak_event_bytes\": %llu},\n  \"run_id\": \"%s\"\n}\n",
            (unsigned long long)st->digest, (unsigned long long)st->committed,
            (unsigned long long)st->processed, (unsigned long long)st->rolled_back,
            st->efficiency, st->event_rate, st->run_s, st->setup_s,
            (unsigned long long)st->peak_event_bytes, run_id);
    return fclose(f);
}

static int write_csvs(const wn_summary *s, const net_model *n, const net_results *r,
                      const char *dir)
{
    FILE *f = open_in(dir, "terminals.csv");
    if (!f)
        return -1;
    fprintf(f, "terminal,injected_packets,injected_bytes,delivered_packets,delivered_bytes,"
               "latency_mean_ns,hops_mean,eject_utilisation\n");
    for (uint64_t i = 0; i < r->nodes; i++) {
        const double *row = r->term_rows + i * NET_TERM_COLS;
        fprintf(f, "%llu,%.0f,%.0f,%.0f,%.0f,%.9g,%.6g,%.6g\n", (unsigned long long)i, row[0],
                row[1], row[2], row[3], row[4], row[5], row[6] / s->window_ns);
    }
    if (fclose(f) != 0)
        return -1;
    f = open_in(dir, "ports.csv");
    if (!f)
        return -1;
    fprintf(f, "router,port,in_busy_ns,in_utilisation,in_packets,in_bytes,out_queue_mean_bytes,"
               "out_queue_max_bytes\n");
    for (uint64_t p = 0; p < r->routers * (uint64_t)r->max_radix; p++) {
        const double *row = r->port_rows + p * NET_PORT_COLS;
        fprintf(f, "%llu,%d,%.9g,%.6g,%.0f,%.0f,%.6g,%.0f\n",
                (unsigned long long)(p / (uint64_t)r->max_radix), (int)(p % (uint64_t)r->max_radix),
                row[0], row[0] / s->window_ns, row[1], row[2], row[3], row[4]);
    }
    if (fclose(f) != 0)
        return -1;
    f = open_in(dir, "latency_hist.csv");
    if (!f)
        return -1;
    fprintf(f, "bin_low_ns,bin_high_ns,packets,messages\n");
    for (int b = 0; b < NET_HIST_BINS; b++) {
        if (!r->hist[b] && !r->mhist[b])
            continue;
        double lo = b == 0 ? 0 : ldexp(1.0 + (double)((b - 1) % NET_HIST_SUB) / NET_HIST_SUB,
                                       (b - 1) / NET_HIST_SUB);
        double hi = b == 0 ? 1 : ldexp(1.0 + (double)((b - 1) % NET_HIST_SUB + 1) / NET_HIST_SUB,
                                       (b - 1) / NET_HIST_SUB);
        fprintf(f, "%.9g,%.9g,%u,%u\n", lo, hi, r->hist[b], r->mhist[b]);
    }
    return fclose(f);
}

int wn_summary_write(const wn_summary *s, const net_model *n, const net_results *r,
                     const warp_stats *st, const char *dir, const char *run_id)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return -1;
    if (write_json(s, n, r, st, dir, run_id) != 0)
        return -1;
    return write_csvs(s, n, r, dir);
}
