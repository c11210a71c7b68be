/* tests/fuzz/fuzz_ini.c — libFuzzer harness for the INI parser, overrides and
 * the number/unit parsers (config/ini.c, config/units.c). Not part of `make`;
 * build and run from the repository root:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
 *         -Iconfig tests/fuzz/fuzz_ini.c config/ini.c config/units.c -lm -o fuzz_ini
 *   mkdir -p fuzz-corpus && ./fuzz_ini -max_total_time=120 -max_len=4096 fuzz-corpus
 *
 * Checks, for every input: no crash, leak or sanitizer report; a parse error
 * is one line naming "fuzz.ini:LINE:"; every accepted value keeps its
 * contract (times >= 0 and finite, bandwidths > 0 and finite); plain integers
 * and byte counts agree with strtoll/strtoull where those are exact. */
#include <assert.h>
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ini_internal.h"
#include "warp_ini.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int all_digits(const char *s, size_t from)
{
    size_t n = strlen(s);
    if (n <= from || n - from > 18)
        return 0;
    for (size_t i = from; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

static void check_why(const char *why)
{
    assert(why && why[0] && !strchr(why, '\n'));
}

static void check_value(const char *key, const char *value, const char *where, void *arg)
{
    (void)key, (void)where, (void)arg;
    double d;
    uint64_t u;
    int64_t i;
    const char *why = NULL;
    if (warp_parse_time_ns(value, &d, &why) == 0)
        assert(d >= 0 && d <= DBL_MAX);
    else
        check_why(why);
    if (warp_parse_bandwidth(value, &d, &why) == 0)
        assert(d > 0 && d <= DBL_MAX);
    else
        check_why(why);
    if (warp_parse_bytes(value, &u, &why) != 0)
        check_why(why);
    if (ini_parse_double(value, &d, &why) != 0)
        check_why(why);
    int ok = ini_parse_int(value, &i, &why) == 0;
    if (!ok)
        check_why(why);
    /* Differential: short plain integers must agree with strtoll. */
    if (all_digits(value, value[0] == '-')) {
        assert(ok && i == strtoll(value, NULL, 10));
        size_t n = strlen(value);
        char *b = malloc(n + 2);
        memcpy(b, value, n);
        memcpy(b + n, "B", 2);
        if (value[0] != '-')
            assert(warp_parse_bytes(b, &u, &why) == 0 && u == strtoull(value, NULL, 10));
        free(b);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    warp_ini *ini = warp_ini_new();
    char *err = ini_parse_buffer(ini, "fuzz.ini", (const char *)data, size);
    if (err) {
        assert(strncmp(err, "fuzz.ini:", 9) == 0 && !strchr(err, '\n'));
        free(err);
    }
    int n;
    const char *const *secs = warp_ini_sections(ini, &n);
    for (int s = 0; s < n; s++) {
        assert(warp_ini_has_section(ini, secs[s]));
        warp_ini_each(ini, secs[s], check_value, NULL);
    }
    /* The whole input as one value and as one command-line argument. */
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    check_value("", text, "", NULL);
    char *oerr = NULL;
    int r = ini_apply_override(ini, text, &oerr);
    assert((r < 0) == (oerr != NULL));
    if (oerr)
        assert(!strchr(oerr, '\n'));
    free(oerr);
    free(text);
    warp_ini_free(ini);
    return 0;
}
