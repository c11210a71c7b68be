/* codes_simple.c — CODES's analytic networks as Warpnet's: modelnet_simplenet
 * (startup + bytes/bandwidth) onto simplenet, modelnet_loggp (a Netgauge
 * table of L, g, G per message size) onto loggp, modelnet_simplep2p (per-pair
 * latency and bandwidth matrices) onto simplenet with matrices. Invariant:
 * every timing rule in which CODES and Warpnet differ is said on stderr.
 * Called by convert_codes.c. Units as CODES's: ns, MiB/s, LogGP table in us. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codes_conv.h"

/* The node count and the scheduler: CODES's analytic NICs are one LP per
 * node; fcfs sends messages in order (fcfs-full whole, as Warpnet's). */
static long long analytic_nodes(conv *v, const char *section)
{
    long long nodes = v->reps * v->nics;
    fprintf(v->fnet, "topology = %-21s # %s modelnet_%s\n", section, v->grp, v->model);
    char val[32];
    snprintf(val, sizeof val, "%lld", nodes);
    cv_line(v->ftopo, "nodes", val, "%s repetitions = %lld x modelnet_%s = %lld", v->grp, v->reps, v->model,
            v->nics);
    codes_kv *s = cv_param(v, "modelnet_scheduler");
    if (s && strcmp(s->val[0], "fcfs") && strcmp(s->val[0], "fcfs-full"))
        cv_note(v, s, "Warpnet's NICs send messages in order (CODES's fcfs); no other scheduler");
    else
        cv_mention(v->fnet, s, "Warpnet's NICs send whole messages in order");
    return nodes;
}

/* CODES's model-net cuts messages into packet_size packets (512 when not
 * given; none under fcfs-full), each timed on its own; returns that size. */
static double codes_packet(conv *v)
{
    codes_kv *s = cv_param(v, "modelnet_scheduler");
    codes_kv *p = cv_param(v, "packet_size");
    double packet = cv_num(v, "packet_size", 512, NULL);
    if (s && !strcmp(s->val[0], "fcfs-full"))
        return INFINITY;
    if (p)
        cv_note(v, p, "CODES times each packet_size packet of a message on its own (each pays the "
                "startup or gap again); Warpnet's analytic NICs time whole messages");
    return packet;
}

void cv_convert_simplenet(conv *v)
{
    analytic_nodes(v, "simplenet");
    if (!cv_param(v, "net_startup_ns") || !cv_param(v, "net_bw_mbps"))
        cv_fail(v, "PARAMS net_startup_ns and net_bw_mbps are required by CODES's simplenet");
    double lat = cv_num(v, "net_startup_ns", 0, NULL), bw = cv_num(v, "net_bw_mbps", 0, NULL);
    if (!(lat > 0))
        cv_fail(v, "PARAMS net_startup_ns = %g: Warpnet's simplenet needs a positive latency (its "
                "lookahead)", lat);
    if (!(bw > 0))
        cv_fail(v, "PARAMS net_bw_mbps = %g: a bandwidth must be positive", bw);
    char val[64];
    snprintf(val, sizeof val, "%.10gns", lat);
    cv_line(v->ftopo, "latency", val, "PARAMS net_startup_ns (ns)");
    snprintf(val, sizeof val, "%.10gMiB/s", bw);
    cv_line(v->ftopo, "bandwidth", val, "PARAMS net_bw_mbps (MiB/s: simplenet.c divides bytes by 1024*1024)");
    codes_packet(v);
    fprintf(stderr, "warpnet: %s: CODES's simplenet keeps a sender busy net_startup_ns + bytes/bandwidth per "
            "packet, Warpnet's bytes/bandwidth per message; unloaded, both deliver a message after "
            "startup + bytes/bandwidth\n", v->c.path);
}

typedef struct loggp_row {
    double size, L, g, G; /* bytes; us, us, us per byte as Netgauge writes them */
    int line;
} loggp_row;

