/* codes_dfly.c — CODES's dragonflies onto Warpnet's: dragonfly.c (1-D,
 * a·h + 1 groups), dragonfly-custom (Cascade rows x columns groups) and
 * dragonfly-dally (1-D groups) with their wiring files, dragonfly-plus
 * (leaf-spine groups). Invariant: a wiring file is read here with Warpnet's
 * own readers (or, for dragonfly-plus, checked against the arrangement
 * written), so a run file that converts is one Warpnet accepts, and a file
 * that does not fit is refused naming it. Called by convert_codes.c.
 * Bandwidths in GiB/s, delays in ns, sizes in bytes, as CODES's. */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "codes_conv.h"
#include "dragonfly/dragonfly_files.h"
#include "dragonfly/dragonfly_shape.h"
#include "warp_error.h"

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* A wiring file CODES names in PARAMS key, as an absolute path. CODES
 * fopen()s it from the folder it runs in (its confs say "../src/..." from
 * a build folder, or "@abs_srcdir@/..." in templates): it is looked for as
 * given, then with any leading "../" or "@...@/" removed below the conf's
 * folder and each folder above it, then next to the conf. *how says
 * which, for the run file's comment. */
static char *wiring_file(conv *v, const char *key, char *how, size_t hn)
{
    codes_kv *kv = cv_param(v, key);
    if (!kv)
        cv_fail(v, "PARAMS %s is missing: CODES's %s reads its wiring from it", key, v->model);
    const char *f = kv->val[0], *rest = f;
    char dir[PATH_MAX], cand[2 * PATH_MAX + 2], *found = NULL;
    snprintf(how, hn, "PARAMS %s", key);
    if (is_file(f))
        return realpath(f, NULL);
    if (rest[0] == '@' && strchr(rest + 1, '@') && strchr(rest + 1, '@')[1] == '/')
        rest = strchr(rest + 1, '@') + 2;
    while (!strncmp(rest, "../", 3))
        rest += 3;
    const char *slash = strrchr(v->c.path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - v->c.path) : 1, slash ? v->c.path : ".");
    for (;;) {
        snprintf(cand, sizeof cand, "%s/%s", dir, rest);
        if (is_file(cand)) {
            found = cand;
            break;
        }
        char *up = strrchr(dir, '/');
        if (!up && strcmp(dir, ".")) /* a relative folder: last, the folder warpnet runs in */
            snprintf(dir, sizeof dir, ".");
        else if (!up || up == dir)
            break;
        else
            *up = 0;
    }
    if (!found) {
        const char *base = strrchr(f, '/') ? strrchr(f, '/') + 1 : f;
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - v->c.path) : 1, slash ? v->c.path : ".");
        snprintf(cand, sizeof cand, "%s/%s", dir, base);
        if (is_file(cand))
            found = cand;
    }
    if (!found)
        cv_fail(v, "line %d: PARAMS %s = %s: no such file (looked for as given, below the config's folder and "
                "those above it, and next to the config); give the wiring file's path", kv->line, key, f);
    snprintf(how, hn, "PARAMS %s = %s, found as %s (CODES opens it from the folder it runs in)", key, f, found);
    return realpath(found, NULL);
}

/* A count key (required when dflt < 0). */
static long long count_key(conv *v, const char *key, long long dflt)
{
    int g;
    double x = cv_num(v, key, (double)dflt, &g);
    if (!g && dflt < 0)
        cv_fail(v, "PARAMS %s is missing (CODES's %s needs it)", key, v->model);
    if ((x < 1 || x != (double)(long long)x || x > 1e6) && g)
        cv_fail(v, "line %d: PARAMS %s = %g: want a count of at least 1", cv_param(v, key)->line, key, x);
    if (x < 1)
        cv_fail(v, "PARAMS %s not given: CODES's default here is %g, not a count; give it", key, x);
    return (long long)x;
}

static void count_line(conv *v, const char *key, long long x, const char *codes_key, const char *what)
{
    char val[32];
    snprintf(val, sizeof val, "%lld", x);
    cv_line(v->ftopo, key, val, "PARAMS %s (%s)", codes_key, what);
}

