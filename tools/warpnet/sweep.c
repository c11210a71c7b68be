/* warpnet/sweep.c — `warpnet sweep`: runs one simulation per value of a
 * config key (each a separate process, optionally under $MPIEXEC -n NP),
 * collects their summary.json into sweep.csv and plots throughput and
 * latency against the swept value with gnuplot when it is installed.
 * `--series section.key=a,b,c` (repeatable: every combination) repeats the
 * sweep once per value and draws one curve per series in the same plots;
 * sweep.csv then starts with one column per series key, rows series-major,
 * and point-NNN counts on across series. `--title=TEXT` titles the plots. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "summary.h"

#define SWEEP_MAX_POINTS 1000
#define SWEEP_MAX_KEYS 4     /* --series options */
#define SWEEP_MAX_VALUES 16  /* values of one --series */

/* One --series option: a key and its values (pointers into a copy of argv). */
typedef struct series_key {
    char *key;
    char *val[SWEEP_MAX_VALUES];
    int n;
    char *text;
} series_key;

static void sweep_fail(const char *what)
{
    warp_fatal(WARP_EXIT_USAGE, "sweep: %s", what);
}

/* Value of a top-level or nested numeric JSON key in text (first match). */
int wn_json_number(const char *text, const char *key, double *v)
{
    char pat[128];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(text, pat);
    if (!p)
        return -1;
    p += strlen(pat);
    while (*p == ' ' || *p == '{')
        p++;
    return sscanf(p, "%lf", v) == 1 ? 0 : -1;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

char *wn_slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 16);
    size_t n = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
    (void)n;
    fclose(f);
    return buf;
}

/* Appends a shell-quoted word to cmd. */
void wn_add_word(char *cmd, size_t cap, const char *w)
{
    size_t len = strlen(cmd);
    if (len + 4 + 4 * strlen(w) >= cap)
        warp_fatal(WARP_EXIT_USAGE, "a command line of a run is too long");
    cmd[len++] = ' ';
    cmd[len++] = '\'';
    for (; *w; w++) {
        if (*w == '\'') {
            memcpy(cmd + len, "'\\''", 4);
            len += 4;
        } else {
            cmd[len++] = *w;
        }
    }
    cmd[len++] = '\'';
    cmd[len] = 0;
}

/* The value of key k in series j: series count every combination, the
 * last key's values varying fastest. */
static const char *series_value(const series_key *sk, int nk, int j, int k)
{
    for (int m = nk - 1; m > k; m--)
        j /= sk[m].n;
    return sk[k].val[j % sk[k].n];
}

/* Values of series j joined by " / " (the legend). */
static void series_label(const series_key *sk, int nk, int j, char *buf, size_t n)
{
    buf[0] = 0;
    for (int k = 0; k < nk; k++)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", k ? " / " : "",
                 series_value(sk, nk, j, k));
}

/* Appends to script a plot of column ycol (1-based, not counting the
 * series columns) against offered load: one curve per series, titled by
 * its values, or for a single series one titled `single`; then `extra`. */
static void plot_lines(char *script, size_t cap, const char *dir, const series_key *sk, int nk,
                       int nseries, int npts, int ycol, const char *single, const char *extra)
{
    size_t len = strlen(script);
    len += (size_t)snprintf(script + len, cap - len, "plot");
    for (int j = 0; j < nseries; j++) {
        char label[300];
        series_label(sk, nk, j, label, sizeof label);
        len += (size_t)snprintf(script + len, cap - len,
                                "%s '%s/sweep.csv' using %d:%d skip 1 every ::%d::%d with "
                                "linespoints title '%s'",
                                j ? "," : "", dir, 2 + nk, ycol + nk, j * npts,
                                j * npts + npts - 1, nseries > 1 ? label : single);
    }
    snprintf(script + len, cap - len, "%s;\n", extra);
    if (strlen(script) + 1 >= cap)
        sweep_fail("too many series to plot");
}

