/* pcap_msgs.h — from captured frames to replayed messages, without libpcap:
 * decoding Ethernet / Linux cooked / raw IP frames down to TCP and UDP,
 * the endpoint map (IP[:port] -> rank), and the rules that turn a
 * time-ordered packet list into messages (docs/pcap-replay.md). Used by
 * the pcap reader (pcap.c), its unit tests and its fuzz harness. */
#ifndef REPLAY_PCAP_MSGS_H
#define REPLAY_PCAP_MSGS_H

#include <stddef.h>
#include <stdint.h>

#include "replay/capture.h"
#include "replay/error.h"
#include "replay/taskgraph.h"

/* One decoded TCP or UDP packet. */
typedef struct cap_pkt {
    int64_t ts_ns;
    uint8_t src[16], dst[16]; /* IPv4 in the first 4 bytes, the rest zero */
    uint8_t v6, proto, tcp_flags, pad;
    uint16_t sport, dport;
    uint32_t seq, ack, payload; /* payload: bytes by the IP header's length, not the captured ones */
    uint32_t file;              /* which of the capture's files (0 for one file) */
    uint64_t number;            /* 1-based number in its file */
} cap_pkt;

enum { CAP_FIN = 0x01, CAP_SYN = 0x02, CAP_RST = 0x04, CAP_ACK = 0x10 };

/* Whether frames of link type dlt (DLT_* / LINKTYPE_* numbers) decode. */
int cap_linktype_known(int dlt);

/* Decodes one frame of link type dlt, caplen bytes captured: 0 and *p
 * filled (all but ts_ns, file, number); 1 for a frame that is not replayed
 * (not IPv4/IPv6, neither TCP nor UDP, a non-first IP fragment); -1 with
 * *why for one whose headers are cut short or malformed. */
int cap_decode(int dlt, const uint8_t *b, uint32_t caplen, cap_pkt *p, const char **why);

/* The endpoint map: lines "ADDR[:PORT] RANK" ("[V6ADDR]:PORT RANK"),
 * '#' comments. A packet's endpoint takes the line with its address and
 * port, else the one with its address alone. */
typedef struct cap_map_entry {
    uint8_t addr[16];
    uint8_t v6, has_port;
    uint16_t port;
    int32_t rank;
} cap_map_entry;

typedef struct cap_map {
    cap_map_entry *e;
    size_t n;
    int32_t nranks; /* highest rank + 1 */
} cap_map;

/* Parses map text (len bytes; `name` for messages, which name its lines).
 * Returns 0, or -1 with err set. */
int cap_map_parse(const char *text, size_t len, const char *name, cap_map *m, replay_err *err);
void cap_map_free(cap_map *m);

/* An address as text: a.b.c.d or the IPv6 form. */
void cap_addr_str(const uint8_t *a, int v6, char *out, size_t cap);

/* The messages of a capture: pkts sorted by time (stable), map NULL for
 * one rank per IP address (ranks in address order), coalesce_ns the
 * largest gap inside one message. Fills out (its arrays heap, freed by
 * cap_capture_free) and *nranks. Returns 0, or -1 with err set (an
 * endpoint the map lacks; more than 2^31 messages). `path` names the
 * capture in messages. */
int cap_build(const cap_pkt *pkts, size_t n, const cap_map *map, int64_t coalesce_ns, const char *path,
              replay_capture *out, int32_t *nranks, replay_err *err);
void cap_capture_free(replay_capture *c);

/* Each rank's messages (sent or received; a self-message once), in id
 * order: CSR over ranks. */
typedef struct cap_index {
    uint32_t *rank_end, *rank_msgs;
    int32_t nranks;
} cap_index;
void cap_index_build(const replay_capture *c, int32_t nranks, cap_index *ix);
void cap_index_free(cap_index *ix);

/* Rank r's task graph (docs/pcap-replay.md): per message it sends, a wait
 * (REPLAY_WAIT) then the send; per message it receives, a receive with the
 * message's id as tag. causal: a TCP message's wait starts at the previous
 * message of its connection (its delivery if it went the other way, its
 * send if the same way); otherwise at the start. Returns 0, or -1 with err
 * set (place names the capture). */
int cap_rank_graph(const replay_capture *c, const cap_index *ix, int causal, int32_t rank, const char *place,
                   replay_rank *out, replay_err *err);

/* Sorts pkts by time, keeping the order of equal times; returns how many
 * packets came earlier than one before them in their file. */
uint64_t cap_sort(cap_pkt *pkts, size_t n);

#endif
