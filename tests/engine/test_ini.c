/* tests/engine/test_ini.c — INI run files: syntax, merging, overrides,
 * origins, typed getters, the unused-key check, and every error message.
 * Each test runs in a fresh temporary directory holding its run.ini; error
 * paths run in a forked child whose stderr and exit status are checked. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ini_internal.h"
#include "warp_ini.h"

static char tmpdir[64];

static void enter_tmpdir(void)
{
    strcpy(tmpdir, "/tmp/test_ini.XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir), "mkdtemp failed");
    cr_assert_eq(chdir(tmpdir), 0);
    warp_set_program_name("warpnet"); /* as the driver names itself */
}

static void leave_tmpdir(void)
{
    unlink("run.ini");
    if (chdir("/") == 0)
        rmdir(tmpdir);
}

TestSuite(ini, .init = enter_tmpdir, .fini = leave_tmpdir);

/* Writes `len` bytes to run.ini in the test's directory. */
static void write_bytes(const char *text, size_t len)
{
    FILE *f = fopen("run.ini", "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(text, 1, len, f), len);
    cr_assert_eq(fclose(f), 0);
}

static warp_ini *load(const char *text)
{
    write_bytes(text, strlen(text));
    return warp_ini_load("run.ini");
}

/* ---- error paths, in a child ------------------------------------------------ */

/* What a child does: load run.ini (when `file`), apply overrides, then `use`. */
typedef struct job {
    int file;
    const char *overrides[3];
    void (*use)(warp_ini *ini);
} job;

static void run_job(const job *j)
{
    warp_ini *ini = j->file ? warp_ini_load("run.ini") : warp_ini_new();
    for (int i = 0; i < 3 && j->overrides[i]; i++)
        warp_ini_override(ini, j->overrides[i]);
    if (j->use)
        j->use(ini);
    warp_ini_free(ini);
}

/* Runs the job in a child; returns its exit status and its stderr in out. */
static int run_child(const job *j, char *out, size_t cap)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    cr_assert_neq(pid, -1, "fork failed");
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], 2);
        close(fd[1]);
        run_job(j);
        _exit(0);
    }
    close(fd[1]);
    size_t n = 0;
    ssize_t r;
    while (n + 1 < cap && (r = read(fd[0], out + n, cap - 1 - n)) > 0)
        n += (size_t)r;
    out[n] = '\0';
    close(fd[0]);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status), "child did not exit normally (signal %d)",
              WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return WEXITSTATUS(status);
}

/* Sanitizer runtimes may add lines starting with "==" to a forked child's
 * stderr (LeakSanitizer: "Running thread ... was not suspended"): not ours. */
static void drop_sanitizer_lines(char *out)
{
    char *nl = strchr(out, '\n');
    if (!nl)
        return;
    for (char *p = nl + 1; *p; p = strchr(p, '\n') + 1) {
        if (strncmp(p, "==", 2) != 0 || !strchr(p, '\n'))
            return;
    }
    nl[1] = '\0';
}

/* Asserts that the job stops with exit code 2 and exactly `expected` + "\n". */
static void expect_error(const job *j, const char *expected)
{
    char out[4096], want[4096];
    int code = run_child(j, out, sizeof out);
    drop_sanitizer_lines(out);
    snprintf(want, sizeof want, "%s\n", expected);
    cr_assert_str_eq(out, want, "stderr was: %s", out);
    cr_assert_eq(code, 2, "exit code %d, expected 2 (message: %s)", code, out);
}

/* The file `text`, then `use`, must stop with `expected`. */
static void expect_file_error(const char *text, void (*use)(warp_ini *), const char *expected)
{
    write_bytes(text, strlen(text));
    job j = {.file = 1, .use = use};
    expect_error(&j, expected);
}

static void expect_override_error(const char *arg, const char *expected)
{
    job j = {.file = 0, .overrides = {arg}};
    expect_error(&j, expected);
}

/* ---- syntax ----------------------------------------------------------------- */

