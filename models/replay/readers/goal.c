/* goal.c — parser of GOAL schedules (LogGOPSim/Schedgen text), FORMATS.md §4.
 * Invariant: open() checks the whole file's block structure once and records
 * where each rank block starts (byte, line); load(r) re-reads only block r and
 * builds its graph; every syntax error is reported as FILE:LINE. Labels are
 * local to a block and must be defined before a requires line uses them.
 * Called through replay_source_open. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/readers/source.h"
#include "warp_error.h"

#define TOK_MAX 128

enum tok_kind { T_EOF, T_WORD, T_COLON, T_LBRACE, T_RBRACE };

typedef struct lexer {
    FILE *f;
    const char *path;
    long line;
    long tok_line;
    long tok_pos; /* byte offset of the current token */
    enum tok_kind kind;
    char text[TOK_MAX];
    replay_err *err;
    int failed;
} lexer;

typedef struct goal_block {
    long pos, line;
} goal_block;

typedef struct goal_file {
    int32_t nranks;
    goal_block *blocks;
} goal_file;

static int lex_fail(lexer *lx, long line, const char *fmt, const char *a, const char *b)
{
    char what[300];
    snprintf(what, sizeof what, fmt, a, b);
    lx->failed = 1;
    return replay_errf(lx->err, "%s:%ld: %s", lx->path, line, what);
}

/* Skips blanks and comments; -1 on an unterminated block comment. */
static int skip_space(lexer *lx)
{
    for (;;) {
        int c = getc(lx->f);
        if (c == '\n') {
            lx->line++;
        } else if (c == '/') {
            int d = getc(lx->f);
            if (d == '/') {
                while ((c = getc(lx->f)) != EOF && c != '\n')
                    ;
                if (c == '\n')
                    lx->line++;
            } else if (d == '*') {
                long start = lx->line;
                int prev = 0;
                for (;;) {
                    c = getc(lx->f);
                    if (c == EOF)
                        return lex_fail(lx, start, "unterminated /* comment; close it with */", "", "");
                    if (c == '\n')
                        lx->line++;
                    if (prev == '*' && c == '/')
                        break;
                    prev = c;
                }
            } else {
                if (d != EOF)
                    ungetc(d, lx->f);
                ungetc('/', lx->f);
                return 0;
            }
        } else if (c == EOF || !isspace(c)) {
            if (c != EOF)
                ungetc(c, lx->f);
            return 0;
        }
    }
}

static int is_word_char(int c)
{
    return isalnum(c) || c == '_' || c == '-' || c == '.' || c == '+';
}

/* Reads the next token into lx; -1 on a lexical error. */
static int next(lexer *lx)
{
    if (skip_space(lx))
        return -1;
    lx->tok_line = lx->line;
    lx->tok_pos = ftell(lx->f);
    int c = getc(lx->f);
    lx->text[0] = 0;
    if (c == EOF) {
        lx->kind = T_EOF;
        strcpy(lx->text, "end of file");
        return 0;
    }
    if (c == ':' || c == '{' || c == '}') {
        lx->kind = c == ':' ? T_COLON : c == '{' ? T_LBRACE : T_RBRACE;
        lx->text[0] = (char)c;
        lx->text[1] = 0;
        return 0;
    }
    if (!is_word_char(c)) {
        char s[2] = {(char)c, 0};
        return lex_fail(lx, lx->line, "unexpected character '%s'%s", isprint(c) ? s : "?", "");
    }
    size_t n = 0;
    while (c != EOF && is_word_char(c)) {
        if (n + 1 >= TOK_MAX)
            return lex_fail(lx, lx->line, "word longer than %s characters%s", "127", "");
        lx->text[n++] = (char)c;
        c = getc(lx->f);
    }
    if (c != EOF)
        ungetc(c, lx->f);
    lx->text[n] = 0;
    lx->kind = T_WORD;
    return 0;
}

/* Parses a signed integer token (with an optional 'b' suffix when allow_b). */
static int parse_int(lexer *lx, const char *what, int allow_b, int64_t lo, int64_t hi, int64_t *v)
{
    if (lx->kind != T_WORD)
        return lex_fail(lx, lx->tok_line, "expected %s, found '%s'", what, lx->text);
    char *end;
    errno = 0;
    long long x = strtoll(lx->text, &end, 10);
    if (allow_b && *end == 'b' && end[1] == 0)
        end++;
    if (end == lx->text || *end || errno == ERANGE)
        return lex_fail(lx, lx->tok_line, "expected %s, found '%s'", what, lx->text);
    if (x < lo || x > hi)
        return lex_fail(lx, lx->tok_line, "%s '%s' is out of range", what, lx->text);
    *v = x;
    return 0;
}

