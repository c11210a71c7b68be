#!/bin/sh
# warpnet-report on real runs: one rank (sequential) and two MPI ranks
# (optimistic) with engine statistics, the same without engine.csv, and with
# a samples.csv whose totals are known by construction, and with the
# samples.csv of a real --sample run.
. "${top_srcdir:-.}/tests/report/lib.sh"
WARPNET="${top_builddir:-.}/tools/warpnet/warpnet"
if [ ! -x "$WARPNET" ]; then
    echo "SKIP: $WARPNET not built"; exit 77
fi
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
RUN="${top_srcdir:-.}/examples/configs/torus-8x8x8.ini"
NET="--torus.dims=4,4,4 --end=4us --workload.warmup=1us"
ALL="latency_hist latency_cdf terminal_throughput port_utilisation port_queue"
ENGINE="engine_time engine_efficiency engine_gvt kp_rollbacks"

# json FILE KEY [SUBKEY]: a number or string from summary.json.
json() {
    if [ -n "$3" ]; then
        sed -n "s/.*\"$2\": {[^}]*\"$3\": \"\{0,1\}\([^,\"}]*\).*/\1/p" "$1"
    else
        sed -n "s/^ *\"$2\": \"\{0,1\}\([^,\"]*\)\"\{0,1\},\{0,1\}\$/\1/p" "$1"
    fi
}

# The engine samples queue time on 1 pop in 64 and scales it by 64
# (engine/sched_seq.c, sched_opt.c), so on a loaded machine forward time
# (the remainder) can come out negative; the report warns about it. That
# warning is a known engine issue, not this tool's: it is shown, not failed.
report() { # DIR: runs warpnet-report, which must succeed without other warnings
    if "$REPORT" "$1" >"$TMP/rlog" 2>&1 &&
        ! grep Warning "$1/report.md" | grep -qv "negative time component"; then
        grep -q "negative time component" "$1/report.md" &&
            echo "note: $1: engine.csv has a negative time component (known engine issue)"
        ok "warpnet-report $1: $(cat "$TMP/rlog")"
    else
        cat "$TMP/rlog"; bad "warpnet-report $1 failed or warned"
    fi
}

check_engine() { # DIR PES
    expect_plots "$1" $ALL $ENGINE
    s=$1/summary.json
    has "$1" "committed $(json "$s" engine committed), processed $(json "$s" engine processed), rolled back $(json "$s" engine rolled_back) (equals summary.json)" \
        "$1: engine.csv totals shown and equal to summary.json"
    has "$1" "Packets delivered, summed over terminals.csv: $(json "$s" delivered_packets) (equals summary.json)" \
        "$1: terminal totals equal summary.json"
    has "$1" "engine.csv: $2 PEs," "$1: time split over $2 PEs"
    has "$1" "No samples.csv" "$1: time series skipped with a note"
}

# One rank.
mkdir "$TMP/seq"
if "$WARPNET" --quiet "$RUN" $NET --out="$TMP/seq" --engine-stats="$TMP/seq/engine.csv" \
    --stats-json="$TMP/seq/engine.json" >"$TMP/log" 2>&1; then
    report "$TMP/seq"
    check_engine "$TMP/seq" 1
    j=$TMP/seq/engine.json
    has "$TMP/seq" "| GVT rounds / fossil collections | $(json "$j" gvt_rounds) / $(json "$j" fossil_collections) |" \
        "engine.json figures on the page"
else
    cat "$TMP/log"; bad "warpnet run (1 rank)"
fi

# `warpnet report DIR` reaches the same script once the driver dispatches it.
"$WARPNET" report "$TMP/seq" >"$TMP/log" 2>&1
if grep -q "^warpnet-report: wrote $TMP/seq/report.md" "$TMP/log"; then
    ok "warpnet report DIR runs warpnet-report"
else
    echo "note: this warpnet does not dispatch 'report' yet: $(head -n 1 "$TMP/log")"
fi