Test(ini, sections_keys_comments_and_blanks)
{
    warp_ini *ini = load("# a comment\n"
                         "; another\n"
                         "\n"
                         "[torus]   # after a header\n"
                         "  dims   =   8,8,8   # trailing comment\n"
                         "name=a#b;c\n"
                         "empty =\n"
                         "\tpath = /x y/z ; c\r\n"
                         "[ job.0 ]\n"
                         "ranks = 4\n");
    cr_assert_str_eq(warp_ini_get(ini, "torus", "dims"), "8,8,8");
    cr_assert_str_eq(warp_ini_get(ini, "torus", "name"), "a#b;c",
                     "# and ; without a blank before them are part of the value");
    cr_assert_str_eq(warp_ini_get(ini, "torus", "empty"), "");
    cr_assert_str_eq(warp_ini_get(ini, "torus", "path"), "/x y/z");
    cr_assert_str_eq(warp_ini_get(ini, "job.0", "ranks"), "4");
    cr_assert_str_eq(warp_ini_where(ini, "torus", "dims"), "run.ini:5");
    cr_assert_str_eq(warp_ini_where(ini, "job.0", "ranks"), "run.ini:10");
    cr_assert_null(warp_ini_get(ini, "torus", "missing"));
    cr_assert_null(warp_ini_where(ini, "torus", "missing"));
    cr_assert(warp_ini_has_section(ini, "job.0"));
    cr_assert(!warp_ini_has_section(ini, "job"));
    warp_ini_free(ini);
}

Test(ini, byte_order_mark_and_last_line_without_newline)
{
    warp_ini *ini = load("\xEF\xBB\xBF[a]\nx = 1");
    cr_assert_str_eq(warp_ini_get(ini, "a", "x"), "1");
    cr_assert_str_eq(warp_ini_where(ini, "a", "x"), "run.ini:2");
    warp_ini_free(ini);
}

Test(ini, long_lines_are_kept_whole)
{
    size_t n = 200000;
    char *text = malloc(n + 64);
    strcpy(text, "[a]\nlong = ");
    size_t off = strlen(text);
    for (size_t i = 0; i < n; i++)
        text[off + i] = (char)('a' + i % 26);
    strcpy(text + off + n, "\nafter = 2\n");
    warp_ini *ini = load(text);
    const char *v = warp_ini_get(ini, "a", "long");
    cr_assert_eq(strlen(v), n, "value has %zu bytes, expected %zu", strlen(v), n);
    cr_assert_eq(memcmp(v, text + off, n), 0);
    cr_assert_str_eq(warp_ini_where(ini, "a", "after"), "run.ini:3");
    free(text);
    warp_ini_free(ini);
}

Test(ini, repeated_section_headers_merge)
{
    warp_ini *ini = load("[a]\nx = 1\n[b]\ny = 2\n[a]\nz = 3\n");
    int n;
    const char *const *s = warp_ini_sections(ini, &n);
    cr_assert_eq(n, 2);
    cr_assert_str_eq(s[0], "a");
    cr_assert_str_eq(s[1], "b");
    cr_assert_str_eq(warp_ini_get(ini, "a", "x"), "1");
    cr_assert_str_eq(warp_ini_get(ini, "a", "z"), "3");
    cr_assert_str_eq(warp_ini_where(ini, "a", "z"), "run.ini:6");
    warp_ini_free(ini);
}

Test(ini, names_are_case_sensitive)
{
    warp_ini *ini = load("[A]\nk = 1\nK = 2\n[a]\nk = 3\n");
    cr_assert_str_eq(warp_ini_get(ini, "A", "k"), "1");
    cr_assert_str_eq(warp_ini_get(ini, "A", "K"), "2");
    cr_assert_str_eq(warp_ini_get(ini, "a", "k"), "3");
    cr_assert_null(warp_ini_get(ini, "a", "K"));
    warp_ini_free(ini);
}

static void collect(const char *key, const char *value, const char *where, void *arg)
{
    char *buf = arg;
    sprintf(buf + strlen(buf), "%s=%s@%s;", key, value, where);
}

