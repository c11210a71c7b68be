/* simple/matrix.c — simplenet's per-pair matrices (simple.h): N lines of N
 * entries, each "x" or "out,in" (CODES's simplep2p format). Invariant: a
 * matrix that loads is square, N <= SIMPLE_MATRIX_MAX, every entry finite
 * and not negative; anything else stops with the file, line and entry.
 * Called by nic.c at setup. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simple/simple.h"

/* One entry: "x" (out = in = x) or "out,in"; tok is left as it was. */
static int entry(char *tok, double *out, double *in)
{
    char *end, *comma = strchr(tok, ',');
    *out = strtod(tok, &end);
    if (end == tok || end != (comma ? comma : tok + strlen(tok)) || !isfinite(*out) || *out < 0)
        return -1;
    *in = *out;
    if (!comma)
        return 0;
    *in = strtod(comma + 1, &end);
    return end == comma + 1 || *end || !isfinite(*in) || *in < 0 ? -1 : 0;
}

/* The entries of one line, appended to m (grown by rows); returns the count. */
static uint64_t row(warp_ini *ini, const char *sec, const char *key, int lineno, char *line,
                    simple_matrix *m, uint64_t r)
{
    uint64_t n = 0;
    for (char *save, *t = strtok_r(line, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save), n++) {
        double o, i;
        if (entry(t, &o, &i))
            warp_ini_fail(ini, sec, key, "line %d: entry %llu is \"%s\"; want a number of at least 0 or "
                          "\"out,in\"", lineno, (unsigned long long)n + 1, t);
        if (m->n && n >= m->n)
            warp_ini_fail(ini, sec, key, "line %d: more than the first line's %llu entries; the matrix is "
                          "square", lineno, (unsigned long long)m->n);
        if (m->n) {
            m->out[r * m->n + n] = o;
            m->in[r * m->n + n] = i;
        } else { /* the first line: its entries go to a scratch row until N is known */
            m->out = warp_xrealloc(m->out, (n + 1) * sizeof *m->out);
            m->in = warp_xrealloc(m->in, (n + 1) * sizeof *m->in);
            m->out[n] = o;
            m->in[n] = i;
        }
    }
    return n;
}

void simple_matrix_read(warp_ini *ini, const char *sec, const char *key, simple_matrix *m)
{
    memset(m, 0, sizeof *m);
    const char *path = warp_ini_string(ini, sec, key, NULL);
    if (!path || !*path) /* absent, or emptied by --simplenet.KEY= */
        return;
    FILE *f = fopen(path, "r");
    if (!f)
        warp_ini_fail(ini, sec, key, "cannot open %s", path);
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0;
    uint64_t r = 0;
    while (getline(&line, &cap, f) > 0) {
        lineno++;
        if (line[strspn(line, " \t\r\n")] == 0)
            continue;
        if (m->n && r == m->n)
            warp_ini_fail(ini, sec, key, "line %d: more lines than the %llu entries of a line; the matrix is "
                          "square", lineno, (unsigned long long)m->n);
        uint64_t n = row(ini, sec, key, lineno, line, m, r);
        if (!m->n) {
            if (n > SIMPLE_MATRIX_MAX)
                warp_ini_fail(ini, sec, key, "%llu nodes; the matrices hold at most %d",
                              (unsigned long long)n, SIMPLE_MATRIX_MAX);
            m->n = n;
            double *o = warp_xcalloc(n * n, sizeof *o), *i = warp_xcalloc(n * n, sizeof *i);
            memcpy(o, m->out, n * sizeof *o);
            memcpy(i, m->in, n * sizeof *i);
            free(m->out);
            free(m->in);
            m->out = o;
            m->in = i;
        } else if (n != m->n) {
            warp_ini_fail(ini, sec, key, "line %d: %llu entries, the first line %llu; the matrix is square", lineno,
                          (unsigned long long)n, (unsigned long long)m->n);
        }
        r++;
    }
    free(line);
    fclose(f);
    if (!m->n || r != m->n)
        warp_ini_fail(ini, sec, key, "%llu lines of %llu entries; the matrix is square (one line per "
                      "node)", (unsigned long long)r, (unsigned long long)m->n);
}

void simple_matrix_free(simple_matrix *m)
{
    free(m->out);
    free(m->in);
    memset(m, 0, sizeof *m);
}
