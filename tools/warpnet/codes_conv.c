/* codes_conv.c — the helpers every CODES model converter shares
 * (codes_conv.h): keys with their units and comments, notes on stderr, the
 * packet and scheduler keys. Invariant: a key read is marked used, so the
 * converter lists every other one. Called by convert_codes.c and codes_simple.c. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codes_conv.h"
#include "warp_error.h"

void cv_fail(conv *v, const char *fmt, ...)
{
    char what[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    warp_fatal(WARP_EXIT_USAGE, "%s: %s", v->c.path, what);
}

/* A parameter with no Warpnet equivalent, said on stderr. */
void cv_note(conv *v, const codes_kv *kv, const char *why)
{
    fprintf(stderr, "warpnet: %s:%d: %s%s%s = %s%s: %s\n", v->c.path, kv->line,
            strcmp(kv->section, "PARAMS") ? kv->section : "PARAMS", " ", kv->key, kv->val[0],
            kv->nval > 1 ? ", ..." : "", why);
    v->nnotes++;
}

void cv_line(FILE *f, const char *key, const char *value, const char *fmt, ...)
{
    char kv[160];
    snprintf(kv, sizeof kv, "%s = %s", key, value);
    fprintf(f, "%-32s # ", kv);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
}

codes_kv *cv_param(conv *v, const char *key) { return codes_find(&v->c, "PARAMS", key); }

/* A parameter converted without a key of its own: a comment line naming it. */
void cv_mention(FILE *f, const codes_kv *kv, const char *why)
{
    if (kv)
        fprintf(f, "# PARAMS %s = %s%s: %s\n", kv->key, kv->val[0], kv->nval > 1 ? ", ..." : "", why);
}

char *cv_relpath(conv *v, const codes_kv *kv)
{
    if (!kv)
        return NULL;
    const char *f = kv->val[0], *slash = strrchr(v->c.path, '/');
    if (f[0] == '/' || !slash)
        return warp_xstrdup(f);
    size_t dir = (size_t)(slash - v->c.path) + 1, n = dir + strlen(f) + 1;
    char *p = warp_xrealloc(NULL, n);
    snprintf(p, n, "%.*s%s", (int)dir, v->c.path, f);
    return p;
}

/* A numeric PARAMS value, or dflt (then *given = 0). */
double cv_num(conv *v, const char *key, double dflt, int *given)
{
    codes_kv *kv = cv_param(v, key);
    if (given)
        *given = kv != NULL;
    if (!kv)
        return dflt;
    char *end;
    double x = strtod(kv->val[0], &end);
    if (end == kv->val[0] || *end || !isfinite(x))
        cv_fail(v, "line %d: PARAMS %s = \"%s\" is not a number", kv->line, key, kv->val[0]);
    return x;
}

const char *cv_from(int given, const char *key, char *buf, size_t n, const char *unit)
{
    if (given)
        snprintf(buf, n, "PARAMS %s (%s)", key, unit);
    else
        snprintf(buf, n, "PARAMS %s not given: CODES's default (%s)", key, unit);
    return buf;
}

/* "a,b,c" or ("a","b","c") as integers; returns the count. */
int cv_int_list(conv *v, const codes_kv *kv, long long *out, int max)
{
    int n = 0;
    for (int i = 0; i < kv->nval; i++) {
        char *s = kv->val[i], *end;
        for (;;) {
            long long x = strtoll(s, &end, 10);
            if (end == s || n == max)
                cv_fail(v, "line %d: PARAMS %s = \"%s\": want a list of at most %d integers", kv->line,
                     kv->key, kv->val[i], max);
            out[n++] = x;
            while (*end == ' ')
                end++;
            if (!*end)
                break;
            if (*end != ',')
                cv_fail(v, "line %d: PARAMS %s: '%c' in a list of integers", kv->line, kv->key, *end);
            s = end + 1;
        }
    }
    return n;
}