# Two MPI ranks, optimistic: engine.csv has rows of both ranks.
if [ -n "$MPIEXEC" ] && mkdir "$TMP/mpi" &&
    $MPIEXEC -n 2 "$WARPNET" --quiet --synch=opt "$RUN" $NET --out="$TMP/mpi" \
        --engine-stats="$TMP/mpi/engine.csv" >"$TMP/log" 2>&1; then
    report "$TMP/mpi"
    check_engine "$TMP/mpi" 2
    if [ "$(json "$TMP/mpi/summary.json" engine committed_digest)" = "$(json "$TMP/seq/summary.json" engine committed_digest)" ]; then
        ok "same committed digest on 1 and 2 ranks"
    else
        bad "committed digests differ between 1 and 2 ranks"
    fi
else
    echo "note: no 2-rank run (MPIEXEC='$MPIEXEC' absent or failed):"; cat "$TMP/log" 2>/dev/null
fi

# Without engine.csv: network plots only, and a note naming the option.
mkdir "$TMP/noeng"
cp "$TMP/seq/summary.json" "$TMP/seq/"*.csv "$TMP/seq/run.txt" "$TMP/noeng/"
rm -f "$TMP/noeng/engine.csv" "$TMP/noeng/engine.csv.kps.csv"
report "$TMP/noeng"
expect_plots "$TMP/noeng" $ALL
has "$TMP/noeng" "--engine-stats=$TMP/noeng/engine.csv" "engine plots skipped with the option to use"

# samples.csv by construction: 16 terminals, 8 intervals of 500 ns; terminal i
# sends i+1 packets and receives 2 per interval; 4 routers x 3 ports x 2 VCs
# of occupancy. Totals: sent 8 * (1 + ... + 16) = 1088, received 8*16*2 = 256.
mkdir "$TMP/samp"
cp "$TMP/noeng/"* "$TMP/samp/"
awk 'BEGIN { print "time_ns,kind,id,port,vc,value"
    for (t = 0; t < 8; t++) {
        for (r = 0; r < 4; r++) for (p = 0; p < 3; p++) for (v = 0; v < 2; v++)
            printf "%d,occupancy,%d,%d,%d,%d\n", t * 500, r, p, v, 256 * (t + r)
        for (i = 0; i < 16; i++) {
            printf "%d,term_sent,%d,-1,-1,%d\n", t * 500, i, i + 1
            printf "%d,term_recv,%d,-1,-1,2\n", t * 500, i
        }
    } }' >"$TMP/samp/samples.csv"
# The directory must stay one run's: run.txt lists the hand-made file too.
cksum <"$TMP/samp/samples.csv" | awk '{ print $1, $2, "samples.csv" }' >>"$TMP/samp/run.txt"
report "$TMP/samp"
expect_plots "$TMP/samp" $ALL occupancy_heatmap term_sent_heatmap term_recv_heatmap throughput_time
has "$TMP/samp" "samples.csv: 8 sample times; packets sent by terminals 1088, received by terminals 256" \
    "sampled totals read from samples.csv"

# A real time series (--sample): 8 intervals of 500 ns; the page's sampled
# totals equal summary.json's injected and delivered packets.
if "$WARPNET" --quiet "$RUN" $NET --out="$TMP/real" --sample=500ns >"$TMP/log" 2>&1; then
    report "$TMP/real"
    expect_plots "$TMP/real" $ALL $ENGINE occupancy_heatmap term_sent_heatmap term_recv_heatmap \
        router_sent_heatmap router_recv_heatmap throughput_time
    inj=$(json "$TMP/real/summary.json" injected_packets)
    del=$(json "$TMP/real/summary.json" delivered_packets)
    has "$TMP/real" "samples.csv: 8 sample times; packets sent by terminals $inj, received by terminals $del (summary.json: injected $inj, delivered $del)" \
        "sampled totals of a --sample run equal summary.json"
    # samples.csv leaves zero rows out; the heat maps still cover every port,
    # terminal and router (ports.csv lists every port) and every interval.
    nports=$(($(wc -l <"$TMP/real/ports.csv") - 1))
    has "$TMP/real" "rows are the $nports router ports, router-major, columns the 8 intervals" \
        "occupancy heat map over all $nports ports"
    has "$TMP/real" "($(json "$TMP/real/summary.json" nodes) terminals, 8 intervals)" \
        "terminal heat maps over all terminals"
else
    cat "$TMP/log"; bad "warpnet --sample run failed"
fi
exit $fail