static void plot(const char *dir, const char *title_arg, const series_key *sk, int nk,
                 int nseries, int npts)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        fprintf(stderr, "warpnet: sweep: gnuplot not found; wrote %s/sweep.csv only "
                        "(install gnuplot-nox for PNG plots)\n", dir);
        return;
    }
    char script[40000], extra[2000], title[600] = "";
    for (int k = 0; k < nk && !title_arg; k++)
        snprintf(title + strlen(title), sizeof title - strlen(title), "%s%s", k ? " / " : "",
                 sk[k].key);
    if (title_arg)
        for (size_t i = 0; title_arg[i] && i + 1 < sizeof title; i++) /* no quote ends it */
            title[i] = title_arg[i] == '\'' ? '"' : title_arg[i];
    snprintf(script, sizeof script,
             "set datafile separator ','; set terminal pngcairo size 800,500 noenhanced; set key left top; set grid;\n"
             "set title '%s';\n"
             "set output '%s/throughput.png'; set xlabel 'offered load (fraction of injection bandwidth)';\n"
             "set ylabel 'accepted load';\n",
             title, dir);
    plot_lines(script, sizeof script, dir, sk, nk, nseries, npts, 3, "accepted",
               ", x title 'offered' dt 2");
    snprintf(script + strlen(script), sizeof script - strlen(script),
             "set output '%s/latency.png'; set ylabel 'packet latency (ns)%s'; set logscale y;\n",
             dir, nseries > 1 ? ", mean" : "");
    if (nseries > 1)
        extra[0] = 0;
    else
        snprintf(extra, sizeof extra, ", '' using %d:%d skip 1 with linespoints title 'p99'",
                 2 + nk, 6 + nk);
    plot_lines(script, sizeof script, dir, sk, nk, nseries, npts, 4, "mean", extra);
    char path[1200];
    snprintf(path, sizeof path, "%s/plot.gp", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        sweep_fail("cannot write plot.gp into the output directory");
    fputs(script, f);
    fclose(f);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>/dev/null || gnuplot -e \"set terminal png\" '%s'",
             path, path);
    if (system(cmd) != 0)
        fprintf(stderr, "warpnet: sweep: gnuplot failed; the data are in %s/sweep.csv\n", dir);
}

/* Parses "section.key=a,b,c" into sk (keeps a copy of the text). */
static void parse_series(series_key *sk, const char *arg)
{
    sk->text = strdup(arg);
    char *eq = sk->text ? strchr(sk->text, '=') : NULL;
    if (!eq || eq == sk->text || !memchr(sk->text, '.', (size_t)(eq - sk->text)) || !eq[1])
        sweep_fail("--series wants section.key=VALUE,VALUE,... (e.g. slimfly.routing=minimal,ugal)");
    *eq = 0;
    sk->key = sk->text;
    for (char *v = strtok(eq + 1, ","); v; v = strtok(NULL, ",")) {
        if (sk->n == SWEEP_MAX_VALUES)
            sweep_fail("--series: more than 16 values for one key");
        sk->val[sk->n++] = v;
    }
    if (!sk->n)
        sweep_fail("--series: no values after '='");
}

/* Appends one point's words to cmd: the varied key's value, the series'
 * keys and its --out directory (the same for the run and its check). */
static void add_point_args(char *cmd, size_t cap, const char *key, double v, const char *unit,
                           const series_key *sk, int nk, int series, const char *dir)
{
    char arg[1100];
    snprintf(arg, sizeof arg, "--%s=%.10g%s", key, v, unit);
    wn_add_word(cmd, cap, arg);
    for (int k = 0; k < nk; k++) {
        snprintf(arg, sizeof arg, "--%s=%s", sk[k].key, series_value(sk, nk, series, k));
        wn_add_word(cmd, cap, arg);
    }
    snprintf(arg, sizeof arg, "--out=%s", dir);
    wn_add_word(cmd, cap, arg);
}

