/* codes_sniff.c — tells the non-config files CODES keeps beside its network
 * configs apart by their lines (codes_sniff.h). Invariant: a file with any
 * of the config grammar's marks ({, =, ") is never sniffed, so every config
 * reaches the config reader. Called by convert_codes.c before it parses. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codes_sniff.h"

enum { L_INT = 1, L_NUM = 2, L_PAIR = 4, L_JOB = 8, L_OTHER = 16 };

static int is_int(const char *t)
{
    char *end;
    (void)strtoll(t, &end, 10);
    return end != t && !*end;
}

static int is_num(const char *t)
{
    char *end;
    (void)strtod(t, &end);
    return end != t && !*end;
}

/* What kinds of token one line holds; *ntok receives their count. */
static int line_kind(char *s, int *ntok)
{
    int kind = 0, i = 0;
    for (char *save, *t = strtok_r(s, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save), i++) {
        char *comma = strchr(t, ',');
        if (comma) {
            *comma = 0;
            kind |= is_num(t) && is_num(comma + 1) ? L_PAIR : L_OTHER;
        } else if (is_int(t)) {
            kind |= L_INT;
        } else if (is_num(t)) {
            kind |= L_NUM;
        } else {
            kind |= i == 1 && (kind & L_INT) && !(kind & ~L_INT) ? L_JOB : L_OTHER;
        }
    }
    *ntok = i;
    return kind;
}

static int sniff(char *buf, size_t len, const char *path, char *msg, size_t n);

int codes_sniff(const char *path, char *msg, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    enum { HEAD = 1 << 16 }; /* the first lines tell; a config says so at its start */
    char *buf = malloc(HEAD);
    if (!buf) {
        fclose(f);
        return 0;
    }
    size_t len = fread(buf, 1, HEAD - 1, f);
    fclose(f);
    buf[len] = 0;
    int kind = sniff(buf, len, path, msg, n);
    free(buf);
    return kind;
}

static int sniff(char *buf, size_t len, const char *path, char *msg, size_t n)
{
    if (memchr(buf, 0, len)) {
        snprintf(msg, n, "%s: a binary file, not a CODES network config (CODES's dragonfly-custom, -plus "
                 "and -dally link files are binary: convert the config that names them in "
                 "intra-group-connections / inter-group-connections)", path);
        return 1;
    }
    if (strpbrk(buf, "{=\""))
        return 0;
    int all = 0, lines = 0, fields = -1, same = 1;
    for (char *save, *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        l += strspn(l, " \t\r");
        if (!*l || *l == '#')
            continue;
        int k, ntok;
        k = line_kind(l, &ntok);
        if (k & L_JOB)
            k = L_JOB; /* "RANKS NAME ARGS...": the arguments may be anything */
        all |= k;
        same &= fields < 0 || ntok == fields;
        fields = ntok;
        lines++;
    }
    if (!lines || (all & L_OTHER))
        return 0;
    if (all == L_INT)
        snprintf(msg, n, "%s: this is a CODES allocation file (the nodes of each job, one job a line), not "
                 "a network config; convert the network config the run uses (CODES takes this file "
                 "with --alloc_file)", path);
    else if (all == L_JOB)
        snprintf(msg, n, "%s: this is a CODES workload list (ranks and workload of each job, one job a "
                 "line), not a network config; convert the network config the run uses (CODES takes "
                 "this file with --workloads_conf_file)", path);
    else if (all & L_PAIR && !(all & L_JOB))
        snprintf(msg, n, "%s: this is a CODES simplep2p latency or bandwidth matrix (\"out,in\" per pair), "
                 "not a network config; convert the config that names it in net_latency_ns_file / "
                 "net_bw_mbps_file", path);
    else if (!(all & (L_JOB | L_PAIR)) && same && fields == 11)
        snprintf(msg, n, "%s: this is a Netgauge LogGP table (size n PRTT... L o_s o_r g G), not a network "
                 "config; convert the modelnet_loggp config that names it in net_config_file", path);
    else
        return 0;
    return 1;
}