static int expect_word(lexer *lx, const char *w)
{
    if (next(lx))
        return -1;
    if (lx->kind != T_WORD || strcmp(lx->text, w) != 0)
        return lex_fail(lx, lx->tok_line, "expected '%s', found '%s'", w, lx->text);
    return 0;
}

/* ---- labels: a small open-addressing table per block ---------------------- */

typedef struct label_tab {
    char **name;
    uint32_t *task;
    size_t cap, n;
} label_tab;

static size_t hash_str(const char *s)
{
    size_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static long label_find(const label_tab *t, const char *s)
{
    if (!t->cap)
        return -1;
    for (size_t i = hash_str(s) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        if (!t->name[i])
            return -1;
        if (strcmp(t->name[i], s) == 0)
            return (long)t->task[i];
    }
}

static void label_put(label_tab *t, const char *s, uint32_t task)
{
    if (2 * (t->n + 1) > t->cap) {
        label_tab g = {.cap = t->cap ? 2 * t->cap : 64};
        g.name = warp_xcalloc(g.cap, sizeof *g.name);
        g.task = warp_xcalloc(g.cap, sizeof *g.task);
        for (size_t i = 0; i < t->cap; i++)
            if (t->name[i]) {
                size_t j = hash_str(t->name[i]) & (g.cap - 1);
                while (g.name[j])
                    j = (j + 1) & (g.cap - 1);
                g.name[j] = t->name[i];
                g.task[j] = t->task[i];
            }
        free(t->name);
        free(t->task);
        g.n = t->n;
        *t = g;
    }
    size_t i = hash_str(s) & (t->cap - 1);
    while (t->name[i])
        i = (i + 1) & (t->cap - 1);
    t->name[i] = warp_xstrdup(s);
    t->task[i] = task;
    t->n++;
}

static void label_free(label_tab *t)
{
    for (size_t i = 0; i < t->cap; i++)
        free(t->name[i]);
    free(t->name);
    free(t->task);
}

/* ---- statements ------------------------------------------------------------ */

/* Parses the optional clauses after an operation: tag, cpu, nic, in that
 * order. On return lx holds the first token after them. */
static int parse_clauses(lexer *lx, int is_calc, int64_t *tag, int64_t *cpu, int64_t *nic)
{
    int stage = 0; /* 1 after tag, 2 after cpu, 3 after nic */
    for (;;) {
        if (next(lx))
            return -1;
        if (lx->kind != T_WORD)
            return 0;
        int which = strcmp(lx->text, "tag") == 0 ? 1 : strcmp(lx->text, "cpu") == 0 ? 2
                  : strcmp(lx->text, "nic") == 0 ? 3 : 0;
        if (!which)
            return 0;
        long line = lx->tok_line;
        if (is_calc && which != 2)
            return lex_fail(lx, line, "calc takes no '%s' clause (only cpu)%s", lx->text, "");
        if (which <= stage)
            return lex_fail(lx, line, "clause '%s' out of place; write clauses in the order "
                            "tag, cpu, nic, each once%s", lx->text, "");
        stage = which;
        if (next(lx))
            return -1;
        if (which == 1 && parse_int(lx, "a tag", 0, -1, INT32_MAX, tag))
            return -1;
        if (which == 2 && parse_int(lx, "a cpu number", 0, 0, 255, cpu))
            return -1;
        if (which == 3 && parse_int(lx, "a nic number", 0, 0, 255, nic))
            return -1;
    }
}

/* Parses one operation whose keyword is the current token; adds its task.
 * On return lx holds the token after the operation. */
static int parse_op(lexer *lx, replay_rank *r, int32_t nranks, uint32_t *task)
{
    long line = lx->tok_line;
    int64_t size = 0, peer = 0, tag = 0, cpu = 0, nic = 0;
    if (strcmp(lx->text, "calc") == 0) {
        if (next(lx) || parse_int(lx, "a calc time in ns", 0, 0, INT64_MAX, &size))
            return -1;
        if (parse_clauses(lx, 1, &tag, &cpu, &nic))
            return -1;
        *task = replay_add_task(r, (uint64_t)size, 0, 0, 0);
    } else if (strcmp(lx->text, "send") == 0 || strcmp(lx->text, "recv") == 0) {
        int send = lx->text[0] == 's';
        if (next(lx) || parse_int(lx, "a size in bytes (e.g. 1024b)", 1, 0, INT64_MAX, &size))
            return -1;
        if (expect_word(lx, send ? "to" : "from") || next(lx))
            return -1;
        if (parse_int(lx, send ? "a destination rank" : "a source rank (or -1)", 0, send ? 0 : -1,
                      nranks - 1, &peer))
            return -1;
        if (parse_clauses(lx, 0, &tag, &cpu, &nic))
            return -1;
        if (send && tag < 0)
            return lex_fail(lx, line, "a send needs a tag >= 0 (-1 is a receive wildcard)%s%s", "", "");
        if (send) {
            *task = replay_add_task(r, 0, 0, 0, 0);
            replay_add_msg(r, *task, (int32_t)peer, (uint64_t)size, (int32_t)tag);
        } else {
            *task = replay_add_task(r, 0, REPLAY_TRIGGERED, (int32_t)peer, (int32_t)tag);
        }
    } else {
        return lex_fail(lx, line, "unknown operation '%s'; expected send, recv or calc%s", lx->text, "");
    }
    r->tasks[*task].cpu = (uint8_t)cpu;
    r->tasks[*task].nic = (uint8_t)nic;
    return 0;
}

static int is_op(const char *w)
{
    return !strcmp(w, "send") || !strcmp(w, "recv") || !strcmp(w, "calc");
}

/* Parses the statements of one block after its '{' up to the matching '}'. */
static int parse_block(lexer *lx, replay_rank *r, int32_t nranks)
{
    label_tab labels = {0};
    int rc = -1;
    if (next(lx))
        goto out;
    for (;;) {
        if (lx->kind == T_RBRACE) {
            rc = 0;
            break;
        }
        if (lx->kind != T_WORD) {
            lex_fail(lx, lx->tok_line, "expected an operation, a label or '}', found '%s'%s",
                     lx->text, lx->kind == T_EOF ? " (missing '}')" : "");
            goto out;
        }
        char first[TOK_MAX];
        long line = lx->tok_line;
        strcpy(first, lx->text);
        if (is_op(first)) {
            uint32_t t;
            if (parse_op(lx, r, nranks, &t))
                goto out;
            continue;
        }
        if (next(lx))
            goto out;
        if (lx->kind == T_COLON) {
            if (label_find(&labels, first) >= 0) {
                lex_fail(lx, line, "label '%s' is defined twice in this rank block%s", first, "");
                goto out;
            }
            if (next(lx))
                goto out;
            if (lx->kind != T_WORD || !is_op(lx->text)) {
                lex_fail(lx, lx->tok_line, "expected send, recv or calc after label '%s:', found '%s'",
                         first, lx->text);
                goto out;
            }
            uint32_t t;
            if (parse_op(lx, r, nranks, &t))
                goto out;
            label_put(&labels, first, t);
            continue;
        }
        if (lx->kind == T_WORD && (!strcmp(lx->text, "requires") || !strcmp(lx->text, "irequires"))) {
            int start_only = lx->text[0] == 'i';
            long a = label_find(&labels, first);
            if (a < 0) {
                lex_fail(lx, line, "label '%s' is not defined (labels must be defined before "
                         "the requires line that uses them)%s", first, "");
                goto out;
            }
            if (next(lx))
                goto out;
            long b = lx->kind == T_WORD ? label_find(&labels, lx->text) : -1;
            if (b < 0) {
                lex_fail(lx, lx->tok_line, "label '%s' is not defined (labels must be defined "
                         "before the requires line that uses them)%s", lx->text, "");
                goto out;
            }
            if (a == b) {
                lex_fail(lx, line, "'%s' cannot depend on itself%s", first, "");
                goto out;
            }
            replay_add_dep(r, (uint32_t)a, (uint32_t)b, start_only);
            if (next(lx))
                goto out;
            continue;
        }
        lex_fail(lx, line, "cannot parse statement starting with '%s' (then '%s'); expected "
                 "'LABEL: op', 'op' or 'A requires B'", first, lx->text);
        goto out;
    }
out:
    label_free(&labels);
    return rc;
}

/* ---- open / load ------------------------------------------------------------ */

static int open_lexer(lexer *lx, const char *path, replay_err *err)
{
    memset(lx, 0, sizeof *lx);
    lx->path = path;
    lx->err = err;
    lx->line = 1;
    lx->f = fopen(path, "rb");
    if (!lx->f)
        return replay_errf(err, "%s: cannot open: %s; check the trace path", path, strerror(errno));
    return 0;
}

/* Reads "rank R {" at the current token; checks R == want. */
static int parse_rank_head(lexer *lx, int32_t want)
{
    if (lx->kind != T_WORD || strcmp(lx->text, "rank") != 0)
        return lex_fail(lx, lx->tok_line, "expected 'rank %s {', found '%s'",
                        want >= 0 ? "N" : "N", lx->text);
    int64_t r;
    if (next(lx) || parse_int(lx, "a rank number", 0, 0, INT32_MAX, &r))
        return -1;
    if (r != want) {
        char a[24], b[24];
        snprintf(a, sizeof a, "%" PRId64, r);
        snprintf(b, sizeof b, "%d", want);
        return lex_fail(lx, lx->tok_line, "rank block %s out of order; blocks must appear as "
                        "0, 1, ... (expected %s)", a, b);
    }
    if (next(lx))
        return -1;
    if (lx->kind != T_LBRACE)
        return lex_fail(lx, lx->tok_line, "expected '{' after the rank number, found '%s'%s", lx->text, "");
    return 0;
}

static int goal_load(replay_source *s, int32_t rank, replay_rank *out, replay_err *err)
{
    goal_file *g = s->impl;
    lexer lx;
    if (open_lexer(&lx, s->path, err))
        return -1;
    lx.line = g->blocks[rank].line;
    int rc = -1;
    replay_rank_begin(out, rank);
    if (fseek(lx.f, g->blocks[rank].pos, SEEK_SET) != 0 || next(&lx)) {
        if (!lx.failed)
            replay_errf(err, "%s: cannot seek to rank %d; was the file changed?", s->path, rank);
        goto out;
    }
    if (parse_rank_head(&lx, rank) || parse_block(&lx, out, s->nranks))
        goto out;
    char place[600];
    snprintf(place, sizeof place, "%s:%ld", s->path, g->blocks[rank].line);
    rc = replay_rank_end(out, place, err);
out:
    fclose(lx.f);
    if (rc)
        replay_rank_free(out);
    return rc;
}

static void goal_close(replay_source *s)
{
    goal_file *g = s->impl;
    free(g->blocks);
    free(g);
}

static const replay_source_ops goal_ops = {"goal", goal_load, goal_close, NULL, NULL, NULL, NULL};

static int goal_open(const char *path, const void *opts, replay_source **out, replay_err *err)
{
    lexer lx;
    if (open_lexer(&lx, path, err))
        return -1;
    goal_file *g = warp_xcalloc(1, sizeof *g);
    int rc = -1;
    int64_t n;
    if (next(&lx))
        goto out;
    if (lx.kind != T_WORD || strcmp(lx.text, "num_ranks") != 0) {
        lex_fail(&lx, lx.tok_line, "expected 'num_ranks N' first, found '%s'%s", lx.text, "");
        goto out;
    }
    if (next(&lx) || parse_int(&lx, "a rank count", 0, 1, INT32_MAX, &n))
        goto out;
    g->nranks = (int32_t)n;
    /* Structure check: every block parses (into a scratch graph freed at once).
     * The block table grows with the blocks found, so a huge num_ranks in a
     * short file is reported as such instead of allocated. */
    for (int32_t r = 0, cap = 0; r < g->nranks; r++) {
        if (next(&lx))
            goto out;
        if (r == cap) {
            cap = cap ? (cap > g->nranks / 2 ? g->nranks : 2 * cap) : (g->nranks < 64 ? g->nranks : 64);
            g->blocks = warp_xrealloc(g->blocks, (size_t)cap * sizeof *g->blocks);
        }
        if (lx.kind == T_EOF) {
            char a[24], b[24];
            snprintf(a, sizeof a, "%d", r);
            snprintf(b, sizeof b, "%d", g->nranks);
            lex_fail(&lx, lx.tok_line, "file ends after %s rank blocks, but num_ranks is %s", a, b);
            goto out;
        }
        g->blocks[r].pos = lx.tok_pos;
        g->blocks[r].line = lx.tok_line;
        replay_rank scratch;
        replay_rank_begin(&scratch, r);
        int bad = parse_rank_head(&lx, r) || parse_block(&lx, &scratch, g->nranks);
        replay_rank_free(&scratch);
        if (bad)
            goto out;
    }
    if (next(&lx))
        goto out;
    if (lx.kind != T_EOF) {
        lex_fail(&lx, lx.tok_line, "unexpected '%s' after the last rank block (num_ranks is %s)",
                 lx.text, "smaller");
        goto out;
    }
    rc = 0;
out:
    fclose(lx.f);
    if (rc) {
        free(g->blocks);
        free(g);
        return -1;
    }
    *out = replay_source_new(&goal_ops, path, NULL, 0, g->nranks, g);
    return 0;
}

/* *.goal */
static int goal_sniff(const char *path) { return replay_path_ends_with(path, ".goal") ? 3 : 0; }

const replay_reader replay_reader_goal = {
    .name = "goal",
    .sniff = goal_sniff,
    .open = goal_open,
};
