/* codes_conf.c — reader of the CODES configuration grammar (codes_conf.h).
 * Invariant: a file that parses yields every key with its section path, its
 * values in order and its line; a file that does not yields one message with
 * the line. Called by convert_codes.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codes_conf.h"
#include "warp_error.h"

#define CODES_MAX_DEPTH 16

typedef struct lexer {
    const char *s, *path;
    size_t i, n;
    int line;
    char *err;
    size_t errlen;
    char tok[4096]; /* identifier or string text */
} lexer;

enum { T_END, T_ID, T_STR, T_OPEN, T_CLOSE, T_SEMI, T_EQ, T_COMMA, T_LP, T_RP, T_ERR };

static int lex_fail(lexer *L, const char *fmt, ...)
{
    int k = snprintf(L->err, L->errlen, "%s:%d: ", L->path, L->line);
    va_list ap;
    va_start(ap, fmt);
    if (k >= 0 && (size_t)k < L->errlen)
        vsnprintf(L->err + k, L->errlen - (size_t)k, fmt, ap);
    va_end(ap);
    return T_ERR;
}

static int is_id(int c, int first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (!first && ((c >= '0' && c <= '9') || c == '_' || c == '-' || c == '@'));
}

static int lex(lexer *L)
{
    for (;;) {
        if (L->i >= L->n)
            return T_END;
        char c = L->s[L->i];
        if (c == '\n') {
            L->line++;
            L->i++;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            L->i++;
        } else if (c == '#' || (c == '/' && L->i + 1 < L->n && L->s[L->i + 1] == '/')) {
            while (L->i < L->n && L->s[L->i] != '\n')
                L->i++;
        } else if (c == '/' && L->i + 1 < L->n && L->s[L->i + 1] == '*') {
            int start = L->line;
            L->i += 2;
            while (L->i + 1 < L->n && !(L->s[L->i] == '*' && L->s[L->i + 1] == '/'))
                L->line += L->s[L->i++] == '\n';
            if (L->i + 1 >= L->n) {
                L->line = start;
                return lex_fail(L, "unterminated /* comment; close it with */");
            }
            L->i += 2;
        } else {
            break;
        }
    }
    char c = L->s[L->i];
    static const char single[] = "{};=,()";
    static const int kinds[] = {T_OPEN, T_CLOSE, T_SEMI, T_EQ, T_COMMA, T_LP, T_RP};
    const char *p = strchr(single, c);
    if (p && c) {
        L->i++;
        return kinds[p - single];
    }
    size_t k = 0;
    if (c == '"') {
        L->i++;
        while (L->i < L->n && L->s[L->i] != '"') {
            char d = L->s[L->i++];
            if (d == '\n')
                return lex_fail(L, "a string is not closed before the end of the line; add the \"");
            if (d == '\\' && L->i < L->n) {
                d = L->s[L->i++];
                d = d == 'n' ? '\n' : d == 't' ? '\t' : d;
            }
            if (k + 1 >= sizeof L->tok)
                return lex_fail(L, "a string longer than %zu characters", sizeof L->tok - 1);
            L->tok[k++] = d;
        }
        if (L->i >= L->n)
            return lex_fail(L, "a string is not closed; add the \"");
        L->i++;
        L->tok[k] = 0;
        return T_STR;
    }
    if (is_id(c, 1)) {
        while (L->i < L->n && is_id(L->s[L->i], 0) && k + 1 < sizeof L->tok)
            L->tok[k++] = L->s[L->i++];
        L->tok[k] = 0;
        return T_ID;
    }
    return lex_fail(L, "unexpected character '%c'; CODES values are quoted: key = \"value\";", c);
}

static void add(codes_conf *c, const char *section, const char *key, int line)
{
    c->kv = warp_xrealloc(c->kv, (size_t)(c->n + 1) * sizeof *c->kv);
    c->kv[c->n] = (codes_kv){.section = warp_xstrdup(section), .key = warp_xstrdup(key), .line = line};
    c->n++;
}

static void add_value(codes_conf *c, const char *v)
{
    codes_kv *kv = &c->kv[c->n - 1];
    kv->val = warp_xrealloc(kv->val, (size_t)(kv->nval + 1) * sizeof *kv->val);
    kv->val[kv->nval++] = warp_xstrdup(v);
}

