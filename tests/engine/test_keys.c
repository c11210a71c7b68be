/* tests/engine/test_keys.c — declared run-file keys (warp_keys.h): the
 * getters refuse an undeclared key of a declared section and a default
 * other than the declared one (programming errors, exit 1), section
 * patterns, and the warning for keys whose group does not apply. Error
 * paths run in a forked child whose stderr and exit status are checked. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "warp_error.h"
#include "warp_ini.h"
#include "warp_keys.h"

static const warp_key net_keys[] = {
    {"latency", WARP_KEY_TIME, "50ns", ">= 0", "link latency"},
    {"size", WARP_KEY_SIZE, "256B", NULL, "packet size"},
    {"lanes", WARP_KEY_COUNT, "1", "1..8", "lanes"},
    {"router", WARP_KEY_CHOICE, "iq", "oq | iq", "router model"},
    {"derived", WARP_KEY_TIME, "(latency)", NULL, "a derived default is not checked"},
    {0},
};
static const warp_key iq_keys[] = {
    {"speedup", WARP_KEY_COUNT, "1", "1..8", "input-queued only"},
    {0},
};
static const warp_key job_keys[] = {
    {"trace", WARP_KEY_FILE, "(required)", NULL, "the trace"},
    {0},
};
static const warp_key_group groups[] = {
    {"net", "the network", net_keys, NULL, NULL, NULL},
    {"net", "the input-queued router", iq_keys, NULL, "router", "iq"},
    {"job.N", "a job", job_keys, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

static warp_ini *declared(void)
{
    warp_ini *ini = warp_ini_new();
    warp_ini_declare(ini, groups);
    return ini;
}

/* Runs use(ini) in a child; returns its exit status and its stderr's first line. */
static int in_child(void (*use)(warp_ini *), char *out, size_t cap)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    fflush(stderr);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], 2);
        close(fd[1]);
        warp_set_program_name("warpnet");
        warp_ini *ini = declared();
        use(ini);
        warp_ini_free(ini);
        _exit(0);
    }
    close(fd[1]);
    size_t n = 0;
    ssize_t r;
    while (n + 1 < cap && (r = read(fd[0], out + n, cap - 1 - n)) > 0)
        n += (size_t)r;
    out[n] = '\0';
    close(fd[0]);
    char *nl = strchr(out, '\n');
    if (nl)
        *nl = '\0';
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static void read_declared(warp_ini *ini)
{
    warp_ini_time_ns(ini, "net", "latency", 50);
    warp_ini_bytes(ini, "net", "size", 256);
    warp_ini_int(ini, "net", "lanes", 1, 1, 8);
    warp_ini_choice(ini, "net", "router", (const char *const[]){"oq", "iq", NULL}, 1);
    warp_ini_time_ns(ini, "net", "derived", 123);
    warp_ini_string(ini, "job.3", "trace", NULL);
    warp_ini_get(ini, "other", "anything"); /* an undeclared section is not checked */
}

Test(keys, declared_keys_read_with_their_defaults)
{
    char out[1024];
    cr_assert_eq(in_child(read_declared, out, sizeof out), 0, "stderr: %s", out);
}

static void read_undeclared(warp_ini *ini) { warp_ini_int(ini, "net", "lane", 1, 1, 8); }

Test(keys, undeclared_key_of_a_declared_section_is_a_programming_error)
{
    char out[1024];
    cr_assert_eq(in_child(read_undeclared, out, sizeof out), WARP_EXIT_INTERNAL);
    cr_assert_str_eq(out, "warpnet: programming error: [net] lane is read but not declared; add it to the "
                          "section's warp_key table (warp_keys.h)");
}

static void read_undeclared_job(warp_ini *ini) { warp_ini_get(ini, "job.12", "ranks"); }