/* The NIC and router LP counts of the group against the shape. */
static void check_lps(conv *v, long long routers, long long p)
{
    long long per = v->routers_per_rep ? v->routers_per_rep : 1;
    if (v->reps * per != routers)
        cv_fail(v, "%s has %lld repetitions of %lld routers but the network has %lld; CODES needs them equal",
                v->grp, v->reps, per, routers);
    if (v->nics != p * per)
        cv_fail(v, "%s modelnet_%s = %lld but num_cns_per_router = %lld; CODES needs them equal", v->grp,
                v->model, v->nics, p);
}

/* routing: CODES's names onto Warpnet's; "adaptive" is UGAL-L on the
 * occupancy alone, as CODES compares queues without hop weights. */
static void routing(conv *v, const char *const *codes, const char *const *ours, const char *knows)
{
    codes_kv *r = cv_param(v, "routing");
    const char *rv = r ? r->val[0] : "minimal";
    for (int i = 0; codes[i]; i++)
        if (!strcmp(rv, codes[i])) {
            cv_line(v->ftopo, "routing", ours[i], "PARAMS routing = %s%s", rv, r ? "" : " (CODES's default)");
            if (strcmp(ours[i], "minimal") && strcmp(ours[i], "valiant"))
                cv_line(v->ftopo, "ugal_hop_weight", "false", "CODES compares queue occupancies alone");
            return;
        }
    cv_fail(v, "line %d: PARAMS routing = %s: CODES's %s knows %s", r->line, rv, v->model, knows);
}

/* adaptive_threshold: bytes a non-minimal path must save (CODES's default
 * for dragonfly-custom is local_vc_size / 8). */
static void threshold(conv *v, double dflt)
{
    int g;
    double t = cv_num(v, "adaptive_threshold", dflt, &g);
    char b[160], val[64];
    snprintf(val, sizeof val, "%.0fB", t);
    cv_line(v->ftopo, "ugal_threshold", val, "%s", cv_from(g, "adaptive_threshold", b, sizeof b, "bytes"));
}

/* Bandwidths and buffers per link kind, CODES's defaults. */
static void link_kinds(conv *v, const double *bw_dflt, const double *vc_dflt)
{
    static const char *const kind[] = {"local", "global", "terminal"};
    static const char *const bw[] = {"local_bandwidth", "global_bandwidth", "cn_bandwidth"};
    static const char *const vc[] = {"local_vc_size", "global_vc_size", "cn_vc_size"};
    for (int k = 0; k < 3; k++) {
        char key[40];
        snprintf(key, sizeof key, "%s_bandwidth", kind[k]);
        cv_bandwidth(v, v->ftopo, key, bw[k], bw_dflt[k], 1);
        snprintf(key, sizeof key, "%s_vc_buffer", kind[k]);
        cv_bytes(v, v->ftopo, key, vc[k], vc_dflt[k], "bytes per VC");
    }
}

/* [network]: the router CODES's model has, its wire delay (none, or the
 * per-kind latencies `wire` names), its router delay. */
static void network_keys(conv *v, const char *topology, const char *src, double delay, double vc,
                         const char *wire)
{
    fprintf(v->fnet, "topology = %-21s # %s modelnet_%s\n", topology, v->grp, v->model);
    cv_router(v, src);
    char b[160];
    if (wire)
        snprintf(b, sizeof b, "CODES's %s: %s", src, wire);
    else
        snprintf(b, sizeof b, "CODES's %s has no wire delay", src);
    cv_line(v->fnet, "link_latency", "0ns", "%s", b);
    cv_ns(v, v->fnet, "router_delay", "router_delay", delay);
    cv_bytes(v, v->fnet, "vc_buffer", "local_vc_size", vc, "bytes per VC");
}