/* Runs one point: the command line of the run, its summary.json into a row
 * of f after the series values. Returns 0, or -1 when the run failed. */
static int run_point(FILE *f, const char *self, const char *run, const char *key, double v, const char *unit,
                     const series_key *sk, int nk, int series, const char *passthrough, int np,
                     const char *dir)
{
    const char *mpiexec = getenv("MPIEXEC");
    char cmd[32768] = "";
    if (np > 0)
        snprintf(cmd, sizeof cmd, "%s -n %d", mpiexec && *mpiexec ? mpiexec : "mpiexec", np);
    wn_add_word(cmd, sizeof cmd, self);
    wn_add_word(cmd, sizeof cmd, run);
    add_point_args(cmd, sizeof cmd, key, v, unit, sk, nk, series, dir);
    size_t len = strlen(cmd);
    snprintf(cmd + len, sizeof cmd - len, "%s > '%s.log' 2>&1", passthrough, dir);
    int rc = system(cmd);
    char path[4200];
    snprintf(path, sizeof path, "%s/summary.json", dir);
    char *js = wn_slurp(path);
    if (rc != 0 || !js) {
        free(js);
        return -1;
    }
    const char *names[] = {"offered_load", "accepted_load", "mean", "p50", "p99"};
    double x[9] = {0};
    for (int k = 0; k < 2; k++)
        wn_json_number(js, names[k], &x[k]);
    const char *pl = strstr(js, "\"packet_latency_ns\"");
    for (int k = 2; k < 5 && pl; k++)
        wn_json_number(pl, names[k], &x[k]);
    const char *ml = strstr(js, "\"message_latency_ns\"");
    if (ml)
        wn_json_number(ml, "mean", &x[5]);
    wn_json_number(js, "hops_mean", &x[6]);
    wn_json_number(js, "committed", &x[7]);
    wn_json_number(js, "run_s", &x[8]);
    for (int k = 0; k < nk; k++)
        fprintf(f, "%s,", series_value(sk, nk, series, k));
    fprintf(f, "%.10g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.6g,%.0f,%.4g,", v, x[0], x[1], x[2], x[3],
            x[4], x[5], x[6], x[7], x[8]);
    double pct; /* empty without [network] reference_bandwidth */
    if (wn_json_number(js, "accepted_pct_of_reference", &pct) == 0)
        fprintf(f, "%.6g", pct);
    fputc('\n', f);
    free(js);
    return 0;
}

/* Checks one point's settings before any point runs (`warpnet --describe`
 * with them, one process): a bad third point once failed after two had
 * run. Returns 0, or -1 with the describe's error line printed. */
static int check_point(const char *self, const char *run, const char *key, double v, const char *unit,
                       const series_key *sk, int nk, int series, const char *passthrough, const char *dir)
{
    char cmd[32768] = "", log[1100];
    wn_add_word(cmd, sizeof cmd, self);
    wn_add_word(cmd, sizeof cmd, "--describe");
    wn_add_word(cmd, sizeof cmd, run);
    add_point_args(cmd, sizeof cmd, key, v, unit, sk, nk, series, dir);
    snprintf(log, sizeof log, "%s.check", dir);
    size_t len = strlen(cmd);
    snprintf(cmd + len, sizeof cmd - len, "%s > /dev/null 2> '%s'", passthrough, log);
    int rc = system(cmd);
    char *err = wn_slurp(log);
    remove(log);
    if (rc != 0)
        fprintf(stderr, "%s", err && *err ? err : "warpnet: sweep: --describe of a point failed\n");
    free(err);
    return rc == 0 ? 0 : -1;
}

/* FIRST:LAST:STEP, each a number with the same unit after it (or none):
 * the unit goes back onto every point's value. */