/* chunk_size and packet_size, shared by every model: the packet size, and
 * the switching that CODES's flit forwarding corresponds to. */
void cv_packets(conv *v, double dflt_packet, double dflt_chunk)
{
    int pg, cg;
    double packet = cv_num(v, "packet_size", dflt_packet, &pg);
    double chunk = cv_num(v, "chunk_size", dflt_chunk, &cg);
    char b[160], val[64];
    snprintf(val, sizeof val, "%.0fB", packet);
    cv_line(v->fnet, "packet_size", val, "%s", cv_from(pg, "packet_size", b, sizeof b, "bytes"));
    if (chunk >= packet)
        cv_line(v->fnet, "switching", "store-forward", "PARAMS chunk_size = %.0f >= packet_size: whole "
             "packets move hop by hop", chunk);
    else
        cv_line(v->fnet, "switching", "cut-through", "PARAMS chunk_size = %.0f < packet_size: CODES "
             "forwards %.0f-byte flits, Warpnet whole packets by virtual cut-through", chunk, chunk);
    codes_kv *s = cv_param(v, "modelnet_scheduler");
    if (s && strcmp(s->val[0], "fcfs"))
        cv_note(v, s, "Warpnet's NICs inject messages in order (CODES's fcfs); no other scheduler");
    else
        cv_mention(v->fnet, s, "Warpnet's NICs send messages in order, as fcfs");
}

void cv_bandwidth(conv *v, FILE *f, const char *key, const char *codes_key, double dflt, int gib)
{
    int g;
    double bw = cv_num(v, codes_key, dflt, &g);
    if (!(bw > 0))
        cv_fail(v, "PARAMS %s = %g: a bandwidth must be positive", codes_key, bw);
    char b[160], val[64];
    snprintf(val, sizeof val, "%.10g%s", bw, gib ? "GiB/s" : "GB/s");
    cv_line(f, key, val, "%s", cv_from(g, codes_key, b, sizeof b, gib ? "GiB/s in this CODES model" :
                                                                  "GB/s = bytes/ns in CODES's fat-tree"));
}

void cv_bytes(conv *v, FILE *f, const char *key, const char *codes_key, double dflt, const char *what)
{
    int g;
    double x = cv_num(v, codes_key, dflt, &g);
    char b[200], val[64];
    snprintf(val, sizeof val, "%.0fB", x);
    cv_line(f, key, val, "%s", cv_from(g, codes_key, b, sizeof b, what));
}

void cv_ns(conv *v, FILE *f, const char *key, const char *codes_key, double dflt)
{
    int g;
    double x = cv_num(v, codes_key, dflt, &g);
    char b[160], val[64];
    snprintf(val, sizeof val, "%.10gns", x);
    cv_line(f, key, val, "%s", cv_from(g, codes_key, b, sizeof b, "ns"));
}

/* cn_vc_size: Warpnet's node-side buffers are vc_buffer (vc_size) too. */
void cv_node_buffers(conv *v)
{
    codes_kv *cvc = cv_param(v, "cn_vc_size"), *vc = cv_param(v, "vc_size");
    if (cvc && !(vc && !strcmp(vc->val[0], cvc->val[0])))
        cv_note(v, cvc, "Warpnet's node-side buffers are vc_buffer too; a separate size is not converted");
    else
        cv_mention(v->fnet, cvc, "the same as vc_size: vc_buffer covers it");
}

/* CODES's packet routers pick a packet's output port when it arrives and
 * queue it there, per VC: Warpnet's output-queued router. The input-queued
 * default would add head-of-line blocking that CODES does not have (the
 * converted Slim Fly q = 5 at load 0.5: 501 ns input-queued, 290 ns
 * output-queued, mean packet latency). */
void cv_router(conv *v, const char *what)
{
    cv_line(v->fnet, "router", "output-queued", "CODES's %s queues each packet at its output port on arrival",
            what);
}