/* Reads the Netgauge table as loggp.c does: '#' lines skipped, 11 numbers a line. */
static int read_loggp_table(conv *v, const char *path, loggp_row *rows, int max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        cv_fail(v, "PARAMS net_config_file: cannot open %s (CODES opens it relative to the config's folder)",
                path);
    char buf[1024];
    int n = 0, line = 0;
    while (fgets(buf, sizeof buf, f)) {
        line++;
        if (buf[0] == '#' || buf[strspn(buf, " \t\r\n")] == 0)
            continue;
        double x[11];
        int got = sscanf(buf, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &x[0], &x[1], &x[2], &x[3],
                         &x[4], &x[5], &x[6], &x[7], &x[8], &x[9], &x[10]);
        if (got != 11 || n == max) {
            fclose(f);
            cv_fail(v, "%s:%d: %s", path, line, n == max ? "more rows than CODES's loggp reads (100)"
                    : "want 11 numbers (size n PRTT(1,0,s) PRTT(n,0,s) PRTT(n,PRTT(1,0,s),s) L o_s o_r g G "
                    "lsqu(g,G)), as CODES's loggp");
        }
        rows[n++] = (loggp_row){.size = x[0], .L = x[5], .g = x[8], .G = x[9], .line = line};
    }
    fclose(f);
    if (!n)
        cv_fail(v, "%s: no rows (CODES's loggp needs at least one)", path);
    return n;
}

void cv_convert_loggp(conv *v)
{
    analytic_nodes(v, "loggp");
    codes_kv *cf = cv_param(v, "net_config_file");
    if (!cf)
        cv_fail(v, "PARAMS net_config_file is missing: CODES's loggp reads L, g and G from that Netgauge table");
    char *path = cv_relpath(v, cf);
    loggp_row rows[100];
    int n = read_loggp_table(v, path, rows, 100);
    /* The run file's workload sends MSG-byte messages; CODES times them as
     * packets of at most packet_size bytes, each with the row for its size. */
    const double msg = 1024;
    double packet = codes_packet(v), size = packet < msg ? packet : msg;
    int r = 0; /* loggp.c's find_params: the first row above the size, else the last */
    while (r < n && !(rows[r].size > size))
        r++;
    if (r == n)
        r = n - 1;
    const loggp_row *w = &rows[r];
    if (!(isfinite(w->L) && isfinite(w->g) && isfinite(w->G)) || w->L < 0 || w->g < 0 || w->G < 0)
        cv_fail(v, "%s:%d: the row CODES uses for %.0f-byte packets has L = %g, g = %g, G = %g; Warpnet's "
                "loggp needs numbers of at least 0", path, w->line, size, w->L, w->g, w->G);
    char val[64];
    snprintf(v->workload, sizeof v->workload, "%-32s #\n%-32s #\n%-32s # the LogGP row of [loggp] is CODES's "
             "for %.0f-byte packets\n", "pattern = uniform", "load = 0.5", "message_size = 1024B", size);
    static const char *const key[] = {"L", "g", "G"};
    const double us[] = {w->L, w->g, w->G};
    for (int k = 0; k < 3; k++) {
        snprintf(val, sizeof val, "%.10gns", us[k] * 1000);
        cv_line(v->ftopo, key[k], val, "%s line %d, size %.0f: %s = %g us%s", cf->val[0], w->line, w->size, key[k],
                us[k], k == 2 ? " per byte" : "");
    }
    cv_line(v->ftopo, "o", "0ns", "CODES's loggp does not charge o_s or o_r (loggp.c: they overlap L)");
    cv_line(v->ftopo, "O", "0ns", "CODES's loggp has no per-byte overhead");
    fprintf(stderr, "warpnet: %s: CODES's loggp looks L, g and G up per message size in %s (%d rows); "
            "Warpnet's loggp has one set: the row for %.0f-byte packets (line %d, size %.0f) is converted; "
            "other message sizes differ\n", v->c.path, path, n, size, w->line, w->size);
    fprintf(stderr, "warpnet: %s: CODES's loggp receiver adds (bytes-1)G before the message is complete; "
            "Warpnet's gives o + (bytes-1)G to the receiving rank's CPU\n", v->c.path);
    free(path);
}

/* Reads a simplep2p matrix as CODES's parse_mat: lines of "out,in" (or
 * "x") entries; returns N, the lines, checked square. bw (n x n, may be
 * NULL) receives the smaller half of each entry: 0 where a pair has no link. */