/* CODES's dragonfly-dally.cxx, unlike its other dragonflies, adds to every
 * hop a propagation delay after the chunk's time on the link: cn_delay,
 * local_delay or global_delay, by default one chunk's time on that link
 * (chunk_size over the bandwidth in GiB/s). A packet of one chunk thus
 * spends twice its serialisation on each link: the run file gives the
 * delays as wire latencies per link kind. */
static void dally_wire_delays(conv *v, const double *bw_dflt)
{
    static const char *const kind[] = {"local_latency", "global_latency", "terminal_latency"};
    static const char *const bw[] = {"local_bandwidth", "global_bandwidth", "cn_bandwidth"};
    static const char *const delay[] = {"local_delay", "global_delay", "cn_delay"};
    double chunk = cv_num(v, "chunk_size", 512, NULL);
    for (int k = 0; k < 3; k++) {
        int given;
        double ns = cv_num(v, delay[k], 0, &given);
        char val[64];
        if (given) {
            snprintf(val, sizeof val, "%.10gns", ns);
            cv_line(v->ftopo, kind[k], val, "PARAMS %s (ns): CODES's propagation delay on these links", delay[k]);
            continue;
        }
        ns = chunk / (cv_num(v, bw[k], bw_dflt[k], NULL) * 1073741824.0) * 1e9;
        snprintf(val, sizeof val, "%.10gns", ns);
        cv_line(v->ftopo, kind[k], val, "PARAMS %s not given: CODES's default, chunk_size / %s, a propagation "
                "delay dragonfly-dally adds to every hop", delay[k], bw[k]);
    }
}

/* Keys of CODES's dragonflies that tune its own VC scheme or bookkeeping. */
static void own_keys(conv *v)
{
    static const struct { const char *key, *why; } k[] = {
        {"df-dally-vc", "CODES's choice of VC scheme; Warpnet's dragonfly picks its VC classes by routing"},
        {"minimal-bias", "CODES's bias towards minimal paths in its adaptive routing; Warpnet's UGAL has "
                         "ugal_threshold"},
        {"route_scoring_metric", "CODES's path scoring; Warpnet's UGAL scores occupancy (x hops unless "
                                 "ugal_hop_weight = no)"},
        {"num_vcs_override", "Warpnet's topologies choose their VCs for deadlock freedom"},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        codes_kv *kv = cv_param(v, k[i].key);
        if (kv)
            cv_note(v, kv, k[i].why);
    }
}

static const char *const dfly_codes[] = {"minimal", "nonminimal", "non-minimal", "adaptive", "prog-adaptive",
                                         NULL};
static const char *const dfly_ours[] = {"minimal", "valiant", "valiant", "ugal-l", "par"};

/* CODES's dragonfly.c: a = num_routers routers per group, p = h = a/2,
 * g = a*h + 1 groups, every pair of groups joined by one global link. */
void cv_convert_dragonfly(conv *v)
{
    double a = cv_num(v, "num_routers", 4, NULL);
    long long ia = (long long)a, half = ia / 2, g = ia * half + 1;
    if (a < 2 || a != (double)ia)
        cv_fail(v, "PARAMS num_routers = %g: want an integer of at least 2 (routers per group)", a);
    if (v->reps * v->routers_per_rep != ia * g && v->reps != ia * g)
        cv_fail(v, "%s repetitions = %lld but num_routers = %lld gives a*g = %lld routers (g = a*a/2 + 1 = %lld "
             "groups); CODES needs them equal", v->grp, v->reps, ia, ia * g, g);
    if (v->nics != half)
        cv_fail(v, "%s modelnet_dragonfly = %lld but CODES's dragonfly puts num_routers/2 = %lld nodes on a router",
             v->grp, v->nics, half);
    network_keys(v, "dragonfly", "dragonfly.c", 50, 1024, NULL);
    cv_packets(v, 512, 512);
    count_line(v, "a", ia, "num_routers", "routers per group");
    char val[32];
    snprintf(val, sizeof val, "%lld", half);
    cv_line(v->ftopo, "p", val, "CODES's dragonfly: num_routers/2 nodes per router");
    cv_line(v->ftopo, "h", val, "CODES's dragonfly: num_routers/2 global links per router");
    snprintf(val, sizeof val, "%lld", g);
    cv_line(v->ftopo, "g", val, "CODES's dragonfly: a*h + 1 groups");
    cv_line(v->ftopo, "arrangement", "absolute", "every pair of groups joined once, as in CODES");
    fprintf(stderr, "warpnet: %s: CODES's dragonfly.c wires global link k of router r to group r + k*a; "
            "Warpnet's arrangements join the same group pairs once each but through other routers "
            "(converted as absolute)\n", v->c.path);
    routing(v, dfly_codes, dfly_ours, "minimal, nonminimal, adaptive, prog-adaptive");
    link_kinds(v, (const double[]){5.25, 4.7, 5.25}, (const double[]){1024, 2048, 1024});
}

