/* net/model.h — building a network run from a configuration: what the
 * warpnet driver (and tests) call. Everything is per process and read-only
 * once built, except the result accumulator that finish handlers fill. */
#ifndef NET_MODEL_H
#define NET_MODEL_H

#include <stdio.h>

#include "net/net.h"
#include "net/network.h"
#include "net/stats.h"

/* What a run may be built from, by name (models/catalog fills one). Each
 * list ends with NULL. A topology runs on the packet network (the network
 * layer's terminals and routers); a network brings its own LPs. */
typedef struct net_catalog {
    const net_topology_ops *const *topologies;
    const net_network_ops *const *networks;
    const net_workload_ops *const *workloads;
} net_catalog;

/* Reads [network], the network's or topology's section and [workload] from
 * ini and builds the network, the placement and the LP types from what
 * `cat` offers, for the engine w (after its options are parsed: its end
 * time in ns, its seed for random placement, its ranks for collectives).
 * Stops on any config error with the place and key. */
/* The [network] and common [workload] keys the network layer reads. */
extern const warp_key_group net_keys[];
/* Calls fn with every list of declared keys: net_keys, then each
 * topology's, network's and workload's of cat. */
void net_catalog_each_keys(const net_catalog *cat, void (*fn)(const warp_key_group *groups, void *arg),
                           void *arg);
/* The presets the network layer itself has an entry of (booksim). */
extern const warp_preset net_presets[];
/* Applies [network] preset (its entries of the topology or network n
 * runs, of n's workload and of net_presets); stops naming the key when the
 * preset is unknown or has no entry for the run's topology. net_model_size
 * calls it once the topology and workload are known. */
void net_presets_apply(warp_ini *ini, const net_catalog *cat, net_model *n);
/* [network] preset, or NULL. */
const char *net_model_preset(const net_model *n);
/* Calls fn with every list of preset entries: net_presets (owner NULL),
 * then each topology's, network's and workload's of cat, with the setting
 * that makes them apply ("[network] topology = torus"). */
void net_catalog_each_presets(const net_catalog *cat,
                              void (*fn)(const warp_preset *presets, const char *owner, void *arg), void *arg);
/* Attaches all of them to ini (net_model_size does this first). */
void net_catalog_declare(warp_ini *ini, const net_catalog *cat);

net_model *net_model_build(warp_ini *ini, const net_catalog *cat, const warp_ctx *w);
void net_model_free(net_model *n);

/* The engine's view of the run (valid while n lives). */
const warp_model *net_model_warp(const net_model *n);
/* The per-process accumulator the finish handlers fill during warp_run. */
net_results *net_model_results(net_model *n);

/* Routers of the network's fabric (0 for networks without one). */
uint64_t net_model_routers(const net_model *n);
/* Router-to-router links (each bidirectional link once). */
uint64_t net_model_links(const net_model *n);
int32_t net_model_radix(const net_model *n);
/* [network] topology: the network's or the topology's name. */
const char *net_model_topology_name(const net_model *n);
/* The routing the run uses ([section] routing or the topology's default),
 * or NULL when the network does not say (no fabric, or no list). */
const char *net_model_routing(const net_model *n, warp_ini *ini);
const net_workload_ops *net_model_workload(const net_model *n, const void **wl);
/* The name of the network's path `path`, or NULL past its last path (or
 * for every path of a network that names none). */
const char *net_model_path_name(const net_model *n, int path);
/* The network's own reduce (collective), report and summary.json hooks
 * (network.h); each does nothing when the network has none. */
void net_model_network_reduce(net_model *n);
void net_model_network_report(const net_model *n, FILE *f);
void net_model_network_json(const net_model *n, FILE *f);

/* The first half of net_model_build: reads the network's configuration and
 * sizes it (nodes, routers, LPs, ranks) without per-node tables; enough
 * for net_describe and net_memory. */
net_model *net_model_size(warp_ini *ini, const net_catalog *cat, const warp_ctx *w);
/* The second half: stops with WARP_EXIT_RESOURCE, naming the ranks or the
 * memory per rank that would fit, when net_memory's estimate exceeds
 * warp_memory_per_rank; then places ranks, builds the workload and the
 * result tables. */
void net_model_complete(net_model *n, warp_ini *ini, const net_catalog *cat);

