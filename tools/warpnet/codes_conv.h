/* codes_conv.h — the state of one `warpnet convert codes` run and the helpers
 * its per-model converters share (convert_codes.c defines them; the packet
 * networks live there, the analytic ones in codes_simple.c). */
#ifndef WN_CODES_CONV_H
#define WN_CODES_CONV_H

#include <stdio.h>

#include "codes_conf.h"

typedef struct conv {
    codes_conf c;
    const char *model;         /* CODES model: torus, fattree, ..., simplenet, loggp, simplep2p */
    const char *section;       /* the run file's topology section (the model's, unless set) */
    long long reps, nics, servers, routers_per_rep;
    const char *grp;           /* the LPGROUPS section holding the network */
    char *net, *topo, *hints;  /* run-file sections being written */
    size_t net_n, topo_n, hints_n;
    FILE *fnet, *ftopo, *fhints;
    int nnotes;
    char workload[512];        /* [workload] lines when uniform traffic does not fit the network */
} conv;

/* Stops the conversion: "warpnet: FILE: what" on stderr, exit 2. */
void cv_fail(conv *v, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
/* Lists a CODES parameter without a Warpnet equivalent on stderr, with why. */
void cv_note(conv *v, const codes_kv *kv, const char *why);
/* Writes "key = value   # comment" to a run-file section. */
void cv_line(FILE *f, const char *key, const char *value, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The PARAMS key (NULL if absent), marked used. */
codes_kv *cv_param(conv *v, const char *key);
/* A parameter converted without a key of its own: a comment naming it (nothing for NULL). */
void cv_mention(FILE *f, const codes_kv *kv, const char *why);
/* A numeric PARAMS value, or dflt (then *given = 0; given may be NULL). */
double cv_num(conv *v, const char *key, double dflt, int *given);
/* The comment for a key from PARAMS key (or CODES's default when !given). */
const char *cv_from(int given, const char *key, char *buf, size_t n, const char *unit);
/* "a,b,c" or ("a","b","c") as at most max integers; returns the count. */
int cv_int_list(conv *v, const codes_kv *kv, long long *out, int max);
/* packet_size, chunk_size and the scheduler of the packet networks. */
void cv_packets(conv *v, double dflt_packet, double dflt_chunk);

/* A bandwidth key from PARAMS codes_key (dflt when absent), in GiB/s (gib) or GB/s. */
void cv_bandwidth(conv *v, FILE *f, const char *key, const char *codes_key, double dflt, int gib);
/* A size key in bytes from PARAMS codes_key (dflt when absent); what is the comment's unit. */
void cv_bytes(conv *v, FILE *f, const char *key, const char *codes_key, double dflt, const char *what);
/* A time key in ns from PARAMS codes_key (dflt, CODES's default, when absent). */
void cv_ns(conv *v, FILE *f, const char *key, const char *codes_key, double dflt);
/* cn_vc_size against vc_size: named when equal, listed on stderr when not. */
void cv_node_buffers(conv *v);
/* [network] router = output-queued, the router CODES's model what is (its queues are per output port). */
void cv_router(conv *v, const char *what);

/* CODES's fat-tree, pruned, tapered and multi-rail (codes_fattree.c). */
void cv_convert_fattree(conv *v);

/* CODES's dragonflies (codes_dfly.c): dragonfly.c, dragonfly-custom and
 * -dally with their wiring files, dragonfly-plus. */
void cv_convert_dragonfly(conv *v);
void cv_convert_dragonfly_custom(conv *v);
void cv_convert_dragonfly_dally(conv *v);
void cv_convert_dragonfly_plus(conv *v);

/* The analytic networks (codes_simple.c): modelnet_simplenet, modelnet_loggp
 * and modelnet_simplep2p onto Warpnet's simplenet and loggp. */
void cv_convert_simplenet(conv *v);
void cv_convert_loggp(conv *v);
void cv_convert_simplep2p(conv *v);

/* A file CODES names in PARAMS key, as CODES opens it (relative to the
 * config's folder); malloc'd, or NULL when the key is absent. */
char *cv_relpath(conv *v, const codes_kv *kv);

#endif
