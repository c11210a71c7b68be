/* tests/fuzz/fuzz_options.c — libFuzzer harness for the engine option parser
 * (engine/options.c): command-line arguments and `--config=FILE` with its
 * [engine] and model sections. Built by `make fuzz` (tests/fuzz/local.mk)
 * from options.c, ini.c and units.c alone: this file stands in for the rest
 * of the engine. warp_fatal normally prints its line and exits; here it
 * formats its line as the engine does (warp_error_line), checks it and
 * longjmps back, so one process runs millions of inputs without a fork.
 * Everything option parsing allocates hangs off the context (freed by
 * warp_free_options), so nothing leaks even past a fatal error.
 *
 * Input: the config file's text, a NUL byte, then the arguments separated by
 * NUL bytes (no NUL: all config, no arguments). Config texts the INI parser
 * rejects are skipped: warp_ini_load exits on them, and fuzz_ini covers them.
 *
 * Checks, for every input: no crash, leak or sanitizer report; every rejection is
 * one line with exit code 2 that starts with the option ("--name") or the
 * config file and line ("FILE:LINE"); an accepted end time, window and
 * heartbeat keep their contracts. */
#include <assert.h>
#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ini_internal.h"
#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 32

static jmp_buf on_fatal;
static char cfg_path[256];

/* The message starts with the option ("--name", "unknown option --name")
 * or with "CONFIG:LINE:". */
static int names_place(const char *msg)
{
    size_t n = strlen(cfg_path);
    if (!strncmp(msg, "--", 2) || !strncmp(msg, "unknown option --", 17))
        return 1;
    return !strncmp(msg, cfg_path, n) && msg[n] == ':' && isdigit((unsigned char)msg[n + 1]);
}

void warp_fatal(int code, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    size_t n = warp_error_line(line, sizeof line, "warpnet", fmt, ap);
    va_end(ap);
    const char *msg = line + strlen("warpnet: ");
    if (code != WARP_EXIT_USAGE || n < 12 || strchr(line, '\n') != line + n - 1 ||
        !names_place(msg)) {
        fprintf(stderr, "bad fatal message (code %d): %s", code, line);
        abort();
    }
    longjmp(on_fatal, 1);
}

static int64_t m_int;
static uint64_t m_uint;
static double m_double;
static const char *m_string;
static int m_flag;

static const warp_opt model_opts[] = {
    {"count", WARP_OPT_INT, &m_int, "an integer"},
    {"size", WARP_OPT_UINT, &m_uint, "a count"},
    {"rate", WARP_OPT_DOUBLE, &m_double, "a number"},
    {"name", WARP_OPT_STRING, &m_string, "a string"},
    {"verbose", WARP_OPT_FLAG, &m_flag, "a flag"},
    {NULL, 0, NULL, NULL},
};

static void make_cfg(void)
{
    if (cfg_path[0])
        return;
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(cfg_path, sizeof cfg_path, "%s/warpnet-fuzz-%ld.ini", base, (long)getpid());
}

static void remove_cfg(void)
{
    unlink(cfg_path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int registered;
    make_cfg();
    if (!registered++)
        atexit(remove_cfg);
    const char *nul = memchr(data, 0, size);
    size_t cfg_len = nul ? (size_t)(nul - (const char *)data) : size;

    /* Arguments: NUL-terminated copies; --help skipped (it only prints the help). */
    char *args = malloc(size + 1);
    memcpy(args, data, size);
    args[size] = 0;
    char *argv[MAX_ARGS + 3];
    int argc = 0;
    argv[argc++] = "fuzz";
    char cfg_arg[300];
    if (cfg_len) {
        warp_ini *probe = warp_ini_new();
        char *err = ini_parse_buffer(probe, cfg_path, (const char *)data, cfg_len);
        warp_ini_free(probe);
        if (err) {
            free(err);
            free(args);
            return 0;
        }
        FILE *f = fopen(cfg_path, "wb");
        assert(f && fwrite(data, 1, cfg_len, f) == cfg_len && fclose(f) == 0);
        snprintf(cfg_arg, sizeof cfg_arg, "--config=%s", cfg_path);
        argv[argc++] = cfg_arg;
    }
    for (size_t at = cfg_len + 1; nul && at <= size && argc < MAX_ARGS + 2;) {
        char *a = args + at;
        at += strlen(a) + 1;
        if (!strncmp(a, "--help", 6) && (a[6] == 0 || a[6] == '='))
            continue;
        if (!strncmp(a, "--config", 8))
            continue; /* only the harness's own file: any other path is a file-system fuzz */
        argv[argc++] = a;
    }
    argv[argc] = NULL;

    static warp_ctx w;
    memset(&w, 0, sizeof w);
    m_string = NULL;
    int n = argc;
    if (setjmp(on_fatal) == 0) {
        warp_parse_args(&w, &n, argv, model_opts, "model", "usage: fuzz [options]");
        assert(n >= 1 && n <= argc && argv[n] == NULL);
        assert(!(w.opt.end < 0) && !isnan(w.opt.end));
        assert(w.opt.window_auto || !(w.opt.window < 0));
        assert(!(w.opt.heartbeat_s < 0));
    }
    warp_free_options(&w);
    free(args);
    return 0;
}