Test(ini, each_visits_keys_in_file_order_and_marks_them_used)
{
    warp_ini *ini = load("[a]\nz = 1\n[b]\nq = 0\n[a]\ny = 2\nx = 3\n");
    char buf[256] = "";
    warp_ini_each(ini, "a", collect, buf);
    cr_assert_str_eq(buf, "z=1@run.ini:2;y=2@run.ini:6;x=3@run.ini:7;");
    warp_ini_get(ini, "b", "q");
    warp_ini_reject_unused(ini, NULL); /* returns: every key was read */
    warp_ini_free(ini);
}

Test(ini, an_empty_configuration)
{
    warp_ini *ini = warp_ini_new();
    int n = -1;
    warp_ini_sections(ini, &n);
    cr_assert_eq(n, 0);
    cr_assert_null(warp_ini_get(ini, "a", "b"));
    cr_assert_eq(warp_ini_int(ini, "a", "b", 7, 0, 10), 7);
    warp_ini_reject_unused(ini, NULL);
    warp_ini_free(ini);
}

/* ---- overrides ---------------------------------------------------------------- */

Test(ini, override_replaces_a_key_and_records_its_origin)
{
    warp_ini *ini = load("[torus]\ndims = 8,8,8\n");
    cr_assert_eq(warp_ini_override(ini, "--torus.dims=4,4"), 1);
    cr_assert_str_eq(warp_ini_get(ini, "torus", "dims"), "4,4");
    cr_assert_str_eq(warp_ini_where(ini, "torus", "dims"), "--torus.dims");
    warp_ini_free(ini);
}

Test(ini, override_adds_keys_and_sections)
{
    warp_ini *ini = load("[torus]\ndims = 8\n");
    cr_assert_eq(warp_ini_override(ini, "--torus.latency= 5ns "), 1);
    cr_assert_eq(warp_ini_override(ini, "--engine.batch=16"), 1);
    cr_assert_str_eq(warp_ini_get(ini, "torus", "latency"), "5ns", "value is trimmed");
    cr_assert_str_eq(warp_ini_get(ini, "engine", "batch"), "16");
    cr_assert_str_eq(warp_ini_where(ini, "engine", "batch"), "--engine.batch");
    int n;
    const char *const *s = warp_ini_sections(ini, &n);
    cr_assert_eq(n, 2);
    cr_assert_str_eq(s[1], "engine");
    warp_ini_free(ini);
}

Test(ini, override_key_is_after_the_last_dot)
{
    warp_ini *ini = warp_ini_new();
    cr_assert_eq(warp_ini_override(ini, "--job.0.ranks=64"), 1);
    cr_assert_eq(warp_ini_override(ini, "--a.b.c.d=x=y"), 1);
    cr_assert_str_eq(warp_ini_get(ini, "job.0", "ranks"), "64");
    cr_assert_str_eq(warp_ini_get(ini, "a.b.c", "d"), "x=y", "value is all after the first '='");
    cr_assert(warp_ini_has_section(ini, "job.0"));
    warp_ini_free(ini);
}

Test(ini, arguments_that_are_not_overrides)
{
    warp_ini *ini = warp_ini_new();
    const char *others[] = {"run.ini", "-v", "--synch=opt", "--stats-json=out.json", "--progress",
                            "-x.y=1"};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        cr_assert_eq(warp_ini_override(ini, others[i]), 0, "\"%s\" taken as an override", others[i]);
    int n;
    warp_ini_sections(ini, &n);
    cr_assert_eq(n, 0);
    warp_ini_free(ini);
}

Test(ini, set_records_the_given_origin)
{
    warp_ini *ini = warp_ini_new();
    warp_ini_set(ini, "net", "packet", "4KiB", "default.ini:3");
    cr_assert_str_eq(warp_ini_get(ini, "net", "packet"), "4KiB");
    cr_assert_str_eq(warp_ini_where(ini, "net", "packet"), "default.ini:3");
    warp_ini_set(ini, "net", "packet", "8KiB", "--net.packet");
    cr_assert_str_eq(warp_ini_get(ini, "net", "packet"), "8KiB");
    cr_assert_str_eq(warp_ini_where(ini, "net", "packet"), "--net.packet");
    warp_ini_free(ini);
}

