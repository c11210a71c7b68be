/* main.c — warpnet-trace: inspect, convert and generate replay traces.
 *   warpnet-trace info [OPTIONS] TRACE        counts and critical path
 *   warpnet-trace convert [OPTIONS] IN OUT    any input -> native text/binary
 *   warpnet-trace gen KIND [key=value ...] -o OUT
 * Errors: one line "warpnet-trace: ..." (warp_fatal) and exit 2 (input/usage) or 3
 * (resources). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/capture.h"
#include "replay/readers/bigsim.h"
#include "replay/critpath.h"
#include "replay/readers/gen.h"
#include "replay/readers/native.h"
#include "replay/readers/readers.h"
#include "warp_error.h"

static const char usage[] =
    "usage: warpnet-trace info [OPTIONS] TRACE\n"
    "       warpnet-trace convert [OPTIONS] [--text|--binary] IN OUT\n"
    "       warpnet-trace gen KIND [key=value ...] [--text|--binary] -o OUT\n"
    "options:\n"
    "  --format=bigsim|otf2|goal|native|gen|dimemas|pcap  input format (default: guessed from the path)\n"
    "  --ampi-overhead=NS   BigSim: duration of AMPI_* tasks (default 100)\n"
    "  --keep-init          BigSim: keep the initialisation phase before the start event\n"
    "  --eager-limit=BYTES  OTF2, Dimemas: rendezvous above this size (default 65536)\n"
    "  --dimemas-rendezvous=size|trace  Dimemas: rendezvous by --eager-limit (default) or where\n"
    "                       the send record's synchronism bit 0 says so (Dimemas's own default)\n"
    "  --pcap-mode=causal|open-loop  pcap: replies wait for what they answer (default), or\n"
    "                       every message leaves at its captured time\n"
    "  --pcap-map=FILE      pcap: endpoint map, lines 'ADDRESS[:PORT] RANK' (default: a rank per address)\n"
    "  --pcap-coalesce=TIME  pcap: longest gap between segments of one message (default 1ms)\n"
    "  --no-timing          info: skip the critical-path computation\n"
    "TRACE may also be a generator spec gen:KIND:key=value,...\n";

static void die_usage(const char *what)
{
    warp_fatal(WARP_EXIT_USAGE, "%s; see warpnet-trace --help", what);
}

typedef struct cli {
    const char *format;
    replay_opts opts;
    int binary; /* -1 unset */
    int timing;
    const char *out;
    const char *pos[64];
    int npos;
} cli;

static uint64_t parse_u64(const char *opt, const char *v)
{
    char *end;
    unsigned long long x = strtoull(v, &end, 10);
    if (end == v || *end || *v == '-') {
        char m[300];
        snprintf(m, sizeof m, "%s=%s is not a non-negative integer", opt, v);
        die_usage(m);
    }
    return x;
}

/* A setting of the readers' key `key` from option opt: the reader checks it. */
static void reader_key(cli *c, const char *opt, const char *key, const char *value)
{
    const char *why = replay_opts_set(&c->opts, key, value);
    if (why) {
        char m[400];
        snprintf(m, sizeof m, "%s=%s: %s", opt, value, why);
        die_usage(m);
    }
}

/* The same for an option whose value is a bare number of `unit`. */
static void reader_key_u64(cli *c, const char *opt, const char *key, const char *value, const char *unit)
{
    char v[64];
    snprintf(v, sizeof v, "%llu%s", (unsigned long long)parse_u64(opt, value), unit);
    reader_key(c, opt, key, v);
}

static void parse_cli(int argc, char **argv, cli *c)
{
    memset(c, 0, sizeof *c);
    c->opts = replay_opts_default();
    c->binary = -1;
    c->timing = 1;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strncmp(a, "--format=", 9))
            c->format = a + 9;
        else if (!strncmp(a, "--ampi-overhead=", 16))
            reader_key_u64(c, "--ampi-overhead", "ampi_overhead", a + 16, "ns");
        else if (!strncmp(a, "--eager-limit=", 14))
            reader_key_u64(c, "--eager-limit", "eager_limit", a + 14, "B");
        else if (!strncmp(a, "--dimemas-rendezvous=", 21))
            reader_key(c, "--dimemas-rendezvous", "dimemas_rendezvous", a + 21);
        else if (!strncmp(a, "--pcap-mode=", 12))
            reader_key(c, "--pcap-mode", "pcap_mode", a + 12);
        else if (!strncmp(a, "--pcap-map=", 11))
            reader_key(c, "--pcap-map", "pcap_map", a + 11);
        else if (!strncmp(a, "--pcap-coalesce=", 16))
            reader_key(c, "--pcap-coalesce", "pcap_coalesce", a + 16);
        else if (!strcmp(a, "--keep-init"))
            reader_key(c, "--keep-init", "keep_init", "1");
        else if (!strcmp(a, "--no-timing"))
            c->timing = 0;
        else if (!strcmp(a, "--text"))
            c->binary = 0;
        else if (!strcmp(a, "--binary"))
            c->binary = 1;
        else if (!strcmp(a, "-o") && i + 1 < argc)
            c->out = argv[++i];
        else if (a[0] == '-' && a[1]) {
            char m[300];
            snprintf(m, sizeof m, "unknown option '%s'", a);
            die_usage(m);
        } else if (c->npos < 64)
            c->pos[c->npos++] = a;
        else
            die_usage("too many arguments");
    }
}

