/* net/partition_parse.h — the reading half of placement files
 * (partition_file.c's format): checks a file against what the run's network
 * is, given as its name, counts and graph hash rather than the network, so
 * that the parsing stands alone (net_partition_read calls it; so does the
 * placement fuzz harness, tests/fuzz/fuzz_placement.c). */
#ifndef NET_PARTITION_PARSE_H
#define NET_PARTITION_PARSE_H

#include <stdint.h>

/* A placement file's first line. */
#define NET_PARTITION_MAGIC "warpnet-partition 1"

/* The network a file must have been made for. */
typedef struct net_partition_want {
    const char *name; /* topology name */
    uint64_t routers, nodes;
    uint64_t hash; /* net_partition_graph_hash */
} net_partition_want;

/* Reads the placement file at path (heap array router -> rank, want->routers
 * entries); stops with a usage error naming the file and line when it is not
 * for `want`, is malformed, or is for another rank count than parts (unless
 * parts is 1). */
uint32_t *net_partition_parse(const char *path, const net_partition_want *want, uint32_t parts);

#endif
