/* net/keys.c — the keys the network layer reads ([network], the common
 * [workload] keys) and the catalogue's declarations as one list: what
 * net_model_size attaches to the run file before anything reads it, and
 * what `warpnet keys` prints. Invariant: every key read from [network] by
 * models/net or the driver is declared here, once. */
#include "net/model.h"
#include "net/net_impl.h"

static const warp_key network_common[] = {
    {"topology", WARP_KEY_CHOICE, "(required)", "(see warpnet keys: every topology and network)",
     "the topology or network to simulate"},
    {"preset", WARP_KEY_CHOICE, "(none)", "booksim | codes-torus | codes-fattree | codes-dragonfly | codes-dragonfly-plus",
     "sets a documented group of keys (warpnet keys: Presets); each key the run file sets wins"},
    {"placement", WARP_KEY_TEXT, "linear", "linear | random | FILE",
     "ranks on terminals: rank i on terminal i, seeded random, or a file of one terminal per rank"},
    {"ranks", WARP_KEY_COUNT, "(one per node)", "1..nodes", "network ranks the workload has"},
    {"sample", WARP_KEY_TIME, "(off)", "> 0",
     "interval of the time series in samples.csv (as --sample; needs --out, packet networks only)"},
    {"reference_bandwidth", WARP_KEY_TEXT, "(none)", "PERCENT | RATE | bisection",
     "what the summary compares accepted throughput with: a share of injection (71%), a rate per "
     "node (8.9GB/s) or the topology's bisection"},
    {"failed_links", WARP_KEY_FILE, "(none)", NULL,
     "a file of ROUTER PORT lines (or ROUTER for a router without nodes) that fail; routing goes "
     "around them by table"},
    {"failed_fraction", WARP_KEY_REAL, "0", "0..0.999999", "share of router links that fail, drawn uniformly"},
    {"failed_seed", WARP_KEY_COUNT, "1", ">= 0", "seed of failed_fraction's draw"},
    {"failure_routing", WARP_KEY_CHOICE, "auto", "auto | static | adaptive",
     "with failures, the table's choice among minimal next hops: ECMP hash or least occupied (auto: "
     "adaptive where the topology's routing is)"},
    {0},
};

static const warp_key network_packet[] = {
    {"link_bandwidth", WARP_KEY_RATE, "12.5GB/s", "> 0", "bandwidth of every link a topology gives none"},
    {"link_latency", WARP_KEY_TIME, "50ns", ">= 0", "propagation delay of every link a topology gives none"},
    {"terminal_latency", WARP_KEY_TIME, "(link_latency)", ">= 0", "latency of the router-terminal links"},
    {"router_delay", WARP_KEY_TIME, "100ns", ">= 0",
     "from a packet's arrival (head for cut-through, tail for store-and-forward) until it may leave"},
    {"packet_size", WARP_KEY_SIZE, "256B", "1B..1GiB", "payload per packet (the last may be shorter)"},
    {"vc_buffer", WARP_KEY_SIZE, "(8 packets)", ">= packet_size", "input buffer per VC per port"},
    {"port_buffer", WARP_KEY_SIZE, "(none)", NULL, "input buffer per port, split evenly over the VCs (not with vc_buffer)"},
    {"switching", WARP_KEY_CHOICE, "cut-through", "cut-through | store-forward", "when a packet may leave a router"},
    {"router", WARP_KEY_CHOICE, "input-queued", "output-queued | input-queued",
     "router model: input FIFOs per VC with switch and VC allocation, or an ideal output-queued switch"},
    {"lanes", WARP_KEY_COUNT, "1", "1..8", "VCs per VC class of the topology (at most 8 VCs in all)"},
    {"injection_vcs", WARP_KEY_CHOICE, "lanes", "lanes | all",
     "VCs a terminal injects into: the lanes of VC class 0, or every VC"},
    {"credit_unit", WARP_KEY_SIZE, "0B", ">= 0",
     "bytes per credit (0B: one credit per packet); larger packets pipeline through small buffers"},
    {0},
};

static const warp_key network_iq[] = {
    {"speedup", WARP_KEY_COUNT, "1", "1..8", "packets an input port may send at once from different VCs"},
    {"internal_speedup", WARP_KEY_COUNT, "1", "1..16",
     "the switch runs this many times the output link's speed, into output buffers (BookSim's internal_speedup; "
     "preset booksim keeps BookSim's default 1, its dragonfly example sets 2)"},
    {"alloc_delay", WARP_KEY_TIME, "0ns", "0..router_delay",
     "after a tail has left, the next head of that VC FIFO waits this long (routing + allocation)"},
    {"lane_hold", WARP_KEY_TIME, "0ns", "0..router_delay",
     "an output lane stays held this long after a tail has left (VC allocation)"},
    {"alloc_iters", WARP_KEY_TEXT, "maximal", "maximal | 1..64", "request-grant-accept rounds per allocation"},
    {"vc_allocation", WARP_KEY_CHOICE, "with-switch", "with-switch | before-switch",
     "whether a head takes an output lane before it competes for the switch"},
    {"alloc_timing", WARP_KEY_CHOICE, "on-change", "on-change | per-cycle",
     "allocate at each change, or once per alloc_cycle as a clocked router"},
    {"alloc_cycle", WARP_KEY_TIME, "(a credit unit's link time)", "> 0", "allocator cycle with alloc_timing = per-cycle"},
    {0},
};

static const warp_key workload_common[] = {
    {"type", WARP_KEY_CHOICE, "traffic", "(see warpnet keys: every workload)", "the workload"},
    {"warmup", WARP_KEY_TIME, "0ns", "0..end", "time excluded from every statistic"},
    {0},
};

const warp_key_group net_keys[] = {
    {"network", "the network: topology, placement, failures, reference", network_common, NULL, NULL, NULL},
    {"network", "packet networks: links, packets, buffers, router model", network_packet, NULL, NULL, NULL},
    {"network", "the input-queued router's allocator", network_iq, NULL, "router", "input-queued"},
    {"workload", "the workload's type and warm-up", workload_common, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

void net_catalog_each_keys(const net_catalog *cat, void (*fn)(const warp_key_group *groups, void *arg),
                           void *arg)
{
    fn(net_keys, arg);
    for (const net_topology_ops *const *t = cat->topologies; *t; t++)
        if ((*t)->keys)
            fn((*t)->keys, arg);
    for (const net_network_ops *const *o = cat->networks; *o; o++)
        if ((*o)->keys)
            fn((*o)->keys, arg);
    for (const net_workload_ops *const *w = cat->workloads; *w; w++)
        if ((*w)->keys)
            fn((*w)->keys, arg);
}

static void declare(const warp_key_group *groups, void *ini) { warp_ini_declare(ini, groups); }

void net_catalog_declare(warp_ini *ini, const net_catalog *cat) { net_catalog_each_keys(cat, declare, ini); }
