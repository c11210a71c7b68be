#!/bin/sh
# test_presets.sh — [network] preset = NAME (issue 50 item 2):
#  - booksim is bench/booksim.sh's BookSim setting in one key: a run with it
#    commits what the same run with the bench's explicit keys commits; a key
#    the run file (or command line) sets wins over the preset's; and on the
#    2-VC 8x8 torus under uniform 1-flit traffic it saturates near BookSim2's
#    0.267 flits/cycle/node (bench/results: Warpnet 0.257 at offered 0.275,
#    0.209 at offered 0.4; BookSim 0.267 and 0.213), where the same torus
#    with the defaults alone accepts well above BookSim's figure (0.36 at
#    offered 0.4 when measured);
#  - booksim keeps BookSim's default internal_speedup of 1 (its dragonfly
#    example's 2.0 is passed by bench/booksim.sh itself); a speed-up the run
#    gives wins;
#  - each CODES preset is its reference run file's model settings: the run
#    file with those keys taken out and the preset put in commits the
#    reference's digest and figures (the ones test_golden.sh records and
#    bench compares with CODES);
#  - --describe and the summary name the preset; an unknown preset or one of
#    another topology is refused naming the key.
. "${top_srcdir:-.}/tests/net/lib.sh"
CONF="${top_srcdir:-.}/examples/configs"

cat >"$TMP/bs.ini" <<'INI'
[network]
topology = torus
preset = booksim
[torus]
dims = 8,8
[workload]
pattern = uniform
warmup = 3us
INI
RUN="--end=10us"
# The bench's input-queued case, key by key (bench/booksim.sh, wn_run).
EXPLICIT="--network.router=input-queued --network.link_bandwidth=1GB/s --network.terminal_latency=1ns
  --network.router_delay=4ns --network.alloc_delay=2ns --network.lane_hold=1ns --network.alloc_iters=1
  --network.vc_allocation=before-switch --network.alloc_timing=per-cycle --network.injection_vcs=all
  --network.credit_unit=1B --network.packet_size=1B --network.vc_buffer=8B --workload.message_size=1B
  --workload.arrivals=bernoulli --workload.arrival_slot=1ns --torus.ties=random --torus.dateline=dimension
  --network.link_latency=2ns"
sed '/^preset/d' "$TMP/bs.ini" >"$TMP/plain.ini"

# digest OUT: the committed digest line of a run's output.
digest() { sed -n 's/.*committed digest: *//p' "$1"; }
accepted_of() { sed -n 's/^accepted load *\([0-9.]*\).*/\1/p' "$1"; }

"$WARPNET" "$TMP/bs.ini" $RUN --workload.load=0.275 >"$TMP/bs.out" 2>&1 || bad "booksim preset run exits $?"
# shellcheck disable=SC2086 # $EXPLICIT is a list of options
"$WARPNET" "$TMP/plain.ini" $RUN --workload.load=0.275 $EXPLICIT >"$TMP/ex.out" 2>&1 ||
    bad "explicit BookSim run exits $?"
if [ -n "$(digest "$TMP/bs.out")" ] && [ "$(digest "$TMP/bs.out")" = "$(digest "$TMP/ex.out")" ]; then
    echo "ok   preset booksim = the bench's keys: $(digest "$TMP/bs.out")"
else
    bad "preset booksim commits $(digest "$TMP/bs.out"), the bench's keys $(digest "$TMP/ex.out")"
fi
within "booksim preset, 2-VC 8x8 torus at offered 0.275 (BookSim peak 0.267)" "$(accepted_of "$TMP/bs.out")" 0.24 0.28
grep -q '^preset  *booksim$' "$TMP/bs.out" && echo "ok   the summary names the preset" ||
    bad "the summary does not name the preset"

"$WARPNET" "$TMP/bs.ini" $RUN --workload.load=0.4 >"$TMP/bs4.out" 2>&1 || bad "booksim preset at 0.4 exits $?"
within "booksim preset beyond saturation, offered 0.4 (BookSim 0.213)" "$(accepted_of "$TMP/bs4.out")" 0.18 0.26
"$WARPNET" "$TMP/plain.ini" $RUN --workload.load=0.4 >"$TMP/def4.out" 2>&1 || bad "default run exits $?"
within "the same torus with the defaults alone, offered 0.4 (well above BookSim's 0.267)" \
    "$(accepted_of "$TMP/def4.out")" 0.32 0.42

# A key given wins over the preset's, and only that key changes.
"$WARPNET" "$TMP/bs.ini" $RUN --workload.load=0.275 --network.alloc_iters=maximal >"$TMP/ov.out" 2>&1 ||
    bad "booksim preset with an override exits $?"
# shellcheck disable=SC2086
"$WARPNET" "$TMP/plain.ini" $RUN --workload.load=0.275 $EXPLICIT --network.alloc_iters=maximal >"$TMP/exov.out" 2>&1 ||
    bad "explicit run with the override exits $?"
if [ "$(digest "$TMP/ov.out")" = "$(digest "$TMP/exov.out")" ] && [ "$(digest "$TMP/ov.out")" != "$(digest "$TMP/bs.out")" ]; then
    echo "ok   alloc_iters = maximal overrides the preset's 1"
