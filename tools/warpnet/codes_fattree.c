/* codes_fattree.c — CODES's fat-tree (fattree.c, ft_type 0) onto Warpnet's
 * fattree: full, pruned (Summit), tapered and multi-rail trees. Invariant:
 * the tree written has CODES's switch and node counts level by level (the
 * formulas of fattree_read_config are redone here), or the file is refused
 * naming what differs. Called by convert_codes.c. Bandwidths in GB/s. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "codes_conv.h"

/* CODES's shape of a tree: tapering + 1 = ratio t, radix k; a leaf has
 * (t-1)·k/t nodes and k/t parents; pods of k/2 leaves; a pod's k/t
 * level-1 switches each reach k/2 top switches, shared by `rep` switches
 * of every pod (rep: radix / pods, lowered until it divides k/t). */
typedef struct {
    long long k, levels, ratio, leaves, pods, rails;
    long long nodes_per_leaf, l1_per_pod, rep, tops;
} ft_shape;

static void codes_shape(conv *v, ft_shape *s)
{
    codes_kv *rk = cv_param(v, "switch_radix"), *ck = cv_param(v, "switch_count");
    if (!rk || !ck)
        cv_fail(v, "PARAMS switch_radix and switch_count are required by CODES's fat-tree");
    long long radix[4], count[4];
    int nr = cv_int_list(v, rk, radix, 4);
    cv_int_list(v, ck, count, 4);
    for (int i = 1; i < nr; i++)
        if (radix[i] != radix[0])
            cv_fail(v, "line %d: switch_radix differs between levels; CODES's fat-tree uses the first for "
                    "every level, and so does the conversion: give one radix", rk->line);
    s->k = radix[0];
    s->leaves = count[0];
    s->levels = (long long)cv_num(v, "num_levels", 0, NULL);
    if (s->levels != 2 && s->levels != 3)
        cv_fail(v, "PARAMS num_levels = %lld: CODES's fat-tree has 2 or 3 levels", s->levels);
    if (s->k < 2 || s->k % 2)
        cv_fail(v, "PARAMS switch_radix = %lld: want an even radix", s->k);
    double taper = cv_num(v, "tapering", 1, NULL);
    s->ratio = (long long)taper + 1;
    if (taper != (double)(s->ratio - 1) || taper < 1 || s->k % s->ratio)
        cv_fail(v, "PARAMS tapering = %g: CODES needs tapering + 1 to divide switch_radix = %lld", taper, s->k);
    if (s->leaves < 1 || s->leaves % (s->k / 2))
        cv_fail(v, "PARAMS switch_count = %lld: CODES needs a multiple of switch_radix/2 = %lld leaf switches",
                s->leaves, s->k / 2);
    s->nodes_per_leaf = (s->ratio - 1) * (s->k / s->ratio);
    s->l1_per_pod = s->k / s->ratio;
    s->pods = s->leaves / (s->k / 2);
    s->rails = (long long)cv_num(v, "num_rails", 1, NULL);
    if (s->rails < 1 || s->rails > 16)
        cv_fail(v, "PARAMS num_rails = %lld: Warpnet's fat-tree has 1 to 16 planes", s->rails);
    if (s->levels == 3) {
        if (s->pods > s->k)
            cv_fail(v, "PARAMS switch_count = %lld: %lld pods of %lld leaves are more than a radix-%lld top "
                    "switch reaches (CODES divides by zero here)", s->leaves, s->pods, s->k / 2, s->k);
        for (s->rep = s->k / s->pods; s->l1_per_pod % s->rep; s->rep--)
            ;
        s->tops = s->l1_per_pod / s->rep * (s->k / 2);
    }
}

/* ft_type: 0 (and the deprecated 1, "similar functionality") is a tree per
 * rail with NICs of num_rails ports; 2 gives each rail its own NIC LP. */