/* The wiring files of a dragonfly-custom or -dally network: read with
 * Warpnet's readers against the shape, so what converts runs. */
static void wiring_files(conv *v, long long rows, long long cols, long long p, long long h, long long g)
{
    char ihow[3 * PATH_MAX], ohow[3 * PATH_MAX], why[600];
    char *intra = wiring_file(v, "intra-group-connections", ihow, sizeof ihow);
    char *inter = wiring_file(v, "inter-group-connections", ohow, sizeof ohow);
    uint32_t rl, cl;
    if (dfly_read_codes_intra(intra, (uint32_t)rows, (uint32_t)cols, &rl, &cl, why, sizeof why))
        cv_fail(v, "PARAMS intra-group-connections: %s", why);
    dfly_shape s;
    const char *bad = dfly_shape_init(&s, (uint32_t)(rows * cols), (uint32_t)p, (uint32_t)h, (uint32_t)g,
                                      DFLY_ABSOLUTE);
    if (!bad)
        bad = dfly_shape_cascade(&s, (uint32_t)rows, (uint32_t)cols, rl, rows > 1 ? cl : 1);
    if (bad)
        cv_fail(v, "%lld groups of %lld x %lld routers, p = %lld, h = %lld: %s", g, rows, cols, p, h, bad);
    dfly_wiring *w = dfly_read_codes_inter(inter, &s, why, sizeof why);
    if (!w)
        cv_fail(v, "PARAMS inter-group-connections: %s", why);
    if (w->unconnected)
        fprintf(stderr, "warpnet: %s: %s leaves %llu of the %lld global ports unconnected (num_global_channels "
                "= %lld per router)\n", v->c.path, inter, (unsigned long long)w->unconnected, g * rows * cols * h, h);
    dfly_wiring_free(w);
    char cols_txt[48] = "";
    if (rows > 1)
        snprintf(cols_txt, sizeof cols_txt, ", %u per pair of a column", cl);
    cv_line(v->ftopo, "intra_file", intra, "%s: %u link%s per pair of a row%s", ihow, rl, rl == 1 ? "" : "s",
            cols_txt);
    cv_line(v->ftopo, "inter_file", inter, "%s: CODES's global wiring, read as it is", ohow);
    for (int i = 0; i < 2; i++) {
        const char *key = i ? "num_col_chans" : "num_row_chans";
        uint32_t got = i ? cl : rl;
        codes_kv *kv = cv_param(v, key);
        if (kv && (i == 0 || rows > 1) && atof(kv->val[0]) != (double)got)
            cv_note(v, kv, "the intra-group file holds another count per pair: Warpnet wires what the file holds");
        else
            cv_mention(v->ftopo, kv, "the links per pair the intra-group file holds");
    }
    free(intra);
    free(inter);
}

/* CODES's dragonfly-custom.cxx: groups of num_router_rows x
 * num_router_cols routers (defaults 6 x 16), wiring from its files. */
