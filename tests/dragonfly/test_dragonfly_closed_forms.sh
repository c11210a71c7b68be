#!/bin/sh
# test_dragonfly_closed_forms.sh — the dragonfly run by warpnet against
# numbers derived by hand (models/dragonfly/README.md):
#  - --describe: groups, local and global links from the formulas;
#  - zero-load latency of one message on a local-only path and on paths with
#    a global hop, links of three kinds (terminal, local, slower global, each
#    its own latency): cut-through n·s/B_min + Σλ + (H+1)d when the slowest
#    link is the global one, store-and-forward (n-1)·s/B_min + Σ(s/B + λ) +
#    (H+1)d;
#  - throughput bounds on a = 4, p = 2, h = 2 (72 nodes) at 100 % load:
#    minimal routing under the group shift is held by the one global link
#    from group i to i+1: 1/(a·p) · B_g/B_t (0.125, and 0.0625 with global
#    links at half speed); uniform minimal approaches injection (> 0.85);
#    Valiant at most halves it: shift bound (a·h - 1)/(2·a·p) = 0.4375,
#    uniform bound (N - 1)/(2·(a·p)²) = 0.555 (N = 72 nodes);
#  - configuration errors: too few VCs, too many groups.
. "${top_srcdir:-.}/tests/net/lib.sh"
. "${top_srcdir:-.}/tests/dragonfly/dfly_lib.sh"
SECTION=dragonfly
CONF="${top_srcdir:-.}/examples/configs"
INI="$CONF/dragonfly-a4.ini"

# --describe: g = a·h + 1 = 9 groups, local links g·a(a-1)/2 = 54, global
# g·a·h/2 = 36; with g = 4 (a·h = 8, N = 3: R = 2 rounds, S = 2 spares) the
# pairs at cyclic distance 1 get 3 links, the antipodes 2: 4·3 + 2·2 = 16.
"$WARPNET" --describe "$INI" > "$TMP/d" 2>&1 || { cat "$TMP/d"; exit 1; }
for line in "nodes: 72" "routers: 36" "groups: 9" "local_links: 54" "global_links: 36" \
    "links: 90" "radix: 7" "links_per_group_pair: 1" "vcs: 2"; do
    grep -qx "$line" "$TMP/d" && echo "ok   describe $line" || { echo "FAIL describe: no '$line'"; cat "$TMP/d"; fail=1; }
done
"$WARPNET" --describe "$INI" --dragonfly.g=4 > "$TMP/d" 2>&1 || { cat "$TMP/d"; exit 1; }
for line in "global_links: 16" "local_links: 24" "links_per_group_pair: 2 to 3"; do
    grep -qx "$line" "$TMP/d" && echo "ok   describe g=4 $line" || { echo "FAIL describe g=4: no '$line'"; cat "$TMP/d"; fail=1; }
done

# Zero load. Relative arrangement, a = 4, h = 2, g = 9: router 0 of group 0
# owns the links to groups 1 and 2, router 1 those to 3 and 4; group 3's
# link back to group 0 is its port 5 (slot 9 - 2 - 2), on router 2; group
# 1's is port 7, on router 3. From terminal 0 (router 0, group 0):
#   terminal 2  router 1 of group 0: H = 1, one local link;
#   terminal 14 router 3 of group 1: H = 1, one global link;
#   terminal 8  router 0 of group 1: H = 2, global then local;
#   terminal 24 router 0 of group 3: H = 3, local, global, local.
P=256; B=12.5; G=4.7; LT=10; LL=20; LG=300; D=100
for sw in cut-through store-forward; do
    for n in 1 4; do
        zero 2 $n $sw 1 1 0
        zero 14 $n $sw 1 0 1
        zero 8 $n $sw 2 1 1
        zero 24 $n $sw 3 2 1
    done
done

# Throughput at 100 % offered load, 16 KiB per VC.
within "minimal, shift: one global link per 8 terminals" \
    "$(accepted mw "$INI" --workload.pattern=worst)" 0.121 0.1251
within "minimal, shift, global links at half speed" \
    "$(accepted mw2 "$INI" --workload.pattern=worst --dragonfly.global_bandwidth=50Gbps)" 0.0605 0.0626
# Near injection is the ideal output-queued switch's figure: an input-queued
# router (the default) blocks at its FIFO heads and accepts about 0.67 here.
within "minimal, uniform: near injection (output-queued)" \
    "$(accepted mu "$INI" --network.router=output-queued)" 0.85 1.0
within "valiant, shift: below (a*h-1)/(2ap) = 0.4375" \
    "$(accepted vw "$INI" --workload.pattern=worst --dragonfly.routing=valiant)" 0.35 0.45
within "valiant, uniform: below 0.555" "$(accepted vu "$INI" --dragonfly.routing=valiant)" 0.45 0.57

# Configuration errors: one line, exit 2, naming the key.
refuse() { # name pattern options...
    name=$1 pat=$2; shift 2
    refused "$name" "$pat" "$WARPNET" --quiet "$INI" "$@"
}
refuse "par with 3 VCs" "needs 4 VCs" --dragonfly.routing=par --dragonfly.vcs=3
refuse "minimal with 1 VC" "needs 2 VCs" --dragonfly.vcs=1
refuse "more groups than a*h + 1" "lower g to at most 9" --dragonfly.g=10
refuse "a missing" "\[dragonfly\] a" --dragonfly.a=
refuse "global buffer below a packet" "global_vc_buffer" --dragonfly.global_vc_buffer=100B
refuse "global buffer past 1 GiB" "global_vc_buffer = 2GiB: a VC buffer may hold at most 1 GiB" --dragonfly.global_vc_buffer=2GiB
exit $fail