Test(ini, malformed_overrides)
{
    expect_override_error("--torus.dims", "warpnet: --torus.dims: missing value (write "
                                          "--torus.dims=VALUE)");
    expect_override_error("--.dims=1", "warpnet: --.dims: empty section name (write "
                                       "--section.key=value)");
    expect_override_error("--torus.=1", "warpnet: --torus.: missing key name (write "
                                        "--section.key=value)");
    expect_override_error("--a..b=1", "warpnet: --a..b: empty part in a dotted section name "
                                      "(write --section.key=value)");
    expect_override_error("--to rus.x=1", "warpnet: --to rus.x: section names use letters, "
                                          "digits, '_', '-' and '.' (write --section.key=value)");
}

/* ---- typed getters ------------------------------------------------------------ */

Test(ini, typed_getters_and_defaults)
{
    warp_ini *ini = load("[g]\n"
                         "s = hello world\n"
                         "i = -12\n"
                         "big = 1e6\n"
                         "d = 0.25\n"
                         "t1 = TRUE\nt2 = yes\nt3 = on\nt4 = 1\n"
                         "f1 = false\nf2 = No\nf3 = off\nf4 = 0\n"
                         "c = opt\n"
                         "lat = 1.5 us\n"
                         "pkt = 4KiB\n"
                         "bw = 100Gbps\n"
                         "dims = 8, 4 ,2\n");
    cr_assert_str_eq(warp_ini_string(ini, "g", "s", "x"), "hello world");
    cr_assert_str_eq(warp_ini_string(ini, "g", "nope", "x"), "x");
    cr_assert_eq(warp_ini_int(ini, "g", "i", 0, -100, 100), -12);
    cr_assert_eq(warp_ini_int(ini, "g", "big", 0, 0, INT64_MAX), 1000000);
    cr_assert_eq(warp_ini_int(ini, "g", "nope", 99, 0, 1), 99, "the default is not range-checked");
    cr_assert_eq(warp_ini_double(ini, "g", "d", 0, 0, 1), 0.25);
    cr_assert_eq(warp_ini_double(ini, "g", "nope", 2.5, 0, 1), 2.5);
    const char *t[] = {"t1", "t2", "t3", "t4"}, *f[] = {"f1", "f2", "f3", "f4"};
    for (int k = 0; k < 4; k++) {
        cr_assert_eq(warp_ini_bool(ini, "g", t[k], 0), 1, "%s", t[k]);
        cr_assert_eq(warp_ini_bool(ini, "g", f[k], 1), 0, "%s", f[k]);
    }
    cr_assert_eq(warp_ini_bool(ini, "g", "nope", 1), 1);
    const char *const modes[] = {"seq", "cons", "opt", NULL};
    cr_assert_eq(warp_ini_choice(ini, "g", "c", modes, 0), 2);
    cr_assert_eq(warp_ini_choice(ini, "g", "nope", modes, 1), 1);
    cr_assert_eq(warp_ini_time_ns(ini, "g", "lat", 0), 1500.0);
    cr_assert_eq(warp_ini_time_ns(ini, "g", "nope", 7.5), 7.5);
    cr_assert_eq(warp_ini_bytes(ini, "g", "pkt", 0), 4096u);
    cr_assert_eq(warp_ini_bytes(ini, "g", "nope", 9), 9u);
    cr_assert_eq(warp_ini_bandwidth(ini, "g", "bw", 0), 12.5);
    cr_assert_eq(warp_ini_bandwidth(ini, "g", "nope", 3.0), 3.0);
    int64_t dims[3] = {0, 0, 0};
    cr_assert_eq(warp_ini_int_list(ini, "g", "dims", dims, 3), 3);
    cr_assert(dims[0] == 8 && dims[1] == 4 && dims[2] == 2, "dims %lld,%lld,%lld",
              (long long)dims[0], (long long)dims[1], (long long)dims[2]);
    cr_assert_eq(warp_ini_int_list(ini, "g", "nope", dims, 3), 0);
    warp_ini_reject_unused(ini, NULL);
    warp_ini_free(ini);
}

