#!/bin/sh
# test_rails.sh — rail-aware placement on a 2-plane (dual-rail) fat-tree
# with rail_select = static: a ring allreduce placed on rail 0
# (`placement = rail:0`) moves bytes only through plane-0 switches and one on
# rail 1 only through plane-1 switches (the two sets of routers that carry
# bytes are disjoint and not empty), while the same collectives with
# round-robin rail selection share switches; `placement = rails` puts job
# rank r on the next free node of rail r mod 2; errors name the key.
set -u
W="${top_builddir:-.}/tools/warpnet/warpnet"
[ -x "$W" ] || { echo "SKIP: $W not built"; exit 77; }
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
W=$(limited "$W")
tmp=$(mktemp -d /tmp/warpnet-rails.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
die() { echo "FAIL: $*"; fail=1; }

ini() { # rail_select, then [job.N] sections
    printf '[engine]\nend = 1s\n[network]\ntopology = fattree\nlink_bandwidth = 100Gbps\nlink_latency = 50ns\n'
    printf 'router_delay = 100ns\npacket_size = 4KiB\nvc_buffer = 64KiB\n[fattree]\nports = 4\nlevels = 2\n'
    printf 'planes = 2\nrail_select = %s\n[workload]\ntype = replay\n%s' "$1" "$2"
}
job() { # N trace placement
    printf '[job.%s]\ntrace = %s\nplacement = %s\n' "$1" "$2" "$3"
}
AR="gen:collective:op=allreduce,ranks=4,bytes=65536"

# routers NAME: the routers that took bytes in the run with --out=$tmp/NAME
routers() { awk -F, 'NR > 1 && $6 > 0 { print $1 }' "$tmp/$1/ports.csv" | sort -u | tr '\n' ' '; }

for sel in static round-robin; do
    for l in 0 1; do
        ini "$sel" "$(job 0 "$AR" "rail:$l")" > "$tmp/r.ini"
        "$W" --out="$tmp/$sel-$l" "$tmp/r.ini" > "$tmp/out" 2>&1 || die "$sel rail:$l: $(tail -3 "$tmp/out")"
    done
    a=$(routers "$sel-0") b=$(routers "$sel-1")
    [ -n "$a" ] && [ -n "$b" ] || { die "$sel: no router took bytes ('$a', '$b')"; continue; }
    shared=$(for r in $a; do case " $b " in *" $r "*) printf '%s ' "$r" ;; esac; done)
    if [ "$sel" = static ]; then
        [ -z "$shared" ] && echo "ok   static: rail 0 on routers $a, rail 1 on routers $b" ||
            die "static: rail-local collectives share routers $shared (rail 0: $a; rail 1: $b)"
    else
        [ -n "$shared" ] && echo "ok   round-robin: the rails share routers $shared" ||
            die "round-robin: rails 0 and 1 kept apart ($a / $b): the test cannot tell placements apart"
    fi
done

# placement = rails: job 0 takes node 0 (linear); job 1's ranks 0..2 go to
# the next free node of rails 0, 1, 0: nodes 2, 1, 4 (linear: 1, 2, 3).
ini static "$(job 0 gen:collective:op=allreduce,ranks=1,bytes=8 linear)
$(job 1 gen:collective:op=allreduce,ranks=3,bytes=65536 rails)" > "$tmp/p.ini"
"$W" --out="$tmp/p" "$tmp/p.ini" > "$tmp/out" 2>&1 || die "rails: $(tail -3 "$tmp/out")"
got=$(awk -F, 'NR > 1 && $3 > 0 { print $1 }' "$tmp/p/terminals.csv" | tr '\n' ' ')
[ "$got" = "1 2 4 " ] && echo "ok   rails: job 1 on nodes $got" || die "rails: job 1 sent from nodes '$got', want 1 2 4"

# Errors name the key.
ini static "$(job 0 "$AR" rail:2)" > "$tmp/e.ini"
"$W" "$tmp/e.ini" > "$tmp/out" 2>&1 && die "rail:2 on 2 planes accepted"
grep -q "\[job.0\] placement.*rail:2: give a rail 0..1" "$tmp/out" || die "rail:2: $(tail -2 "$tmp/out")"
printf '[engine]\nend = 1s\n[network]\ntopology = simplenet\n[simplenet]\nnodes = 4\n[workload]\ntype = replay\n%s' \
    "$(job 0 "$AR" rails)" > "$tmp/e.ini"
"$W" "$tmp/e.ini" > "$tmp/out" 2>&1 && die "rails on a one-port network accepted"
grep -q "placement.*rails needs a network with several NIC ports" "$tmp/out" || die "rails: $(tail -2 "$tmp/out")"
exit $fail
