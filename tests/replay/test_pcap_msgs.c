/* test_pcap_msgs.c — the pcap reader's message rules (pcap_msgs.c,
 * docs/pcap-replay.md) on hand-made packets: coalescing by direction and
 * gap, retransmitted and partly repeated segments, sequence wrap, the
 * endpoint map, and the causal graph's waits. */
#include <criterion/criterion.h>
#include <string.h>

#include "replay/readers/pcap_msgs.h"

/* A TCP packet a -> b (addresses 10.0.0.a, port 1000 + a) at t us. */
static cap_pkt tcp(int a, int b, int64_t t_us, uint32_t seq, uint32_t len, uint8_t flags)
{
    cap_pkt p;
    memset(&p, 0, sizeof p);
    p.ts_ns = t_us * 1000;
    p.src[0] = p.dst[0] = 10;
    p.src[3] = (uint8_t)a;
    p.dst[3] = (uint8_t)b;
    p.proto = 6;
    p.sport = (uint16_t)(1000 + a);
    p.dport = (uint16_t)(1000 + b);
    p.seq = seq;
    p.payload = len;
    p.tcp_flags = flags;
    return p;
}

static replay_capture build(cap_pkt *p, size_t n, int64_t coalesce_ns, int32_t *nranks)
{
    replay_capture c;
    replay_err err = {{0}};
    cr_assert_eq(cap_build(p, n, NULL, coalesce_ns, "t.pcap", &c, nranks, &err), 0, "%s", err.msg);
    return c;
}

Test(pcap_msgs, a_message_ends_at_the_other_sides_data_or_a_long_gap)
{
    cap_pkt p[] = {
        tcp(1, 2, 0, 100, 1000, CAP_ACK), tcp(1, 2, 10, 1100, 500, CAP_ACK), /* one message: 1500 */
        tcp(2, 1, 20, 7, 0, CAP_ACK),                                          /* pure ACK: no break */
        tcp(1, 2, 30, 1600, 100, CAP_ACK),                                     /* still the same: 1600 */
        tcp(2, 1, 40, 7, 300, CAP_ACK),                                        /* the reply */
        tcp(2, 1, 5000, 307, 200, CAP_ACK),                                    /* 4.96 ms later: a new one */
    };
    int32_t n;
    replay_capture c = build(p, 6, 1000000, &n);
    cr_assert_eq(n, 2);
    cr_assert_eq(c.nmsgs, 3, "%u messages, want 3", c.nmsgs);
    cr_assert_eq(c.msgs[0].bytes, 1600);
    cr_assert_eq(c.msgs[0].t_last, 30000);
    cr_assert_eq(c.msgs[1].bytes, 300);
    cr_assert(c.msgs[1].reply && c.msgs[1].prev == 0);
    cr_assert_eq(c.msgs[2].bytes, 200);
    cr_assert(!c.msgs[2].reply && c.msgs[2].prev == 1, "a same-way message follows its predecessor");
    cr_assert_eq(c.pure_acks, 1);
    cap_capture_free(&c);
}

Test(pcap_msgs, repeated_bytes_are_not_replayed_twice)
{
    cap_pkt p[] = {
        tcp(1, 2, 0, 0, 0, CAP_SYN),          /* data starts at seq 1 */
        tcp(1, 2, 10, 1, 1000, CAP_ACK),
        tcp(1, 2, 20, 1, 1000, CAP_ACK),      /* whole retransmission */
        tcp(1, 2, 30, 501, 1000, CAP_ACK),    /* half old, half new */
        tcp(2, 1, 40, 0, 0, CAP_ACK), tcp(2, 1, 41, 0, 0, CAP_ACK), /* duplicate ACK */
    };
    int32_t n;
    replay_capture c = build(p, 6, 1000000, &n);
    cr_assert_eq(c.nmsgs, 1);
    cr_assert_eq(c.msgs[0].bytes, 1500, "bytes %llu, want the 1500 of new sequence space",
                 (unsigned long long)c.msgs[0].bytes);
    cr_assert_eq(c.retrans_segments, 2);
    cr_assert_eq(c.retrans_bytes, 1500);
    cr_assert_eq(c.dup_acks, 1);
    cap_capture_free(&c);
}