static replay_source *open_or_die(const char *path, const cli *c)
{
    replay_source *s;
    replay_err err;
    if (replay_source_open(path, c->format, &c->opts, &s, &err))
        warp_fatal(WARP_EXIT_USAGE, "%s", err.msg);
    return s;
}

/* A packet capture's summary: what was captured and what was set aside. */
static void capture_info(const replay_capture *cap)
{
    uint64_t bytes = 0, flows = 0;
    int64_t end = 0;
    for (uint32_t k = 0; k < cap->nflows; k++) {
        bytes += cap->flows[k].bytes;
        flows += cap->flows[k].msgs > 0;
        if (cap->flows[k].msgs && cap->flows[k].t_last > end)
            end = cap->flows[k].t_last;
    }
    printf("capture_hosts: %u\ncapture_packets: %" PRIu64 "\ncapture_flows: %u\ncapture_flows_with_data: %" PRIu64
           "\ncapture_payload_bytes: %" PRIu64 "\ncapture_duration_ns: %" PRId64 "\n"
           "capture_retransmitted_segments: %" PRIu64 "\ncapture_retransmitted_bytes: %" PRIu64
           "\ncapture_pure_acks: %" PRIu64 "\ncapture_duplicate_acks: %" PRIu64
           "\ncapture_other_frames: %" PRIu64 "\ncapture_out_of_order_packets: %" PRIu64 "\n",
           cap->hosts, cap->packets, cap->nflows, flows, bytes, end, cap->retrans_segments, cap->retrans_bytes,
           cap->pure_acks, cap->dup_acks, cap->skipped, cap->reordered);
    for (uint32_t k = 0; k < cap->nflows; k++)
        if (cap->flows[k].msgs)
            printf("flow %u: %s messages %" PRIu64 " bytes %" PRIu64 " fct_ns %" PRId64 "\n", k,
                   cap->flows[k].name, cap->flows[k].msgs, cap->flows[k].bytes,
                   cap->flows[k].t_last - cap->flows[k].t_first);
}