/* A key's value: "v" or ("a", "b", ...), then ';'. */
static int parse_value(lexer *L, codes_conf *c)
{
    int t = lex(L);
    if (t == T_STR) {
        add_value(c, L->tok);
    } else if (t == T_LP) {
        t = lex(L);
        while (t == T_STR) {
            add_value(c, L->tok);
            t = lex(L);
            if (t == T_COMMA)
                t = lex(L);
            else if (t != T_RP)
                return t == T_ERR ? -1 : (lex_fail(L, "expected , or ) in a value list"), -1);
        }
        if (t != T_RP)
            return t == T_ERR ? -1 : (lex_fail(L, "expected a quoted value or ) in a value list"), -1);
    } else {
        return t == T_ERR ? -1 : (lex_fail(L, "expected a quoted value after = (CODES writes key = \"value\";)"), -1);
    }
    t = lex(L);
    if (t != T_SEMI)
        return t == T_ERR ? -1 : (lex_fail(L, "expected ; after the value of %s", c->kv[c->n - 1].key), -1);
    return 0;
}

int codes_conf_read(const char *path, codes_conf *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open the CODES config", path);
        return -1;
    }
    size_t cap = 1 << 16, n = 0, got;
    char *buf = warp_xrealloc(NULL, cap);
    while ((got = fread(buf + n, 1, cap - n, f)) > 0)
        if ((n += got) == cap)
            buf = warp_xrealloc(buf, cap *= 2);
    fclose(f);
    c->path = warp_xstrdup(path);
    lexer L = {.s = buf, .path = path, .n = n, .line = 1, .err = err, .errlen = errlen};
    char stack[CODES_MAX_DEPTH][256];
    char section[CODES_MAX_DEPTH * 257] = "";
    int depth = 0, rc = 0;
    for (;;) {
        int t = lex(&L);
        if (t == T_END) {
            if (depth) {
                lex_fail(&L, "section %s is not closed; add }", stack[depth - 1]);
                rc = -1;
            }
            break;
        }
        if (t == T_CLOSE && depth) {
            depth--;
            section[0] = 0;
            for (int d = 0; d < depth; d++)
                snprintf(section + strlen(section), sizeof section - strlen(section), "%s%s",
                         d ? "/" : "", stack[d]);
            continue;
        }
        if (t == T_SEMI && !depth) /* an optional ; after a closing } */
            continue;
        if (t == T_SEMI)
            continue;
        if (t != T_ID) {
            if (t != T_ERR)
                lex_fail(&L, "expected a key or a section name");
            rc = -1;
            break;
        }
        char name[sizeof L.tok];
        snprintf(name, sizeof name, "%s", L.tok);
        int line = L.line;
        t = lex(&L);
        if (t == T_OPEN) {
            if (depth == CODES_MAX_DEPTH) {
                lex_fail(&L, "sections nested deeper than %d", CODES_MAX_DEPTH);
                rc = -1;
                break;
            }
            snprintf(stack[depth++], sizeof stack[0], "%.255s", name);
            snprintf(section + strlen(section), sizeof section - strlen(section), "%s%s",
                     depth > 1 ? "/" : "", name);
        } else if (t == T_EQ) {
            add(c, section, name, line);
            if (parse_value(&L, c)) {
                rc = -1;
                break;
            }
        } else {
            if (t != T_ERR)
                lex_fail(&L, "expected = or { after %s", name);
            rc = -1;
            break;
        }
    }
    free(buf);
    if (rc)
        codes_conf_free(c);
    return rc;
}

void codes_conf_free(codes_conf *c)
{
    for (int i = 0; i < c->n; i++) {
        for (int v = 0; v < c->kv[i].nval; v++)
            free(c->kv[i].val[v]);
        free(c->kv[i].val);
        free(c->kv[i].section);
        free(c->kv[i].key);
    }
    free(c->kv);
    free(c->path);
    memset(c, 0, sizeof *c);
}

codes_kv *codes_find(codes_conf *c, const char *section, const char *key)
{
    codes_kv *found = NULL;
    for (int i = 0; i < c->n; i++) /* a later definition wins, as in CODES's store */
        if (!strcmp(c->kv[i].section, section) && !strcmp(c->kv[i].key, key))
            found = &c->kv[i];
    if (found)
        for (int i = 0; i < c->n; i++)
            if (!strcmp(c->kv[i].section, section) && !strcmp(c->kv[i].key, key))
                c->kv[i].used = 1;
    return found;
}