Test(pcap_msgs, sequence_numbers_wrap)
{
    cap_pkt p[] = {tcp(1, 2, 0, 0xfffffe00u, 0x100, CAP_ACK), tcp(1, 2, 1, 0xffffff00u, 0x200, CAP_ACK),
                   tcp(1, 2, 2, 0x100, 0x100, CAP_ACK)};
    int32_t n;
    replay_capture c = build(p, 3, 1000000, &n);
    cr_assert_eq(c.msgs[0].bytes, 0x400);
    cr_assert_eq(c.retrans_segments, 0);
    cap_capture_free(&c);
}

Test(pcap_msgs, map_prefers_address_and_port_and_names_bad_lines)
{
    const char text[] = "# hosts\n10.0.0.2 5\n10.0.0.2:1001 7\n10.0.0.1 0\n";
    cap_map m;
    replay_err err = {{0}};
    cr_assert_eq(cap_map_parse(text, sizeof text - 1, "h.map", &m, &err), 0, "%s", err.msg);
    cr_assert_eq(m.nranks, 8);
    cap_pkt p[] = {tcp(1, 2, 0, 1, 10, CAP_ACK), tcp(3, 2, 1, 1, 10, CAP_ACK)};
    p[0].dport = 1001; /* 10.0.0.2:1001 -> rank 7 */
    replay_capture c;
    int32_t n;
    cr_assert_eq(cap_build(p, 1, &m, 1000000, "t.pcap", &c, &n, &err), 0, "%s", err.msg);
    cr_assert_eq(c.msgs[0].src, 0);
    cr_assert_eq(c.msgs[0].dst, 7);
    cap_capture_free(&c);
    cr_assert_eq(cap_build(p, 2, &m, 1000000, "t.pcap", &c, &n, &err), -1);
    cr_assert(strstr(err.msg, "endpoint 10.0.0.3 port 1003 is in no line"), "%s", err.msg);
    cap_map_free(&m);
    const char bad[] = "10.0.0.1 0\n10.0.0.300 1\n";
    cr_assert_eq(cap_map_parse(bad, sizeof bad - 1, "h.map", &m, &err), -1);
    cr_assert(strstr(err.msg, "h.map:2: expected"), "%s", err.msg);
}

Test(pcap_msgs, causal_reply_waits_for_the_request_plus_think_time)
{
    cap_pkt p[] = {tcp(1, 2, 100, 1, 64, CAP_ACK), tcp(1, 2, 110, 65, 64, CAP_ACK), tcp(2, 1, 400, 1, 32, CAP_ACK)};
    int32_t n;
    replay_capture c = build(p, 3, 1000000, &n);
    cap_index ix;
    cap_index_build(&c, n, &ix);
    replay_rank g;
    replay_err err = {{0}};
    cr_assert_eq(cap_rank_graph(&c, &ix, 1, 1, "t", &g, &err), 0, "%s", err.msg);
    /* rank 1 (10.0.0.2): receive 0, then wait (after it) 400 - 110 us, then send 1 */
    cr_assert_eq(g.ntasks, 3);
    cr_assert(g.tasks[0].flags & REPLAY_TRIGGERED);
    cr_assert(g.tasks[1].flags & REPLAY_WAIT);
    cr_assert_eq(g.tasks[1].dur_ns, 290000, "think %llu ns, want 290000",
                 (unsigned long long)g.tasks[1].dur_ns);
    cr_assert_eq(g.deps[replay_dep_begin(&g, 1)], 0, "the wait starts at the request's receive");
    replay_rank_free(&g);
    cr_assert_eq(cap_rank_graph(&c, &ix, 0, 1, "t", &g, &err), 0, "%s", err.msg);
    cr_assert_eq(g.tasks[1].dur_ns, 300000, "open-loop: the captured send time from the start");
    replay_rank_free(&g);
    cap_index_free(&ix);
    cap_capture_free(&c);
}