static void parse_range(const char *s, double *x, char *unit, size_t cap)
{
    const char *p = s;
    char u[3][32];
    for (int i = 0; i < 3; i++) {
        char *e;
        x[i] = strtod(p, &e);
        size_t n = strcspn(e, ":");
        if (e == p || n >= sizeof u[i] || (i < 2) != (e[n] == ':'))
            sweep_fail("--vary wants section.key=FIRST:LAST:STEP, numbers with one unit or none "
                       "(e.g. workload.load=0.1:1.0:0.1 or network.link_bandwidth=10GB/s:50GB/s:10GB/s)");
        memcpy(u[i], e, n);
        u[i][n] = 0;
        p = e + n + (e[n] == ':');
    }
    if (strcmp(u[0], u[1]) || strcmp(u[0], u[2]))
        sweep_fail("--vary: FIRST, LAST and STEP need the same unit (e.g. 10GB/s:50GB/s:10GB/s)");
    if (!(x[2] > 0) || x[1] < x[0])
        sweep_fail("--vary wants FIRST <= LAST and STEP > 0 (e.g. workload.load=0.1:1.0:0.1)");
    snprintf(unit, cap, "%s", u[0]);
}

static const char sweep_usage[] =
    "usage: warpnet sweep RUN.ini --vary section.key=FIRST:LAST:STEP [--series section.key=A,B,...]\n"
    "                     [--title=TEXT] [--out=DIR] [--np=RANKS] [warpnet options]\n"
    "Runs RUN.ini once per value of --vary (and per combination of --series values), each point\n"
    "into DIR/point-NNN (default DIR: sweep.out), and collects the figures in DIR/sweep.csv with\n"
    "plots (gnuplot). FIRST, LAST and STEP may carry one unit (10GB/s:50GB/s:10GB/s). Every\n"
    "point is checked (warpnet --describe) before the first runs. --np=RANKS runs each point\n"
    "under mpiexec -n RANKS; other options go to every warpnet run. Example:\n"
    "  warpnet sweep examples/configs/slimfly-q5.ini --vary workload.load=0.1:0.9:0.2 \\\n"
    "      --series slimfly.routing=minimal,ugal --end=5us\n";

