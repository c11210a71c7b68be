#!/bin/sh
# warpnet-report's user errors: one line, the directory, what to do, exit 2;
# and inputs that do not agree are reported as warnings, not drawn silently.
. "${top_srcdir:-.}/tests/report/lib.sh"

expect_error() { # WHAT WANT-LINE ARGS...
    what=$1 want=$2
    shift 2
    "$REPORT" "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    if [ "$rc" = 2 ] && [ "$(cat "$TMP/err")" = "$want" ] && [ ! -s "$TMP/out" ]; then
        ok "$what: exit 2, '$want'"
    else
        bad "$what: exit $rc, stderr '$(cat "$TMP/err")', want exit 2 and '$want'"
    fi
}
expect_error "missing directory" \
    "warpnet: $TMP/nope: no such directory; run warpnet --out=$TMP/nope first" "$TMP/nope"
mkdir "$TMP/empty"
expect_error "no summary.json" \
    "warpnet: $TMP/empty: no summary.json in it; run warpnet --out=$TMP/empty first" "$TMP/empty"
mkdir "$TMP/sweep" && : >"$TMP/sweep/sweep.csv"
expect_error "a sweep directory" \
    "warpnet: $TMP/sweep: a sweep directory (sweep.csv, no summary.json); give one point: warpnet report $TMP/sweep/point-000" "$TMP/sweep"
expect_error "no argument" \
    "warpnet: usage: warpnet report DIR; run warpnet --out=DIR first, then give DIR"
expect_error "two arguments" \
    "warpnet: usage: warpnet report DIR; run warpnet --out=DIR first, then give DIR" "$TMP/empty" x

# An engine.csv from another run than summary.json (100 committed there, 60
# here), and a ports.csv with a column missing: a warning and a note, exit 0.
d=$TMP/mixed
mkdir "$d"
cat >"$d/summary.json" <<JSON
{
  "topology": "torus",
  "nodes": 8,
  "routers": 8,
  "ranks": 8,
  "delivered_packets": 0,
  "engine": {"committed_digest": "0000000000000001", "committed": 100, "processed": 100, "rolled_back": 0, "efficiency": 1}
}
JSON
cat >"$d/engine.csv" <<CSV
rank,round,wall_s,gvt,processed,committed,rolled_back,forward_s,reverse_s,queue_s,network_s,gvt_s,fossil_s,event_bytes
0,0,0.1,50,30,30,0,0.05,0,0.01,0,0,0.01,0
1,0,0.1,50,30,30,0,0.05,0,0.01,0,0,0.01,0
CSV
printf 'router,port,utilisation\n0,0,0.5\n' >"$d/ports.csv"
printf '{\n  "gvt_rounds": 1,\n  "committed_digest": "00000000000000ff"\n}\n' >"$d/engine.json"
if "$REPORT" "$d" >"$TMP/out" 2>"$TMP/err"; then
    ok "mismatched inputs still render (exit 0)"
else
    bad "mismatched inputs: exit $?: $(cat "$TMP/err")"
fi
if grep -q "engine.csv ends at committed 60, processed 60, rolled back 0 but summary.json says 100, 100, 0" "$TMP/err" "$d/report.md"; then
    ok "engine.csv / summary.json mismatch warned on stderr and page"
else
    bad "no warning for engine.csv 60 vs summary.json 100: $(cat "$TMP/err")"
fi
if grep -q "engine.json's committed digest 00000000000000ff is not summary.json's 0000000000000001" "$TMP/err"; then
    ok "engine.json / summary.json digest mismatch warned"
else
    bad "no warning for engine.json's digest differing from summary.json's"
fi
if grep -q "ports.csv: no column out_queue_mean_bytes|queue_mean_bytes" "$d/report.md"; then
    ok "ports.csv without a column: note names the column"
else
    bad "ports.csv without a column: no note naming it"
fi
exit $fail