static void check_groups(conv *v, const ft_shape *s)
{
    int g;
    double type = cv_num(v, "ft_type", 0, &g);
    if (type == 2)
        cv_fail(v, "PARAMS ft_type = 2 (a separate NIC per rail, each its own model-net endpoint) has no "
                "Warpnet equivalent; Warpnet's planes are the ports of one NIC, as CODES's ft_type 0 with num_rails");
    if (type != 0 && type != 1)
        cv_fail(v, "PARAMS ft_type = %g: CODES knows 0, 1 and 2", type);
    cv_mention(v->ftopo, cv_param(v, "ft_type"), "CODES's tree, one NIC per node");
    if (v->reps != s->leaves)
        cv_fail(v, "%s repetitions = %lld but switch_count = %lld; CODES needs them equal", v->grp, v->reps,
                s->leaves);
    if (v->nics != s->nodes_per_leaf)
        cv_fail(v, "%s modelnet_fattree = %lld; a radix-%lld leaf with tapering %lld has %lld nodes "
                "((tapering) x radix/(tapering + 1)); CODES needs them equal", v->grp, v->nics, s->k,
                s->ratio - 1, s->nodes_per_leaf);
    if (v->routers_per_rep && v->routers_per_rep < s->levels * s->rails)
        cv_fail(v, "%s fattree_switch = %lld; CODES needs num_levels x num_rails = %lld switch LPs per "
                "repetition", v->grp, v->routers_per_rep, s->levels * s->rails);
}

/* The tree: the m-port n-tree keys when CODES's tree is Warpnet's pruned
 * or full m-port n-tree, the XGFT keys when it is tapered. */
static void write_shape(conv *v, const ft_shape *s)
{
    char val[64];
    long long nodes = s->leaves * s->nodes_per_leaf;
    if (s->levels == 2) {
        if (s->ratio != 2 || s->leaves != s->k)
            cv_fail(v, "PARAMS switch_count = %lld, tapering = %lld: a pruned or tapered 2-level tree is not "
                    "converted (CODES's 2-level wiring joins only the first radix/2 leaves to the spines); "
                    "only the full radix-%lld 2-tree (switch_count = %lld, tapering 1)", s->leaves,
                    s->ratio - 1, s->k, s->k);
        snprintf(val, sizeof val, "%lld", s->k);
        cv_line(v->ftopo, "ports", val, "PARAMS switch_radix");
        cv_line(v->ftopo, "levels", "2", "PARAMS num_levels; PARAMS switch_count = %lld: the full tree", s->leaves);
        cv_mention(v->ftopo, cv_param(v, "tapering"), "CODES's untapered ratio (k/2 nodes per leaf switch)");
        return;
    }
    if (s->ratio == 2) {
        snprintf(val, sizeof val, "%lld", s->k);
        cv_line(v->ftopo, "ports", val, "PARAMS switch_radix");
        cv_line(v->ftopo, "levels", "3", "PARAMS num_levels");
        if (s->pods == s->k) {
            cv_mention(v->ftopo, cv_param(v, "switch_count"), "the full tree");
        } else {
            snprintf(val, sizeof val, "%lld", nodes);
            cv_line(v->ftopo, "nodes", val, "PARAMS switch_count = %lld leaves x %lld: CODES's pruned tree, "
                    "%lld pods, %lld top switches taking %lld links from each pod", s->leaves, s->nodes_per_leaf,
                    s->pods, s->tops, s->rep);
        }
        cv_mention(v->ftopo, cv_param(v, "tapering"), "CODES's untapered ratio (k/2 nodes per leaf switch)");
        return;
    }
    snprintf(val, sizeof val, "%lld,%lld,%lld", s->nodes_per_leaf, s->k / 2, s->pods);
    cv_line(v->ftopo, "down", val, "XGFT children: nodes per leaf (tapering x radix/(tapering+1)), leaves "
            "per pod (radix/2), pods (switch_count / (radix/2))");
    snprintf(val, sizeof val, "1,%lld,%lld", s->l1_per_pod, s->k / 2);
    cv_line(v->ftopo, "up", val, "XGFT parents: a leaf's radix/(tapering+1) level-1 switches, each with "
            "radix/2 top switches");
    snprintf(val, sizeof val, "%lld", s->rep);
    cv_line(v->ftopo, "top_fold", val, "CODES's link_repetitions: %lld top switches, each taking %lld links "
            "from every pod", s->tops, s->rep);
    cv_mention(v->ftopo, cv_param(v, "tapering"), "the leaf ratio nodes : up links, written as down/up");
    cv_mention(v->ftopo, cv_param(v, "switch_count"), "the leaves, written as down");
    cv_mention(v->ftopo, cv_param(v, "switch_radix"), "the radix, written as down/up");
    cv_mention(v->ftopo, cv_param(v, "num_levels"), "three levels, written as down/up");
}