/* Getters used by the error tests below, one per key. */
static void get_bw(warp_ini *ini)
{
    warp_ini_bandwidth(ini, "torus", "link_bandwidth", 1);
}
static void get_lat(warp_ini *ini)
{
    warp_ini_time_ns(ini, "torus", "latency", 1);
}
static void get_pkt(warp_ini *ini)
{
    warp_ini_bytes(ini, "torus", "packet", 1);
}
static void get_int(warp_ini *ini)
{
    warp_ini_int(ini, "torus", "n", 1, 1, 64);
}
static void get_double(warp_ini *ini)
{
    warp_ini_double(ini, "torus", "x", 0.5, 0, 1);
}
static void get_bool(warp_ini *ini)
{
    warp_ini_bool(ini, "torus", "flag", 0);
}
static void get_choice(warp_ini *ini)
{
    const char *const modes[] = {"seq", "cons", "opt", NULL};
    warp_ini_choice(ini, "torus", "synch", modes, 0);
}
static void get_dims(warp_ini *ini)
{
    int64_t d[3];
    warp_ini_int_list(ini, "torus", "dims", d, 3);
}

Test(ini, missing_unit_message_names_line_key_value_and_fix)
{
    expect_file_error("# line 1\n\n\n\n\n\n\n\n\n\n\n\n[torus]\nlink_bandwidth = 12.5\n", get_bw,
                      "warpnet: run.ini:14: [torus] link_bandwidth = 12.5: missing unit (write "
                      "12.5GB/s or 100Gbps)");
    expect_file_error("[torus]\nlatency = 40\n", get_lat,
                      "warpnet: run.ini:2: [torus] latency = 40: missing unit (write 40ns or 40us)");
    expect_file_error("[torus]\npacket = 4096\n", get_pkt,
                      "warpnet: run.ini:2: [torus] packet = 4096: missing unit (write 4096B or "
                      "4096KiB)");
}

Test(ini, unit_and_number_errors_through_getters)
{
    expect_file_error("[torus]\nlink_bandwidth = 12.5 GBs\n", get_bw,
                      "warpnet: run.ini:2: [torus] link_bandwidth = 12.5 GBs: unknown unit (use "
                      "bps, Kbps, Mbps, Gbps, Tbps or B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, "
                      "GiB/s, TiB/s)");
    expect_file_error("[torus]\nlatency = fast\n", get_lat,
                      "warpnet: run.ini:2: [torus] latency = fast: not a number");
    expect_file_error("[torus]\nlatency = -3ns\n", get_lat,
                      "warpnet: run.ini:2: [torus] latency = -3ns: negative time");
    expect_file_error("[torus]\npacket = 0.5KiB3\n", get_pkt,
                      "warpnet: run.ini:2: [torus] packet = 0.5KiB3: unknown unit (use B, KB, MB, "
                      "GB, TB, KiB, MiB, GiB or TiB)");
    expect_file_error("[torus]\nn = 65\n", get_int,
                      "warpnet: run.ini:2: [torus] n = 65: out of range [1, 64]");
    expect_file_error("[torus]\nn = 2.5\n", get_int,
                      "warpnet: run.ini:2: [torus] n = 2.5: not a whole number (write a whole "
                      "number such as 8 or 1e6)");
    expect_file_error("[torus]\nx = 1.5\n", get_double,
                      "warpnet: run.ini:2: [torus] x = 1.5: out of range [0, 1]");
    expect_file_error("[torus]\nx = half\n", get_double,
                      "warpnet: run.ini:2: [torus] x = half: not a number (write a number such "
                      "as 0.5 or 1e-3)");
    expect_file_error("[torus]\nflag = maybe\n", get_bool,
                      "warpnet: run.ini:2: [torus] flag = maybe: not a boolean (write true or "
                      "false)");
    expect_file_error("[torus]\nsynch = fast\n", get_choice,
                      "warpnet: run.ini:2: [torus] synch = fast: not one of: seq, cons, opt");
    expect_file_error("[torus]\ndims = 8,,8\n", get_dims,
                      "warpnet: run.ini:2: [torus] dims = 8,,8: value 2: not a number (write "
                      "positive whole numbers such as 8,8,8)");
    expect_file_error("[torus]\ndims = 8,0\n", get_dims,
                      "warpnet: run.ini:2: [torus] dims = 8,0: value 2 is not positive (write "
                      "numbers such as 8,8,8)");
    expect_file_error("[torus]\ndims = 2,2,2,2\n", get_dims,
                      "warpnet: run.ini:2: [torus] dims = 2,2,2,2: more than 3 values");
}