/* Memory a run needs, from the counts (bytes). Spread over the ranks:
 * `state` and `lps` (LP states and the engine's records), `flight` (the
 * events expected in flight at the workload's offered load) and `heap` (the
 * workload's own tables). On every rank: `process` (the program, MPI and
 * the allocator) and `replicated` (the description, placement and result
 * tables). `saturated` is the events of a saturated network, every buffer
 * full: a ceiling, not an estimate. */
typedef struct net_memory_estimate {
    double state, lps, replicated, process, flight, heap, saturated;
    double event_bytes;  /* one event in the pool */
    double flight_per_node; /* events in flight per node (flight / event_bytes / nodes) */
    double load, zero_load_ns; /* the offered load and a packet's (message's) zero-load time */
} net_memory_estimate;
void net_memory(const net_model *n, net_memory_estimate *m);
/* Bytes each of `ranks` ranks must hold for certain: the tables and
 * states, no events (the refusal of a run that cannot fit). */
double net_memory_per_rank(const net_memory_estimate *m, int ranks);
/* Bytes the busiest of `ranks` ranks is expected to reach (peak RSS):
 * net_memory_per_rank plus its events and workload tables. */
double net_memory_expected_per_rank(const net_memory_estimate *m, int ranks);
/* Networks with more router ports than this are described from formulas
 * (links from the radix) rather than by visiting every port. */
#define NET_DESCRIBE_EXACT_PORTS (UINT64_C(1) << 22)


/* The rank (0 .. parts-1) of every router of the packet network under
 * partition `kind` (heap array; index blocks for block, for a topology
 * without a partition hook, and for parts > routers). */
uint32_t *net_partition(const net_model *n, warp_partition_kind kind, uint32_t parts);
/* A partition of the routers into `parts` from measured traffic m (a run's
 * reduced results): METIS with routers weighted by their LPs and measured
 * events, links by their packets both ways (heap array). Stops with a
 * usage error in a build without METIS or for parts out of range. */
uint32_t *net_partition_measured(const net_model *n, const net_results *m, uint32_t parts);
/* Stops with a usage error where net_partition_measured would: a build
 * without METIS, parts out of range (checked before a run measures). */
void net_partition_check_measured(const net_model *n, int64_t parts);
/* Prints, for `mine` and the block, topology (and metis) partitions, the
 * share of m's link traversals that cross ranks and the measured-event
 * imbalance. */
void net_partition_report(const net_model *n, const net_results *m, const uint32_t *mine,
                          uint32_t parts, FILE *f);
/* A hash of the router graph (counts, each port's peer, each terminal's
 * router): what a placement file must have been made for. */
uint64_t net_partition_graph_hash(const net_model *n);
/* Writes a placement file (partition_file.c's format) of `part` for this
 * network on `parts` ranks, with a comment line; 0, or -1 with errno. */
int net_partition_write(const net_model *n, const uint32_t *part, uint32_t parts,
                        const char *path, const char *comment);
/* Reads the placement file at path (heap array router -> rank); stops with
 * a usage error naming the file and line when it is not for this network,
 * is malformed, or is for another rank count than parts (unless parts is 1). */
uint32_t *net_partition_read(const net_model *n, const char *path, uint32_t parts);
/* Block placement's expected events on its busiest rank over the mean
 * (--describe's event_imbalance). */
double net_partition_block_imbalance(const net_model *n, uint32_t parts);
/* Stops with a usage error unless 1 <= parts <= routers on a packet
 * network on a topology (what --describe --ranks=N can measure) and, with
 * partition = file, the file is a placement of this network on parts ranks. */
void net_partition_check_ranks(const net_model *n, int64_t parts);
/* The --describe --ranks=N lines: links cut, expected remote-event share,
 * LP and expected-event imbalance of `kind` beside block's; stops with a
 * usage error for N < 1, N > routers or a network that is not a packet
 * network on a topology. */
void net_describe_partition(const net_model *n, warp_partition_kind kind, int64_t parts, FILE *f);
/* Prints the --describe lines: nodes, routers, links, radix, memory (the
 * expected peak per rank on `ranks` ranks). */
void net_describe(const net_model *n, int ranks, FILE *f);
/* The --describe lines router_links_GBps and terminal_links_GBps: each
 * distinct bandwidth (GB/s = bytes/ns) with its number of links. */
void net_describe_links(const net_model *n, FILE *f);
/* Writes the router graph as Graphviz; returns 0, or -1 with *why set when
 * the network is too large (more than NET_DOT_MAX routers) or the file
 * cannot be written. */
#define NET_DOT_MAX 4096
int net_dump_dot(const net_model *n, const char *path, const char **why);

#endif