static long long read_p2p_matrix(conv *v, const char *key, const char *path, double *bw, long long n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        cv_fail(v, "PARAMS %s: cannot open %s (CODES opens it relative to the config's folder)", key, path);
    char buf[1 << 14];
    long long rows = 0, cols = -1;
    int line = 0;
    while (fgets(buf, sizeof buf, f)) {
        line++;
        long long c = 0;
        for (char *save, *t = strtok_r(buf, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save), c++) {
            char *end, *comma = strchr(t, ',');
            double out = strtod(t, &end), in = out;
            if (comma && end == comma)
                in = strtod(comma + 1, &end);
            if (*end || !(out >= 0) || !(in >= 0)) {
                fclose(f);
                cv_fail(v, "%s:%d: entry %lld is \"%s\"; CODES's simplep2p wants numbers of at least 0, "
                        "\"out,in\" per pair", path, line, c + 1, t);
            }
            if (bw && rows < n && c < n)
                bw[rows * n + c] = out < in ? out : in;
        }
        if (!c)
            continue;
        if (cols >= 0 && c != cols) {
            fclose(f);
            cv_fail(v, "%s:%d: %lld entries, the first line %lld: CODES's simplep2p reads a square matrix",
                    path, line, c, cols);
        }
        cols = c;
        rows++;
    }
    fclose(f);
    if (rows != cols || rows < 1)
        cv_fail(v, "%s: %lld lines of %lld entries: CODES's simplep2p reads a square matrix (one line per "
                "node)", path, rows, cols);
    return rows;
}

void cv_convert_simplep2p(conv *v)
{
    v->section = "simplenet";
    long long nodes = analytic_nodes(v, "simplenet");
    codes_kv *lk = cv_param(v, "net_latency_ns_file"), *bk = cv_param(v, "net_bw_mbps_file");
    if (!lk || !bk)
        cv_fail(v, "PARAMS net_latency_ns_file and net_bw_mbps_file are required by CODES's simplep2p");
    char *lat = cv_relpath(v, lk), *bwp = cv_relpath(v, bk);
    long long nl = read_p2p_matrix(v, "net_latency_ns_file", lat, NULL, 0);
    long long nb = read_p2p_matrix(v, "net_bw_mbps_file", bwp, NULL, 0);
    if (nl != nb || nl != nodes)
        cv_fail(v, "the matrices are %lld x %lld (%s) and %lld x %lld (%s) for %lld simplep2p nodes; Warpnet's "
                "matrices have one line per node", nl, nl, lat, nb, nb, bwp, nodes);
    double *bw = calloc((size_t)(nodes * nodes), sizeof *bw);
    if (!bw)
        cv_fail(v, "out of memory");
    read_p2p_matrix(v, "net_bw_mbps_file", bwp, bw, nodes);
    cv_line(v->ftopo, "latency_matrix", lat, "PARAMS net_latency_ns_file (ns; the \"out\" half, as CODES's "
            "simplep2p)");
    cv_line(v->ftopo, "bandwidth_matrix", bwp, "PARAMS net_bw_mbps_file (MiB/s; \"out\" at the sender, \"in\" "
            "at the receiver)");
    codes_packet(v);
    long long si = -1, sj = -1, unlinked = 0;
    char list[256] = "";
    for (long long i = 0; i < nodes; i++)
        for (long long j = 0; j < nodes; j++) {
            if (i == j)
                continue;
            if (bw[i * nodes + j] > 0) {
                if (si < 0)
                    si = i, sj = j;
            } else if (unlinked++ < 8) {
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%lld-%lld", *list ? ", " : "", i, j);
            }
        }
    free(bw);
    if (si < 0)
        cv_fail(v, "%s: no pair of nodes has a bandwidth: CODES's simplep2p would stop on any message", bwp);
    if (unlinked) {
        fprintf(stderr, "warpnet: %s: %s leaves %lld pairs without a link (%s%s): CODES stops on a message "
                "between them, and so does Warpnet; the run file's workload sends from node %lld to %lld only\n",
                v->c.path, bwp, unlinked, list, unlinked > 8 ? ", ..." : "", si, sj);
        snprintf(v->workload, sizeof v->workload, "%-32s # uniform traffic would use the pairs without a link\n"
                 "src = %-26lld #\ndst = %-26lld #\n%-32s #\n", "pattern = pair", si, sj, "load = 0.5");
    }
    fprintf(stderr, "warpnet: %s: CODES's simplep2p queues each destination (sender) and each source "
            "(receiver) apart; Warpnet's NICs queue all of a node's messages together\n", v->c.path);
    free(lat);
    free(bwp);
}