Test(keys, section_patterns_are_checked_too)
{
    char out[1024];
    cr_assert_eq(in_child(read_undeclared_job, out, sizeof out), WARP_EXIT_INTERNAL, "stderr: %s", out);
    cr_assert(warp_key_section_matches("job.N", "job.0"));
    cr_assert(warp_key_section_matches("job.N", "job.12"));
    cr_assert_not(warp_key_section_matches("job.N", "job."));
    cr_assert_not(warp_key_section_matches("job.N", "job.x"));
    cr_assert_not(warp_key_section_matches("job.N", "jobs.1"));
    cr_assert_not(warp_key_section_matches("net", "network"));
}

static void read_other_time(warp_ini *ini) { warp_ini_time_ns(ini, "net", "latency", 40); }
static void read_other_size(warp_ini *ini) { warp_ini_bytes(ini, "net", "size", 512); }
static void read_other_count(warp_ini *ini) { warp_ini_int(ini, "net", "lanes", 2, 1, 8); }
static void read_other_choice(warp_ini *ini)
{
    warp_ini_choice(ini, "net", "router", (const char *const[]){"oq", "iq", NULL}, 0);
}

Test(keys, a_default_other_than_the_declared_one_is_a_programming_error)
{
    char out[1024];
    cr_assert_eq(in_child(read_other_time, out, sizeof out), WARP_EXIT_INTERNAL);
    cr_assert_str_eq(out, "warpnet: programming error: [net] latency is declared with default 50ns but read "
                          "with default 40; make the declaration and the getter agree");
    cr_assert_eq(in_child(read_other_size, out, sizeof out), WARP_EXIT_INTERNAL, "stderr: %s", out);
    cr_assert_eq(in_child(read_other_count, out, sizeof out), WARP_EXIT_INTERNAL, "stderr: %s", out);
    cr_assert_eq(in_child(read_other_choice, out, sizeof out), WARP_EXIT_INTERNAL, "stderr: %s", out);
}

Test(keys, declared_finds_the_declaration)
{
    warp_ini *ini = declared();
    const warp_key *k = warp_ini_declared(ini, "net", "speedup");
    cr_assert_not_null(k);
    cr_assert_str_eq(k->help, "input-queued only");
    cr_assert_null(warp_ini_declared(ini, "net", "nope"));
    cr_assert_str_eq(warp_key_kind_name(WARP_KEY_RATE), "rate");
    warp_ini_free(ini);
}

/* Keys of a group whose condition fails: one warning each, then accepted. */
static void inapplicable(warp_ini *ini)
{
    warp_ini_set(ini, "net", "router", "oq", "run.ini:2");
    warp_ini_set(ini, "net", "speedup", "2", "run.ini:3");
    warp_ini_choice(ini, "net", "router", (const char *const[]){"oq", "iq", NULL}, 1);
    warp_ini_warn_inapplicable(ini, stderr, "warpnet");
    warp_ini_reject_unused(ini, NULL);
}

static void applicable(warp_ini *ini)
{
    warp_ini_set(ini, "net", "speedup", "2", "run.ini:3"); /* router defaults to iq */
    warp_ini_choice(ini, "net", "router", (const char *const[]){"oq", "iq", NULL}, 1);
    warp_ini_warn_inapplicable(ini, stderr, "warpnet");
    warp_ini_reject_unused(ini, NULL); /* speedup was not read: refused */
}

Test(keys, keys_that_do_not_apply_warn_once_naming_why)
{
    char out[1024];
    cr_assert_eq(in_child(inapplicable, out, sizeof out), 0, "stderr: %s", out);
    cr_assert_str_eq(out, "warpnet: warning: run.ini:3: [net] speedup applies only with [net] router = iq "
                          "(this run has oq); it is ignored");
    cr_assert_eq(in_child(applicable, out, sizeof out), WARP_EXIT_USAGE, "stderr: %s", out);
    cr_assert(strstr(out, "speedup = 2: unknown key"), "stderr: %s", out);
}