int wn_sweep_main(const char *self, int argc, char **argv)
{
    const char *run = NULL, *vary = NULL, *out = "sweep.out", *title = NULL;
    char csv[1200];
    int np = 0, nk = 0, nseries = 1;
    series_key sk[SWEEP_MAX_KEYS] = {{0}};
    char passthrough[16384] = "";
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(sweep_usage, stdout);
            return 0;
        }
    for (int i = 1; i < argc; i++) {
        const char *series = NULL, *v = NULL;
        if (strcmp(argv[i], "--vary") == 0 && i + 1 < argc)
            v = argv[++i];
        else if (strncmp(argv[i], "--vary=", 7) == 0)
            v = argv[i] + 7;
        if (v && vary)
            sweep_fail("--vary given twice; a sweep varies one key (add --series for others)");
        if (v)
            vary = v;
        else if (strcmp(argv[i], "--series") == 0 && i + 1 < argc)
            series = argv[++i];
        else if (strncmp(argv[i], "--series=", 9) == 0)
            series = argv[i] + 9;
        else if (strncmp(argv[i], "--out=", 6) == 0)
            out = argv[i] + 6;
        else if (strncmp(argv[i], "--title=", 8) == 0)
            title = argv[i] + 8;
        else if (strncmp(argv[i], "--np=", 5) == 0) {
            char *e;
            long n = strtol(argv[i] + 5, &e, 10);
            if (e == argv[i] + 5 || *e || n < 1 || n > 1 << 20)
                warp_fatal(WARP_EXIT_USAGE, "sweep: %s: give 1 or more ranks", argv[i]);
            np = (int)n;
        }
        else if (!run && argv[i][0] != '-')
            run = argv[i];
        else
            wn_add_word(passthrough, sizeof passthrough, argv[i]);
        if (series) {
            if (nk == SWEEP_MAX_KEYS)
                sweep_fail("more than 4 --series options");
            parse_series(&sk[nk], series);
            nseries *= sk[nk++].n;
        }
    }
    if (!run || !vary)
        sweep_fail("usage: warpnet sweep RUN.ini --vary section.key=FIRST:LAST:STEP "
                   "[--series section.key=A,B,...] [--title=TEXT] [--out=DIR] [--np=RANKS] "
                   "[options]; see warpnet sweep --help");
    char key[256], unit[32];
    const char *eq = strchr(vary, '=');
    if (!eq || (size_t)(eq - vary) >= sizeof key || !memchr(vary, '.', (size_t)(eq - vary)))
        sweep_fail("--vary wants section.key=FIRST:LAST:STEP (e.g. workload.load=0.1:1.0:0.1)");
    double range[3];
    parse_range(eq + 1, range, unit, sizeof unit);
    double a = range[0], b = range[1], step = range[2];
    memcpy(key, vary, (size_t)(eq - vary));
    key[eq - vary] = 0;
    for (int k = 0; k < nk; k++)
        if (strcmp(sk[k].key, key) == 0)
            sweep_fail("--series and --vary name the same key");
    int npts = (int)((b - a) / step + 1e-9) + 1;
    if ((long)npts * nseries > SWEEP_MAX_POINTS)
        sweep_fail("more than 1000 points in all; use a larger STEP or fewer series");
    if (mkdir(out, 0777) != 0 && !is_dir(out))
        sweep_fail("cannot create the --out directory");
    if (strlen(out) > 900)
        sweep_fail("--out path too long");
    for (int j = 0; j < nseries; j++)
        for (int i = 0; i < npts; i++) {
            char dir[1024];
            snprintf(dir, sizeof dir, "%s/point-%03d", out, j * npts + i);
            if (check_point(self, run, key, a + i * step, unit, sk, nk, j, passthrough, dir) != 0) {
                char label[300];
                series_label(sk, nk, j, label, sizeof label);
                warp_fatal(WARP_EXIT_USAGE, "sweep: the point %s%s%s = %.10g%s is refused (above); nothing ran",
                           label, nk ? ", " : "", key, a + i * step, unit);
            }
        }
    snprintf(csv, sizeof csv, "%s/sweep.csv", out);
    FILE *f = fopen(csv, "w");
    if (!f)
        sweep_fail("cannot write sweep.csv in the --out directory");
    for (int k = 0; k < nk; k++)
        fprintf(f, "%s,", sk[k].key);
    fprintf(f, "%s%s%s%s,offered_load,accepted_load,latency_mean_ns,latency_p50_ns,latency_p99_ns,"
               "message_latency_mean_ns,hops_mean,committed_events,run_s,accepted_pct_of_reference\n", key,
            *unit ? " (" : "", unit, *unit ? ")" : "");
    for (int j = 0; j < nseries; j++)
        for (int i = 0; i < npts; i++) {
            double v = a + i * step;
            char dir[1024], label[300];
            snprintf(dir, sizeof dir, "%s/point-%03d", out, j * npts + i);
            series_label(sk, nk, j, label, sizeof label);
            fprintf(stderr, "warpnet: sweep: %s%s%s = %.10g%s (%d of %d)\n", label, nk ? ", " : "",
                    key, v, unit, j * npts + i + 1, npts * nseries);
            if (run_point(f, self, run, key, v, unit, sk, nk, j, passthrough, np, dir) != 0) {
                fprintf(stderr, "warpnet: sweep: the run for %s%s%s = %.10g failed; see %s.log\n",
                        label, nk ? ", " : "", key, v, dir);
                fclose(f);
                return 2;
            }
        }
    fclose(f);
    plot(out, title, sk, nk, nseries, npts);
    for (int k = 0; k < nk; k++)
        free(sk[k].text);
    printf("sweep: %d points in %s/sweep.csv\n", npts * nseries, out);
    return 0;
}