Test(ini, override_values_are_checked_with_their_option_as_place)
{
    job j = {.file = 0, .overrides = {"--torus.link_bandwidth=12.5"}, .use = get_bw};
    expect_error(&j, "warpnet: --torus.link_bandwidth: [torus] link_bandwidth = 12.5: missing "
                     "unit (write 12.5GB/s or 100Gbps)");
}

Test(ini, syntax_errors_name_the_line)
{
    expect_file_error("[a]\nx = 1\nthis is not ini\n", NULL,
                      "warpnet: run.ini:3: `this is not ini`: expected `key = value`, a [section] "
                      "header or a # comment");
    expect_file_error("\nx = 1\n", NULL,
                      "warpnet: run.ini:2: `x = 1`: key before any [section] header; add one "
                      "above it");
    expect_file_error("[a]\n[b\n", NULL, "warpnet: run.ini:2: `[b`: missing ']' (write [section])");
    expect_file_error("[a] x\n", NULL,
                      "warpnet: run.ini:1: `[a] x`: text after the section header (comments "
                      "start with # or ;)");
    expect_file_error("[]\n", NULL, "warpnet: run.ini:1: `[]`: empty section name");
    expect_file_error("[a]\n= 3\n", NULL, "warpnet: run.ini:2: `= 3`: missing key name");
    expect_file_error("[a]\nlink bandwidth = 3\n", NULL,
                      "warpnet: run.ini:2: `link bandwidth = 3`: key names use letters, digits, "
                      "'_' and '-'");
    expect_file_error("[a]\nx.y = 3\n", NULL,
                      "warpnet: run.ini:2: `x.y = 3`: a key name cannot contain '.' (use a "
                      "[section.sub] header)");
}

Test(ini, nul_byte_is_a_syntax_error)
{
    write_bytes("[a]\nx = 1\0\n", 10);
    job j = {.file = 1};
    expect_error(&j, "warpnet: run.ini:2: NUL byte in the line; is this a text file?");
}

Test(ini, duplicate_key_in_a_section_is_an_error)
{
    expect_file_error("[a]\nx = 1\n[b]\nx = 2\n[a]\nx = 3\n", NULL,
                      "warpnet: run.ini:6: [a] x set twice (first at run.ini:2); keep one");
}

Test(ini, unreadable_file)
{
    char out[512];
    job j = {.file = 1};
    unlink("run.ini");
    cr_assert_eq(run_child(&j, out, sizeof out), 2);
    drop_sanitizer_lines(out);
    cr_assert_str_eq(out, "warpnet: run.ini: cannot open: No such file or directory; check the "
                          "path\n");
}

/* ---- unused keys and sections ------------------------------------------------- */

static void read_x(warp_ini *ini)
{
    warp_ini_get(ini, "a", "x");
    warp_ini_get(ini, "a", "w"); /* absent, but asked for: listed as a known key */
    warp_ini_reject_unused(ini, NULL);
}

static void reject_unread(warp_ini *ini)
{
    warp_ini_reject_unused(ini, NULL);
}

Test(ini, first_unused_key_in_file_order_is_rejected)
{
    expect_file_error("[a]\nx = 1\n[b]\nq = 1\n[a]\ny = 2\n", read_x,
                      "warpnet: run.ini:3: [b]: unknown section (sections read by this run: a)");
    expect_file_error("[a]\nx = 1\nz = 2\n[b]\n", read_x,
                      "warpnet: run.ini:3: [a] z = 2: unknown key (keys of [a] read by this run: "
                      "x, w)");
}