/* num_rails trees side by side, a NIC port in each: Warpnet's planes.
 * CODES's rail_select: dedicated (its default) keeps a rank's messages on
 * the rail of its slot on the node; adaptive sends a message longer than
 * rail_select_limit on the NIC queue with the fewest bytes. */
static void write_rails(conv *v, const ft_shape *s)
{
    codes_kv *nr = cv_param(v, "num_rails"), *rs = cv_param(v, "rail_select"),
             *lim = cv_param(v, "rail_select_limit"), *iq = cv_param(v, "num_injection_queues");
    if (s->rails == 1) {
        cv_mention(v->fnet, nr, "one plane");
        cv_mention(v->fnet, rs, "one plane: nothing to select");
        cv_mention(v->fnet, lim, "one plane: nothing to select");
        return;
    }
    char val[32];
    snprintf(val, sizeof val, "%lld", s->rails);
    cv_line(v->ftopo, "planes", val, "PARAMS num_rails (ft_type 0: one tree per rail, a NIC port in each)");
    const char *how = rs ? rs->val[0] : "dedicated";
    if (!strcmp(how, "adaptive")) {
        cv_line(v->ftopo, "rail_select", "adaptive", "PARAMS rail_select = adaptive");
        fprintf(stderr, "warpnet: %s: rail_select = adaptive: CODES picks the NIC queue with the fewest "
                "bytes per message, for messages longer than rail_select_limit = %s B only (others take the "
                "dedicated rail); Warpnet's adaptive picks per packet the NIC port with the most credit\n",
                v->c.path, lim ? lim->val[0] : "32768");
    } else if (!strcmp(how, "dedicated")) {
        cv_line(v->ftopo, "rail_select", "static", "PARAMS rail_select = %s", rs ? how : "dedicated (CODES's default)");
        fprintf(stderr, "warpnet: %s: rail_select = dedicated: CODES keeps a rank on the rail of its slot "
                "on the node (rank slot / (ranks per node / queues)); Warpnet runs one rank per node and "
                "its static selection takes rail destination mod planes\n", v->c.path);
    } else {
        cv_fail(v, "line %d: PARAMS rail_select = %s: CODES's fat-tree knows dedicated and adaptive", rs->line, how);
    }
    if (lim)
        fprintf(v->ftopo, "# PARAMS rail_select_limit = %s: CODES's size above which adaptive selection "
                "applies (said on stderr)\n", lim->val[0]);
    if (iq && cv_num(v, "num_injection_queues", 1, NULL) == (double)s->rails)
        cv_mention(v->fnet, iq, "one injection queue per plane: Warpnet's NIC ports");
    else if (iq)
        cv_note(v, iq, "Warpnet's NIC has one injection queue per plane (num_rails)");
}

void cv_convert_fattree(conv *v)
{
    ft_shape s = {0};
    codes_shape(v, &s);
    check_groups(v, &s);
    fprintf(v->fnet, "topology = fattree%15s # %s modelnet_fattree, fattree_switch\n", "", v->grp);
    cv_router(v, "fattree.c");
    cv_line(v->fnet, "link_latency", "0ns", "CODES's fat-tree has no wire delay");
    cv_ns(v, v->fnet, "router_delay", "router_delay", 50);
    int pg;
    double packet = cv_num(v, "packet_size", 512, &pg);
    cv_bytes(v, v->fnet, "vc_buffer", "vc_size", 8 * packet, "bytes per switch VC");
    cv_node_buffers(v);
    cv_packets(v, 512, 512);
    write_shape(v, &s);
    write_rails(v, &s);
    codes_kv *r = cv_param(v, "routing");
    if (r && !strcmp(r->val[0], "static")) {
        cv_line(v->ftopo, "routing", "ecmp", "PARAMS routing = static");
        cv_note(v, r, "CODES's static routing reads OpenSM tables (routing_folder); converted as Warpnet's "
             "deterministic per-flow ECMP");
    } else {
        cv_line(v->ftopo, "routing", "adaptive", "PARAMS routing = %s", r ? r->val[0] : "adaptive (CODES's default)");
    }
    cv_bandwidth(v, v->ftopo, "switch_bandwidth", "link_bandwidth", 5, 0);
    cv_bandwidth(v, v->ftopo, "host_bandwidth", "cn_bandwidth", 5, 0);
}
