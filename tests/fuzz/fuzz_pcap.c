/* tests/fuzz/fuzz_pcap.c — libFuzzer harness for the pcap reader's own code
 * (models/replay/readers/pcap_msgs.c): frame decoding, the endpoint map,
 * the message rules and the rank graphs. libpcap's file parsing is not
 * fuzzed here (a Debian binary without coverage instrumentation); its
 * errors reach the user through pcap.c unchanged. Built by `make fuzz`.
 *
 * Input: a head byte (low 4 bits: the link type, from the list below; bit 4:
 * causal; bit 5: the endpoint map below instead of one rank per address;
 * bit 6: the rest is endpoint-map text), then frames: a 2-byte caplen, a
 * 2-byte timestamp step in us (wrapping steps go backwards: out of order),
 * then caplen bytes (mkseed_pcap.py writes such inputs from a pcap file).
 *
 * Checks, for every input: no crash, leak or sanitizer report; decoding,
 * map parsing and building fail with one line, or give graphs that pass
 * replay_rank_validate with every message sent once and received once. */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/readers/pcap_msgs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PATH "synthetic.pcap"

static const int linktypes[16] = {1, 113, 276, 101, 12, 0, 108, 228, 229, 1, 1, 1, 147, 105, 1, 1};
static const char map_text[] = "127.0.0.1 0\n127.0.0.2:5000 1\n127.0.0.2 2\n127.0.0.3 1\n[::1]:80 3\n::1 0\n"
                               "10.0.0.1 2\n10.0.0.2 3\n";

static void one_line(const replay_err *e)
{
    assert(e->msg[0] && !strchr(e->msg, '\n'));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    replay_err err = {{0}};
    cap_map map = {0};
    if (data[0] & 0x40) {
        if (cap_map_parse((const char *)data + 1, size - 1, "fuzz.map", &map, &err) == 0)
            assert(map.n > 0 && map.nranks > 0);
        else
            one_line(&err);
        cap_map_free(&map);
        return 0;
    }
    int dlt = linktypes[data[0] & 15], causal = (data[0] >> 4) & 1, use_map = (data[0] >> 5) & 1;
    cap_pkt *pkts = calloc(size / 4 + 1, sizeof *pkts);
    size_t n = 0;
    int64_t ts = 1000000000;
    for (size_t at = 1; at + 4 <= size;) {
        uint32_t caplen = (uint32_t)data[at] | (uint32_t)data[at + 1] << 8;
        int16_t step = (int16_t)((uint16_t)data[at + 2] | (uint16_t)data[at + 3] << 8);
        at += 4;
        if (caplen > size - at)
            caplen = (uint32_t)(size - at);
        const char *why = NULL;
        int rc = cap_decode(dlt, data + at, caplen, &pkts[n], &why);
        at += caplen;
        ts += (int64_t)step * 1000;
        if (rc < 0) {
            assert(why && !strchr(why, '\n'));
            continue;
        }
        if (rc > 0)
            continue;
        pkts[n].ts_ns = ts;
        pkts[n].number = n + 1;
        n++;
    }
    cap_sort(pkts, n);
    if (use_map)
        assert(cap_map_parse(map_text, sizeof map_text - 1, "fuzz.map", &map, &err) == 0);
    replay_capture cap;
    int32_t nranks = 0;
    if (n && cap_build(pkts, n, use_map ? &map : NULL, 1000000, PATH, &cap, &nranks, &err) == 0) {
        cap_index ix;
        cap_index_build(&cap, nranks, &ix);
        uint64_t sent = 0, recvd = 0;
        for (int32_t r = 0; r < nranks; r++) {
            replay_rank g;
            memset(&g, 0, sizeof g);
            if (cap_rank_graph(&cap, &ix, causal, r, PATH, &g, &err) != 0) {
                fprintf(stderr, "graph of rank %d refused: %s\n", r, err.msg);
                abort();
            }
            replay_err verr = {{0}};
            if (replay_rank_validate(&g, PATH, &verr) != 0) {
                fprintf(stderr, "graph of rank %d is invalid: %s\n", r, verr.msg);
                abort();
            }
            sent += g.nmsgs;
            for (uint32_t i = 0; i < g.ntasks; i++)
                recvd += (g.tasks[i].flags & REPLAY_TRIGGERED) != 0;
            replay_rank_free(&g);
        }
        assert(sent == cap.nmsgs && recvd == cap.nmsgs);
        cap_index_free(&ix);
        cap_capture_free(&cap);
    } else if (n) {
        one_line(&err);
    }
    cap_map_free(&map);
    free(pkts);
    return 0;
}