static void read_torus(warp_ini *ini)
{
    int64_t dims[3];
    warp_ini_int_list(ini, "torus", "dims", dims, 3);
    warp_ini_bandwidth(ini, "torus", "link_bandwidth", 1);
    warp_ini_time_ns(ini, "torus", "latency", 1); /* absent */
    const char *const known[] = {"torus", NULL};
    warp_ini_reject_unused(ini, known);
}

static void read_torus_any(warp_ini *ini)
{
    warp_ini_get(ini, "torus", "dims");
    warp_ini_get(ini, "engine", "batch"); /* absent section, still a section the run reads */
    warp_ini_reject_unused(ini, NULL);
}

Test(ini, misspelt_names_get_a_suggestion)
{
    expect_file_error("[torus]\ndims = 4\n[tours]\nx = 1\n", read_torus_any,
                      "warpnet: run.ini:3: [tours]: unknown section; did you mean [torus]? "
                      "(sections read by this run: torus, engine)");
    expect_file_error("[torus]\ndims = 4\nlink_bandwidth = 1GB/s\nlatncy = 5ns\n", read_torus,
                      "warpnet: run.ini:4: [torus] latncy = 5ns: unknown key; did you mean "
                      "latency? (keys of [torus] read by this run: dims, link_bandwidth, latency)");
    expect_file_error("[torus]\ndims = 4\nDims = 4\n", read_torus,
                      "warpnet: run.ini:3: [torus] Dims = 4: unknown key; did you mean dims? "
                      "(keys of [torus] read by this run: dims, link_bandwidth, latency)");
    expect_file_error("[torus]\ndims = 4\n[tours]\n", read_torus,
                      "warpnet: run.ini:3: [tours]: unknown section; did you mean [torus]? (known "
                      "sections: torus)");
}

/* A model reads [dragonfly] a, finds it missing and fails there. */
static void need_dragonfly_a(warp_ini *ini)
{
    warp_ini_get(ini, "engine", "end");
    if (!warp_ini_get(ini, "dragonfly", "a"))
        warp_ini_fail(ini, "dragonfly", "a", "missing; give the routers per group");
}

/* Issue 53: `[Dragonfly]` was reported as "[dragonfly] a (default):
 * missing", the misspelt section only after every model had read its keys. */
Test(ini, misspelt_section_is_reported_before_the_key_it_hides)
{
    expect_file_error("[engine]\nend = 1us\n[Dragonfly]\na = 4\n", need_dragonfly_a,
                      "warpnet: run.ini:3: [Dragonfly]: unknown section; did you mean [dragonfly]? "
                      "(sections read by this run: engine, dragonfly)");
    expect_file_error("[engine]\nend = 1us\n[dragonfyl]\na = 4\n", need_dragonfly_a,
                      "warpnet: run.ini:3: [dragonfyl]: unknown section; did you mean [dragonfly]? "
                      "(sections read by this run: engine, dragonfly)");
    /* A section nowhere near the missing key's stays out of it. */
    expect_file_error("[engine]\nend = 1us\n[torus]\ndims = 4\n", need_dragonfly_a,
                      "warpnet: [dragonfly] a (default): missing; give the routers per group");
}

static char long_path[3000];

static void fail_with_long_path(warp_ini *ini)
{
    warp_ini_fail(ini, "engine", NULL, "cannot write %s; give a writable place", long_path);
}

/* Issue 53: every error line was cut at 1,023 bytes, losing its advice. */
Test(ini, a_long_error_is_not_cut)
{
    memset(long_path, 'p', sizeof long_path - 1);
    long_path[0] = '/';
    char *want = malloc(sizeof long_path + 100);
    cr_assert_not_null(want);
    snprintf(want, sizeof long_path + 100, "warpnet: run.ini:1: [engine]: cannot write %s; give a writable place",
             long_path);
    expect_file_error("[engine]\nend = 1us\n", fail_with_long_path, want);
    free(want);
}