void cv_convert_dragonfly_custom(conv *v)
{
    v->section = "dragonfly";
    long long rows = count_key(v, "num_router_rows", 6), cols = count_key(v, "num_router_cols", 16);
    long long g = count_key(v, "num_groups", -1), h = count_key(v, "num_global_channels", 10);
    long long p = count_key(v, "num_cns_per_router", rows * cols / 2);
    codes_kv *nr = cv_param(v, "num_routers");
    long long per = v->routers_per_rep ? v->routers_per_rep : 1;
    if (nr && v->reps * per != g * rows * cols)
        cv_fail(v, "line %d: PARAMS num_routers = %s: dragonfly-custom does not read it; its groups are "
                "num_router_rows x num_router_cols = %lld x %lld routers (CODES's defaults 6 x 16), %lld in "
                "all, but %s has %lld", nr->line, nr->val[0], rows, cols, g * rows * cols, v->grp, v->reps * per);
    if (nr)
        cv_note(v, nr, "dragonfly-custom does not read num_routers: its groups are num_router_rows x "
                "num_router_cols");
    check_lps(v, g * rows * cols, p);
    network_keys(v, "dragonfly", "dragonfly-custom.cxx", 100, 1024, NULL);
    cv_packets(v, 512, 512);
    count_line(v, "rows", rows, "num_router_rows", "rows of a group");
    count_line(v, "columns", cols, "num_router_cols", "columns of a group");
    count_line(v, "p", p, "num_cns_per_router", "nodes per router");
    count_line(v, "h", h, "num_global_channels", "global links per router");
    count_line(v, "g", g, "num_groups", "groups");
    wiring_files(v, rows, cols, p, h, g);
    routing(v, dfly_codes, dfly_ours, "minimal, nonminimal, adaptive, prog-adaptive");
    threshold(v, cv_num(v, "local_vc_size", 1024, NULL) / 8);
    link_kinds(v, (const double[]){5.25, 4.7, 5.25}, (const double[]){1024, 2048, 1024});
    own_keys(v);
}

/* CODES's dragonfly-dally.cxx: 1-D groups of num_routers, wiring from its
 * files (a 1 x a Cascade group in Warpnet). */
void cv_convert_dragonfly_dally(conv *v)
{
    v->section = "dragonfly";
    static const char *const refused[] = {"num_rails", "num_planes", "num_qos_levels", "num_parallel_switch_conns"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        codes_kv *kv = cv_param(v, refused[i]);
        if (kv && atof(kv->val[0]) != 1)
            cv_fail(v, "line %d: PARAMS %s = %s: several rails, planes, QoS levels or parallel links of "
                    "dragonfly-dally are not converted; Warpnet's dragonfly has one of each", kv->line,
                    refused[i], kv->val[0]);
        cv_mention(v->fnet, kv, "one, as Warpnet's dragonfly");
    }
    codes_kv *lf = cv_param(v, "link-failure-file");
    if (lf)
        cv_fail(v, "line %d: PARAMS link-failure-file: CODES's failed-link file is not converted; Warpnet's "
                "[network] failed_links takes router/port pairs", lf->line);
    long long a = count_key(v, "num_routers", -1), g = count_key(v, "num_groups", -1);
    long long h = count_key(v, "num_global_channels", 10), p = count_key(v, "num_cns_per_router", a / 2);
    check_lps(v, g * a, p);
    network_keys(v, "dragonfly", "dragonfly-dally.cxx", 100, 1024,
                 "its propagation delays are the per-kind latencies below");
    cv_packets(v, 512, 512);
    count_line(v, "rows", 1, "num_routers", "one row: every pair of a group joined");
    count_line(v, "columns", a, "num_routers", "routers per group");
    count_line(v, "p", p, "num_cns_per_router", "nodes per router");
    count_line(v, "h", h, "num_global_channels", "global links per router");
    count_line(v, "g", g, "num_groups", "groups");
    for (int i = 0; i < 2; i++)
        cv_mention(v->ftopo, cv_param(v, i ? "num_router_cols" : "num_router_rows"),
                   "dragonfly-dally does not read it (its groups are num_routers in one row)");
    wiring_files(v, 1, a, p, h, g);
    static const char *const codes[] = {"minimal", "nonminimal", "non-minimal", "adaptive", "prog-adaptive",
                                        "prog-adaptive-legacy", NULL};
    static const char *const ours[] = {"minimal", "valiant", "valiant", "ugal-l", "par", "par"};
    routing(v, codes, ours, "minimal, nonminimal, adaptive, prog-adaptive, prog-adaptive-legacy (its "
            "smart-* routings have no Warpnet equivalent)");
    threshold(v, 0);
    static const double bw_dflt[] = {5.25, 4.7, 5.25};
    link_kinds(v, bw_dflt, (const double[]){1024, 2048, 1024});
    dally_wire_delays(v, bw_dflt);
    own_keys(v);
    cv_mention(v->fnet, cv_param(v, "rail_select"), "one rail: nothing to select");
}

