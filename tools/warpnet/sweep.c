/* warpnet/sweep.c — `warpnet sweep`: runs one simulation per value of a
 * config key (each a separate process, optionally under $MPIEXEC -n NP),
 * collects their summary.json into sweep.csv and plots throughput and
 * latency against the swept value with gnuplot when it is installed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "summary.h"

#define SWEEP_MAX_POINTS 1000

static void sweep_fail(const char *what)
{
    fprintf(stderr, "warpnet: sweep: %s\n", what);
    exit(2);
}

/* Value of a top-level or nested numeric JSON key in text (first match). */
static int json_number(const char *text, const char *key, double *v)
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

static char *slurp(const char *path)
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
static void add_word(char *cmd, size_t cap, const char *w)
{
    size_t len = strlen(cmd);
    if (len + 4 + 4 * strlen(w) >= cap)
        sweep_fail("command line too long");
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

static void plot(const char *dir)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        fprintf(stderr, "warpnet: sweep: gnuplot not found; wrote %s/sweep.csv only "
                        "(install gnuplot-nox for PNG plots)\n", dir);
        return;
    }
    char script[20000];
    snprintf(script, sizeof script,
             "set datafile separator ','; set terminal pngcairo size 800,500 noenhanced; set key left top; set grid;\n"
             "set output '%s/throughput.png'; set xlabel 'offered load (fraction of injection bandwidth)';\n"
             "set ylabel 'accepted load'; plot '%s/sweep.csv' using 2:3 skip 1 with linespoints title 'accepted', x title 'offered' dt 2;\n"
             "set output '%s/latency.png'; set ylabel 'packet latency (ns)'; set logscale y;\n"
             "plot '%s/sweep.csv' using 2:4 skip 1 with linespoints title 'mean', '' using 2:6 skip 1 with linespoints title 'p99';\n",
             dir, dir, dir, dir);
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

int wn_sweep_main(const char *self, int argc, char **argv)
{
    const char *run = NULL, *vary = NULL, *out = "sweep.out";
    char csv[1200];
    int np = 0;
    char passthrough[16384] = "";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--vary") == 0 && i + 1 < argc)
            vary = argv[++i];
        else if (strncmp(argv[i], "--vary=", 7) == 0)
            vary = argv[i] + 7;
        else if (strncmp(argv[i], "--out=", 6) == 0)
            out = argv[i] + 6;
        else if (strncmp(argv[i], "--np=", 5) == 0)
            np = atoi(argv[i] + 5);
        else if (!run && argv[i][0] != '-')
            run = argv[i];
        else
            add_word(passthrough, sizeof passthrough, argv[i]);
    }
    if (!run || !vary)
        sweep_fail("usage: warpnet sweep RUN.ini --vary section.key=FIRST:LAST:STEP "
                   "[--out=DIR] [--np=RANKS] [options]");
    char key[256];
    double a = 0, b = 0, step = 0;
    const char *eq = strchr(vary, '=');
    if (!eq || (size_t)(eq - vary) >= sizeof key || !strchr(vary, '.') ||
        sscanf(eq + 1, "%lf:%lf:%lf", &a, &b, &step) != 3 || !(step > 0) || b < a)
        sweep_fail("--vary wants section.key=FIRST:LAST:STEP with FIRST <= LAST and STEP > 0 "
                   "(e.g. workload.load=0.1:1.0:0.1)");
    memcpy(key, vary, (size_t)(eq - vary));
    key[eq - vary] = 0;
    int npts = (int)((b - a) / step + 1e-9) + 1;
    if (npts > SWEEP_MAX_POINTS)
        sweep_fail("more than 1000 points; use a larger STEP");
    if (mkdir(out, 0777) != 0 && !is_dir(out))
        sweep_fail("cannot create the --out directory");
    if (strlen(out) > 900)
        sweep_fail("--out path too long");
    snprintf(csv, sizeof csv, "%s/sweep.csv", out);
    FILE *f = fopen(csv, "w");
    if (!f)
        sweep_fail("cannot write sweep.csv in the --out directory");
    fprintf(f, "%s,offered_load,accepted_load,latency_mean_ns,latency_p50_ns,latency_p99_ns,"
               "message_latency_mean_ns,hops_mean,committed_events,run_s\n", key);
    const char *mpiexec = getenv("MPIEXEC");
    for (int i = 0; i < npts; i++) {
        double v = a + i * step;
        char dir[1024], cmd[32768] = "", arg[1100];
        snprintf(dir, sizeof dir, "%s/point-%03d", out, i);
        if (np > 0) {
            snprintf(cmd, sizeof cmd, "%s -n %d", mpiexec && *mpiexec ? mpiexec : "mpiexec", np);
        }
        add_word(cmd, sizeof cmd, self);
        add_word(cmd, sizeof cmd, run);
        snprintf(arg, sizeof arg, "--%s=%.10g", key, v);
        add_word(cmd, sizeof cmd, arg);
        snprintf(arg, sizeof arg, "--out=%s", dir);
        add_word(cmd, sizeof cmd, arg);
        size_t len = strlen(cmd);
        snprintf(cmd + len, sizeof cmd - len, "%s > '%s.log' 2>&1", passthrough, dir);
        fprintf(stderr, "warpnet: sweep: %s = %.10g (%d of %d)\n", key, v, i + 1, npts);
        int rc = system(cmd);
        char path[4200];
        snprintf(path, sizeof path, "%s/summary.json", dir);
        char *js = slurp(path);
        if (rc != 0 || !js) {
            fprintf(stderr, "warpnet: sweep: the run for %s = %.10g failed; see %s.log\n", key, v,
                    dir);
            free(js);
            fclose(f);
            return 2;
        }
        const char *names[] = {"offered_load", "accepted_load", "mean", "p50", "p99"};
        double x[9] = {0};
        for (int k = 0; k < 2; k++)
            json_number(js, names[k], &x[k]);
        const char *pl = strstr(js, "\"packet_latency_ns\"");
        for (int k = 2; k < 5 && pl; k++)
            json_number(pl, names[k], &x[k]);
        const char *ml = strstr(js, "\"message_latency_ns\"");
        if (ml)
            json_number(ml, "mean", &x[5]);
        json_number(js, "hops_mean", &x[6]);
        json_number(js, "committed", &x[7]);
        json_number(js, "run_s", &x[8]);
        fprintf(f, "%.10g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.6g,%.0f,%.4g\n", v, x[0], x[1], x[2],
                x[3], x[4], x[5], x[6], x[7], x[8]);
        free(js);
    }
    fclose(f);
    plot(out);
    printf("sweep: %d points in %s/sweep.csv\n", npts, out);
    return 0;
}