else
    bad "override: preset+override $(digest "$TMP/ov.out"), explicit $(digest "$TMP/exov.out"), preset $(digest "$TMP/bs.out")"
fi
# internal_speedup: the preset keeps BookSim's default of 1 (its dragonfly
# example's internal_speedup = 2.0 is that example's, and bench/booksim.sh
# passes it there), so the preset run is the explicit one at speed-up 1,
# and a speed-up the run gives wins over it.
"$WARPNET" keys 2>&1 | sed -n '/^  booksim /,/^  [a-z]/p' | grep -q 'alloc_timing = per-cycle, internal_speedup = 1' &&
    echo "ok   preset booksim lists internal_speedup = 1 (BookSim's default)" ||
    bad "preset booksim does not list internal_speedup = 1"
"$WARPNET" "$TMP/bs.ini" $RUN --workload.load=0.275 --network.internal_speedup=2 >"$TMP/sp2.out" 2>&1 ||
    bad "booksim preset with internal_speedup = 2 exits $?"
# shellcheck disable=SC2086
"$WARPNET" "$TMP/plain.ini" $RUN --workload.load=0.275 $EXPLICIT --network.internal_speedup=2 >"$TMP/exsp2.out" 2>&1 ||
    bad "explicit run with internal_speedup = 2 exits $?"
if [ "$(digest "$TMP/sp2.out")" = "$(digest "$TMP/exsp2.out")" ] && [ "$(digest "$TMP/sp2.out")" != "$(digest "$TMP/bs.out")" ]; then
    echo "ok   internal_speedup = 2 overrides the preset's 1"
else
    bad "internal_speedup: preset+2 $(digest "$TMP/sp2.out"), explicit+2 $(digest "$TMP/exsp2.out"), preset $(digest "$TMP/bs.out")"
fi

# The output-queued router with the preset: its allocator keys do not apply,
# silently (the user did not set them).
"$WARPNET" "$TMP/bs.ini" --end=2us --workload.warmup=0ns --quiet --network.router=output-queued >"$TMP/oq.out" 2>"$TMP/oq.err" ||
    bad "booksim preset on the output-queued router exits $?"
[ -s "$TMP/oq.err" ] && { bad "booksim preset on the output-queued router warns:"; cat "$TMP/oq.err"; }

"$WARPNET" --describe "$TMP/bs.ini" --end=10us >"$TMP/desc" 2>&1 || bad "--describe exits $?"
grep -q '^preset: booksim$' "$TMP/desc" && echo "ok   --describe names the preset" || bad "--describe does not name the preset"
refused "unknown preset" "preset = booksm: unknown preset; choose one of: booksim" "$WARPNET" "$TMP/bs.ini" \
    --network.preset=booksm
refused "preset of another topology" "preset = codes-dragonfly: is a preset of topology = dragonfly" \
    "$WARPNET" "$TMP/bs.ini" --network.preset=codes-dragonfly

# codes INI PRESET "KEYS" [ARGS...]: INI with KEYS taken out and the preset
# put in commits what INI does.
codes() {
    ini=$1 preset=$2 keys=$3; shift 3
    awk -v keys=" $keys " -v preset="$preset" '
        BEGIN { gsub(/[ \t\n]+/, " ", keys) }
        { k = $1 }
        /^\[network\]/ { print; print "preset = " preset; next }
        index(keys, " " k " ") && $2 == "=" { next }
        { print }' "$CONF/$ini" >"$TMP/$preset.ini"
    "$WARPNET" --synch=seq "$CONF/$ini" "$@" >"$TMP/ref.out" 2>&1 || { bad "$ini exits $?"; return; }
    "$WARPNET" --synch=seq "$TMP/$preset.ini" "$@" >"$TMP/pre.out" 2>&1 || { bad "$preset run exits $?"; cat "$TMP/pre.out"; return; }
    if [ -n "$(digest "$TMP/ref.out")" ] && [ "$(result "$TMP/ref.out" | grep -v '^run file\|^preset')" = \
         "$(result "$TMP/pre.out" | grep -v '^run file\|^preset')" ]; then
        echo "ok   preset $preset reproduces $ini: $(digest "$TMP/pre.out")"
    else
        bad "preset $preset differs from $ini:"; diff "$TMP/ref.out" "$TMP/pre.out" | head -10
    fi
}
codes dragonfly-codes-1056.ini codes-dragonfly "link_latency router_delay packet_size vc_buffer arrangement routing
    n_indirect ugal_hop_weight local_bandwidth global_bandwidth terminal_bandwidth local_vc_buffer global_vc_buffer
    terminal_vc_buffer"
codes fattree-8p3l-codes.ini codes-fattree "link_latency router_delay packet_size vc_buffer switching routing
    host_bandwidth switch_bandwidth" --end=2us
codes torus-32k-codes.ini codes-torus "link_bandwidth link_latency router_delay packet_size vc_buffer" \
    --torus.dims=4,4,4
codes dragonflyplus-codes-8448.ini codes-dragonfly-plus "router link_latency router_delay packet_size vc_buffer
    switching arrangement routing ugal_hop_weight ugal_threshold local_bandwidth global_bandwidth terminal_bandwidth
    local_vc_buffer global_vc_buffer terminal_vc_buffer" --end=3us
exit $fail