/* A CODES file of (src, dest) 32-bit pairs; *n pairs, malloc'd. */
static int32_t *read_pairs(conv *v, const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        cv_fail(v, "%s: cannot open it", path);
    size_t cap = 1024, k = 0;
    int32_t *e = warp_xrealloc(NULL, cap * 2 * sizeof *e);
    while (fread(e + 2 * k, sizeof *e, 2, f) == 2)
        if (++k == cap)
            e = warp_xrealloc(e, (cap *= 2) * 2 * sizeof *e);
    long at = ftell(f);
    fclose(f);
    if (at < 0 || (size_t)at != k * 2 * sizeof *e)
        cv_fail(v, "%s: %ld bytes, not whole (src, dest) pairs of 32-bit ints", path, at);
    *n = k;
    return e;
}

/* The intra-group file of a Dragonfly+ group: every leaf joined to every
 * spine by the same number of links, listed from both ends. Returns it. */
static long long dfp_intra(conv *v, const char *path, long long leaves, long long spines)
{
    size_t n;
    int32_t *e = read_pairs(v, path, &n);
    long long a = leaves + spines, *cnt = warp_xrealloc(NULL, (size_t)(a * a) * sizeof *cnt);
    memset(cnt, 0, (size_t)(a * a) * sizeof *cnt);
    for (size_t k = 0; k < n; k++) {
        int32_t s = e[2 * k], d = e[2 * k + 1];
        if (s < 0 || d < 0 || s >= a || d >= a || (s < leaves) == (d < leaves))
            cv_fail(v, "%s: entry %zu (bytes %zu-%zu): routers %d and %d are not a leaf (0..%lld) and a spine "
                    "(%lld..%lld) of a group", path, k, 8 * k, 8 * k + 7, s, d, leaves - 1, leaves, a - 1);
        cnt[s * a + d]++;
    }
    long long c = cnt[leaves];
    for (long long l = 0; l < leaves; l++)
        for (long long s = leaves; s < a; s++)
            if (cnt[l * a + s] != c || cnt[s * a + l] != c || !c)
                cv_fail(v, "%s: leaf %lld and spine %lld share %lld and %lld links (listed from each end), leaf 0 "
                        "and spine 0 %lld: Warpnet's Dragonfly+ joins every leaf to every spine by the same count",
                        path, l, s - leaves, cnt[l * a + s], cnt[s * a + l], c);
    free(cnt);
    free(e);
    return c;
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

/* The inter-group file against Warpnet's arrangements: the groups each
 * spine reaches (sorted) for every spine. Returns the arrangement whose
 * spines reach the same groups, or -1 (then *pairs says whether every pair
 * of groups at least shares the arrangement's link count). */
static int dfp_inter(conv *v, const char *path, long long leaves, long long spines, long long h, long long g,
                     int *pairs)
{
    size_t n;
    int32_t *e = read_pairs(v, path, &n);
    long long a = leaves + spines, nsp = g * spines;
    uint32_t *codes = warp_xrealloc(NULL, (size_t)(nsp * h) * sizeof *codes), *deg = warp_xrealloc(NULL, (size_t)nsp * sizeof *deg);
    memset(deg, 0, (size_t)nsp * sizeof *deg);
    for (size_t k = 0; k < n; k++) {
        int32_t s = e[2 * k], d = e[2 * k + 1];
        if (s < 0 || d < 0 || s >= g * a || d >= g * a || s % a < leaves || d % a < leaves || s / a == d / a)
            cv_fail(v, "%s: entry %zu (bytes %zu-%zu): routers %d and %d are not spines of two groups (%lld "
                    "routers a group, leaves first)", path, k, 8 * k, 8 * k + 7, s, d, a);
        long long sp = s / a * spines + (s % a - leaves);
        if (deg[sp] == h)
            cv_fail(v, "%s: entry %zu: spine %lld of group %lld has more than num_global_connections = %lld global "
                    "links", path, k, s % a - leaves, s / a, h);
        codes[sp * h + deg[sp]++] = (uint32_t)(d / a);
    }
    free(e);
    for (long long sp = 0; sp < nsp; sp++) {
        if (deg[sp] != h)
            cv_fail(v, "%s: spine %lld of group %lld has %u global links, not num_global_connections = %lld", path,
                    sp % spines, sp / spines, deg[sp], h);
        qsort(codes + sp * h, (size_t)h, sizeof *codes, cmp_u32);
    }
    int found = -1;
    *pairs = 1;
    uint32_t *ours = warp_xrealloc(NULL, (size_t)h * sizeof *ours);
    for (int arr = DFLY_ABSOLUTE; arr <= DFLY_CIRCULANT && found < 0; arr++) {
        dfly_shape s;
        if (dfly_shape_init(&s, (uint32_t)spines, 1, (uint32_t)h, (uint32_t)g, (dfly_arrangement)arr))
            cv_fail(v, "%lld groups of %lld spines with %lld global links each: more groups than the spines reach",
                    g, spines, h);
        int same = 1;
        for (long long sp = 0; sp < nsp && same; sp++) {
            for (long long k = 0; k < h; k++) {
                uint32_t far = UINT32_MAX, port;
                dfly_global_peer(&s, (uint32_t)(sp / spines), (uint32_t)((sp % spines) * h + k), &far, &port);
                ours[k] = far;
            }
            qsort(ours, (size_t)h, sizeof *ours, cmp_u32);
            same = !memcmp(ours, codes + sp * h, (size_t)h * sizeof *ours);
        }
        if (same)
            found = arr;
        if (arr == DFLY_ABSOLUTE) /* links per group pair: the arrangements all give R or R + 1 */
            for (long long i = 0; i < g && *pairs; i++) {
                long long *per = warp_xrealloc(NULL, (size_t)g * sizeof *per);
                memset(per, 0, (size_t)g * sizeof *per);
                for (long long sp = i * spines; sp < (i + 1) * spines; sp++)
                    for (long long k = 0; k < h; k++)
                        per[codes[sp * h + k]]++;
                for (long long d = 0; d < g; d++)
                    if (d != i && per[d] != dfly_links_between(&s, (uint32_t)i, (uint32_t)d))
                        *pairs = 0;
                free(per);
            }
    }
    free(ours);
    free(codes);
    free(deg);
    return found;
}

/* CODES's dragonfly-plus.cxx: groups of num_router_leaf leaves (with the
 * nodes) and num_router_spine spines (with the global links), wired by its
 * files; Warpnet's Dragonfly+ wires by an arrangement, chosen here as the
 * one whose spines reach the same groups as the file's. */
void cv_convert_dragonfly_plus(conv *v)
{
    v->section = "dragonflyplus";
    static const char *const refused[] = {"num_rails", "num_planes", "num_qos_levels"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        codes_kv *kv = cv_param(v, refused[i]);
        if (kv && atof(kv->val[0]) != 1)
            cv_fail(v, "line %d: PARAMS %s = %s: several rails, planes or QoS levels of dragonfly-plus are not "
                    "converted; Warpnet's Dragonfly+ has one of each", kv->line, refused[i], kv->val[0]);
        cv_mention(v->fnet, kv, "one, as Warpnet's Dragonfly+");
    }
    long long L = count_key(v, "num_router_leaf", -1), S = count_key(v, "num_router_spine", -1);
    long long g = count_key(v, "num_groups", -1), h = count_key(v, "num_global_connections", -1);
    long long p = count_key(v, "num_cns_per_router", 4);
    if (v->reps * v->routers_per_rep != g * (L + S) || v->reps * v->nics != g * L * p)
        cv_fail(v, "%s: %lld repetitions of %lld NICs and %lld routers; CODES's dragonfly-plus needs num_groups x "
                "(num_router_leaf + num_router_spine) = %lld routers and num_groups x num_router_leaf x "
                "num_cns_per_router = %lld NICs (on the leaves)", v->grp, v->reps, v->nics, v->routers_per_rep,
                g * (L + S), g * L * p);
    char ihow[3 * PATH_MAX], ohow[3 * PATH_MAX];
    char *intra = wiring_file(v, "intra-group-connections", ihow, sizeof ihow);
    char *inter = wiring_file(v, "inter-group-connections", ohow, sizeof ohow);
    long long c = dfp_intra(v, intra, L, S);
    int pairs, arr = dfp_inter(v, inter, L, S, h, g, &pairs);
    static const char *const arr_name[] = {"absolute", "relative", "circulant"};
    if (arr < 0 && !pairs)
        cv_fail(v, "PARAMS inter-group-connections: %s joins some pairs of groups by another number of links than "
                "any Warpnet arrangement of %lld spines x %lld global links over %lld groups", inter, S, h, g);
    network_keys(v, "dragonflyplus", "dragonfly-plus.cxx", 100, 1024, NULL);
    cv_packets(v, 512, 512);
    count_line(v, "leaves", L, "num_router_leaf", "leaf routers per group");
    count_line(v, "spines", S, "num_router_spine", "spine routers per group");
    char val[32];
    snprintf(val, sizeof val, "%lld", c);
    cv_line(v->ftopo, "level_links", val, "links between each leaf and each spine in the intra-group file");
    cv_mention(v->ftopo, cv_param(v, "num_level_chans"), "dragonfly-plus does not read it: the intra-group file "
               "gives the links per leaf-spine pair");
    count_line(v, "p", p, "num_cns_per_router", "nodes per leaf");
    count_line(v, "h", h, "num_global_connections", "global links per spine");
    count_line(v, "g", g, "num_groups", "groups");
    if (arr >= 0) {
        cv_line(v->ftopo, "arrangement", arr_name[arr], "every spine reaches the groups it reaches in the "
                "inter-group file");
        fprintf(stderr, "warpnet: %s: %s: Warpnet's %s arrangement gives every spine the global links to the "
                "same groups; the spine a link lands on at the far group may differ\n", v->c.path, inter,
                arr_name[arr]);
    } else {
        cv_line(v->ftopo, "arrangement", "absolute", "the links per pair of groups of the inter-group file");
        fprintf(stderr, "warpnet: %s: %s: no Warpnet arrangement gives each spine the same far groups as this "
                "file; converted as absolute, which joins every pair of groups by as many links\n", v->c.path,
                inter);
    }
    fprintf(v->ftopo, "# %s: checked, every leaf joined to every spine\n# %s: checked against the "
            "arrangement (stderr)\n", ihow, ohow);
    free(intra);
    free(inter);
    static const char *const codes[] = {"minimal", "non-minimal-spine", "non-minimal-leaf", "prog-adaptive",
                                        "fully-prog-adaptive", NULL};
    static const char *const ours[] = {"minimal", "valiant", "valiant", "par", "par"};
    routing(v, codes, ours, "minimal, non-minimal-spine, non-minimal-leaf, prog-adaptive, fully-prog-adaptive "
            "(its smart-* routings have no Warpnet equivalent)");
    threshold(v, 0);
    link_kinds(v, (const double[]){5.25, 4.7, 5.25}, (const double[]){1024, 2048, 1024});
    own_keys(v);
    cv_mention(v->fnet, cv_param(v, "rail_select"), "one rail: nothing to select");
}
