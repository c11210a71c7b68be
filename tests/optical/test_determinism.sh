#!/bin/sh
# test_determinism.sh — the optical network commits the same digest and the
# same summary figures sequentially, under --synch=check (every event
# forward, reverse, compared, forward again) and debug (forced rollbacks),
# and optimistically on 2 and 4 processes, on a run that exercises every
# rule: OPS drops and resends with a full retransmission buffer, circuit
# requests, refusals, capacity and idle releases (hybrid paths, one link
# per ToR, short control-plane times), and a replayed trace.
. "${top_srcdir:-.}/tests/optical/lib.sh"

cat > "$TMP/d.ini" <<INI
[engine]
end = 200us
[network]
topology = optical
link_bandwidth = 10Gbps
packet_size = 1500B
[optical]
racks = 8
servers_per_rack = 4
fibers = 2
wavelengths = 4
path = hybrid
ocs_threshold = 3000B
ocs_links = 1
ocs_setup = 20us
ocs_reconfig = 4us
retry_delay = 5us
ocs_idle = 10us
tor_buffer = 2
tor_startup = 200ns
tor_per_byte = 0.1ns
[workload]
pattern = uniform
message_size = 4500B
load = 0.2
INI

# figures NAME: the digest and every model figure of a run's summary.json
# (all of it but the engine's line, which holds wall-clock times).
figures() {
    j="$TMP/$1/summary.json"
    echo "$(digest "$j") $(grep -v '"engine"' "$j" | tr -d ' \n' | sed 's/,"run_id":"[^"]*"//')"
}

check_all() { # label ini [args]
    label=$1 ini=$2; shift 2
    run "$label-seq" "$ini" --synch=seq "$@" || return
    want=$(figures "$label-seq")
    case $want in [0-9a-f]*) ;; *) echo "FAIL $label: no digest in summary.json"; fail=1 ;; esac
    for mode in check debug; do
        run "$label-$mode" "$ini" --synch=$mode "$@" || continue
        [ "$(figures "$label-$mode")" = "$want" ] && echo "ok   $label: $mode = seq" ||
            { echo "FAIL $label: $mode differs from seq"; figures "$label-$mode"; echo "$want"; fail=1; }
    done
    [ -n "${MPIEXEC:-}" ] || { echo "skip $label on 2 and 4 processes: no MPIEXEC"; return; }
    for np in 2 4; do
        timeout 120 $MPIEXEC -n $np "$WARPNET" --quiet "$ini" --synch=opt --batch=4 --gvt-interval=2 \
            --out="$TMP/$label-np$np" "$@" > "$TMP/$label-np$np.log" 2>&1 ||
            { echo "FAIL $label on $np processes: exit $?"; tail -3 "$TMP/$label-np$np.log"; fail=1; continue; }
        [ "$(figures "$label-np$np")" = "$want" ] && echo "ok   $label: $np processes = seq" ||
            { echo "FAIL $label: $np processes differ from seq"; fail=1; }
    done
}

check_all hybrid "$TMP/d.ini"
check_all ocs "$TMP/d.ini" --optical.path=ocs --workload.load=0.05
for k in "hybrid ops dropped" "hybrid ops resent" "hybrid ocs sent" "ocs ocs refusals" \
    "ocs ocs releases_idle" "ocs ocs releases_capacity"; do
    set -- $k
    v=$(sub "$TMP/$1-seq/summary.json" optical "$2" "$3")
    [ "${v:-0}" -gt 0 ] && echo "ok   the $1 run exercises $2 $3 ($v)" || { echo "FAIL no $2 $3 in the $1 run"; fail=1; }
done

# A replayed trace (3-D stencil with allreduce) on every path policy.
{ sed '/^\[workload\]/,$d' "$TMP/d.ini"; printf '[workload]\ntype = replay\n[job.0]\ntrace = gen:stencil3d:px=4,py=4,pz=2,iters=2,bytes=6000,compute=2000\n'; } > "$TMP/r.ini"
check_all replay "$TMP/r.ini" --end=2ms --optical.path=hybrid
exit $fail