static int cmd_info(const cli *c)
{
    if (c->npos != 1)
        die_usage("info needs exactly one TRACE");
    replay_source *s = open_or_die(c->pos[0], c);
    int32_t n = s->nranks;
    replay_rank *ranks = warp_xcalloc((size_t)n, sizeof *ranks);
    uint64_t tasks = 0, deps = 0, msgs = 0, bytes = 0, trig = 0, mem = 0, work = 0, waits = 0;
    uint32_t max_tasks = 0;
    replay_err err;
    for (int32_t q = 0; q < n; q++) {
        if (replay_source_load(s, q, &ranks[q], &err))
            warp_fatal(WARP_EXIT_USAGE, "%s", err.msg);
        const replay_rank *r = &ranks[q];
        tasks += r->ntasks;
        deps += r->ndeps;
        msgs += r->nmsgs;
        mem += replay_rank_bytes(r);
        if (r->ntasks > max_tasks)
            max_tasks = r->ntasks;
        for (uint32_t k = 0; k < r->nmsgs; k++)
            bytes += r->msgs[k].bytes;
        for (uint32_t i = 0; i < r->ntasks; i++) {
            trig += (r->tasks[i].flags & REPLAY_TRIGGERED) != 0;
            if (r->tasks[i].flags & REPLAY_WAIT)
                waits += r->tasks[i].dur_ns;
            else
                work += r->tasks[i].dur_ns;
        }
    }
    printf("trace: %s\nformat: %s\nranks: %d\ntasks: %" PRIu64 "\nmax_tasks_per_rank: %u\n"
           "dependencies: %" PRIu64 "\nmessages: %" PRIu64 "\nmessage_bytes: %" PRIu64 "\n"
           "triggered_tasks: %" PRIu64 "\ncompute_ns: %" PRIu64 "\n",
           s->path, s->ops->format, n, tasks, max_tasks, deps, msgs, bytes, trig, work);
    printf("graph_bytes: %" PRIu64 "\nbytes_per_task: %.1f\n", mem, tasks ? (double)mem / (double)tasks : 0.0);
    if (waits)
        printf("wait_ns: %" PRIu64 "\n", waits);
    if (s->ops->capture)
        capture_info(s->ops->capture(s));
    if (!strcmp(s->ops->format, "bigsim")) {
        uint64_t rt = 0, rm = 0, rd = 0;
        for (int32_t q = 0; q < n; q++) {
            replay_bigsim_counts bc;
            if (replay_bigsim_counts_of(s, q, &bc, &err))
                warp_fatal(WARP_EXIT_USAGE, "%s", err.msg);
            rt += bc.tasks;
            rm += bc.msg_entries;
            rd += bc.deps;
        }
        printf("bigsim_task_records: %" PRIu64 "\nbigsim_message_entries: %" PRIu64 "\n"
               "bigsim_backward_deps: %" PRIu64 "\nbigsim_start_msg: %d\n", rt, rm, rd,
               replay_bigsim_start_msg(s));
    }
    if (c->timing) {
        replay_timing cp, fifo;
        replay_timing_run(ranks, n, 0, &cp, NULL);
        replay_timing_run(ranks, n, 1, &fifo, NULL);
        printf("critical_path_ns: %" PRIu64 "\nideal_replay_ns: %" PRIu64 "\n", cp.finish_ns, fifo.finish_ns);
        printf("tasks_never_run: %" PRIu64 "\nmessages_unmatched: %" PRIu64 "\n", fifo.tasks_stuck,
               fifo.msgs_unmatched);
        if (fifo.tasks_stuck || fifo.msgs_unmatched) {
            fflush(stdout); /* the counts above, then the verdict */
            warp_fatal(WARP_EXIT_USAGE, "%s: %" PRIu64 " tasks never run and %" PRIu64 " messages are "
                       "never received with zero network time; the trace is inconsistent (it deadlocks "
                       "or sends what no rank receives)", s->path, fifo.tasks_stuck, fifo.msgs_unmatched);
        }
    }
    for (int32_t q = 0; q < n; q++)
        replay_rank_free(&ranks[q]);
    free(ranks);
    replay_source_close(s);
    return 0;
}

static int out_binary(const cli *c, const char *out)
{
    if (c->binary >= 0)
        return c->binary;
    size_t n = strlen(out);
    return !(n >= 4 && (!strcmp(out + n - 4, ".txt") || !strcmp(out + n - 4, ".wtt")));
}

static int cmd_convert(const cli *c)
{
    if (c->npos != 2)
        die_usage("convert needs IN and OUT");
    replay_source *s = open_or_die(c->pos[0], c);
    replay_err err;
    if (replay_native_write(c->pos[1], out_binary(c, c->pos[1]), s, &err))
        warp_fatal(WARP_EXIT_USAGE, "%s", err.msg);
    replay_source_close(s);
    return 0;
}

static int cmd_gen(const cli *c)
{
    if (c->npos < 1 || !c->out)
        die_usage("gen needs KIND and -o OUT");
    char spec[1024];
    int len = snprintf(spec, sizeof spec, "gen:%s:", c->pos[0]);
    for (int i = 1; i < c->npos && len < (int)sizeof spec; i++)
        len += snprintf(spec + len, sizeof spec - (size_t)len, "%s%s", i > 1 ? "," : "", c->pos[i]);
    if (len >= (int)sizeof spec)
        die_usage("generator parameters too long");
    cli g = *c;
    g.format = "gen";
    replay_source *s = open_or_die(spec, &g);
    replay_err err;
    if (replay_native_write(c->out, out_binary(c, c->out), s, &err))
        warp_fatal(WARP_EXIT_USAGE, "%s", err.msg);
    printf("warpnet-trace: wrote %s: %d ranks of %s, %s form\n", c->out, s->nranks, spec,
           out_binary(c, c->out) ? "binary" : "text");
    replay_source_close(s);
    return 0;
}

int main(int argc, char **argv)
{
    warp_set_program_name("warpnet-trace");
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(usage, argc < 2 ? stderr : stdout);
        fputs(replay_gen_help(), argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    /* `warpnet-trace gen --help` and the like: the one usage names every
     * command's options. */
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            fputs(replay_gen_help(), stdout);
            return 0;
        }
    cli c;
    parse_cli(argc, argv, &c);
    if (!strcmp(argv[1], "info"))
        return cmd_info(&c);
    if (!strcmp(argv[1], "convert"))
        return cmd_convert(&c);
    if (!strcmp(argv[1], "gen"))
        return cmd_gen(&c);
    char m[300];
    snprintf(m, sizeof m, "unknown command '%s' (info, convert, gen)", argv[1]);
    die_usage(m);
    return 2;
}