static void reject_unknown_sections(warp_ini *ini)
{
    const char *const known[] = {"a", "job.*", NULL};
    warp_ini_each(ini, "a", collect, (char[256]){""});
    warp_ini_each(ini, "job.0", collect, (char[256]){""});
    warp_ini_each(ini, "job.12", collect, (char[256]){""});
    warp_ini_reject_unused(ini, known);
}

Test(ini, unknown_sections_are_rejected)
{
    expect_file_error("[a]\nx = 1\n[job.0]\n[job.12]\n[torus]\n", reject_unknown_sections,
                      "warpnet: run.ini:5: [torus]: unknown section (known sections: a, job.*)");
    expect_file_error("[a]\n[job.]\n", NULL,
                      "warpnet: run.ini:2: `[job.]`: empty part in a dotted section name");
    expect_file_error("[a]\n[job]\n", reject_unknown_sections,
                      "warpnet: run.ini:2: [job]: unknown section (known sections: a, job.*)");
    write_bytes("[a]\n[job.0]\n[job.12]\n", strlen("[a]\n[job.0]\n[job.12]\n"));
    job ok = {.file = 1, .use = reject_unknown_sections};
    char out[256];
    cr_assert_eq(run_child(&ok, out, sizeof out), 0, "known sections refused: %s", out);
}

static void reject_without_reading(warp_ini *ini)
{
    const char *const known[] = {"a", NULL}, *const none[] = {NULL};
    if (warp_ini_has_section(ini, "b"))
        warp_ini_reject_unused(ini, none);
    warp_ini_reject_unused(ini, known);
}

Test(ini, sections_nothing_reads)
{
    expect_file_error("[a]\nx = 1\n", reject_without_reading,
                      "warpnet: run.ini:2: [a] x = 1: unknown key (this run reads no key of [a])");
    expect_file_error("[b]\n", reject_without_reading,
                      "warpnet: run.ini:1: [b]: unknown section (this run reads no section)");
    expect_file_error("[c]\nx = 1\n", read_x,
                      "warpnet: run.ini:1: [c]: unknown section (sections read by this run: a)");
    expect_file_error("[c]\nx = 1\n", reject_unread,
                      "warpnet: run.ini:1: [c]: unknown section (this run reads no section)");
}

static void fail_model_check(warp_ini *ini)
{
    warp_ini_fail(ini, "torus", "dims", "%d dimensions, at most %d", 9, 8);
}

static void fail_default(warp_ini *ini)
{
    warp_ini_fail(ini, "torus", "radix", "must be even");
}

static void fail_section(warp_ini *ini)
{
    warp_ini_fail(ini, "torus", NULL, "needs dims or radix");
}

Test(ini, model_checks_use_the_same_format)
{
    expect_file_error("[torus]\ndims = 1,1,1,1,1,1,1,1,1\n", fail_model_check,
                      "warpnet: run.ini:2: [torus] dims = 1,1,1,1,1,1,1,1,1: 9 dimensions, at "
                      "most 8");
    expect_file_error("[torus]\n", fail_default,
                      "warpnet: [torus] radix (default): must be even");
    expect_file_error("\n[torus]\n", fail_section,
                      "warpnet: run.ini:2: [torus]: needs dims or radix");
}

Test(ini, long_values_are_shortened_in_messages_only)
{
    char text[400] = "[torus]\nlatency = ";
    size_t off = strlen(text);
    memset(text + off, '7', 200);
    strcpy(text + off + 200, "\n");
    char expected[512] = "warpnet: run.ini:2: [torus] latency = ";
    size_t e = strlen(expected);
    memset(expected + e, '7', 80);
    strcpy(expected + e + 80, "...: missing unit (write ");
    e = strlen(expected);
    memset(expected + e, '7', 80);
    strcpy(expected + e + 80, "...ns or ");
    e = strlen(expected);
    memset(expected + e, '7', 80);
    strcpy(expected + e + 80, "...us)");
    expect_file_error(text, get_lat, expected);
}
