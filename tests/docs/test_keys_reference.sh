#!/bin/sh
# test_keys_reference.sh — the key reference a user reads is the one the
# models declare (issue 50):
#  - docs/keys.md is `warpnet keys --markdown` (regenerate it with
#    `make -C _build keys-md` when this fails);
#  - `warpnet keys SECTION` and `warpnet --help=SECTION` print that section
#    alone and exit 0; an unknown section is one usage line, exit 2;
#  - `warpnet keys --json` is JSON (when python3 can say) and lists the
#    sections of every topology, network and workload of the catalogue.
. "${top_srcdir:-.}/tests/net/lib.sh"
SRC="${top_srcdir:-.}"

"$WARPNET" keys --markdown >"$TMP/keys.md" || bad "warpnet keys --markdown exits $?"
if cmp -s "$TMP/keys.md" "$SRC/docs/keys.md"; then
    echo "ok   docs/keys.md is current ($(grep -c '^| `' "$TMP/keys.md") keys)"
else
    bad "docs/keys.md is stale; regenerate it: make -C _build keys-md (or warpnet keys --markdown > docs/keys.md)"
    diff "$SRC/docs/keys.md" "$TMP/keys.md" | head -20
fi

for sec in network dragonfly replay workload engine job.0; do
    for how in "keys $sec" "--help=$sec"; do
        # shellcheck disable=SC2086 # the words of $how are separate arguments
        "$WARPNET" $how >"$TMP/sec.out" 2>&1 || { bad "warpnet $how exits $?"; continue; }
        heads=$(grep -c '^\[' "$TMP/sec.out")
        other=$(grep '^\[' "$TMP/sec.out" | grep -vc "^\[${sec%.0}")
        if [ "$heads" -ge 1 ] && [ "$other" -eq 0 ]; then
            echo "ok   warpnet $how: $heads part(s) of [$sec] alone"
        else
            bad "warpnet $how printed:"; head -5 "$TMP/sec.out"
        fi
    done
done
"$WARPNET" keys network | grep -q '^  link_bandwidth  *rate  *default 12.5GB/s; > 0$' ||
    bad "warpnet keys network: no link_bandwidth line with its kind, default and range"
refused "unknown section" "keys: no section \[dragonfy\]; sections: engine, network" "$WARPNET" --help=dragonfy
refused "stray argument" "keys: --bogus: unexpected argument" "$WARPNET" keys --bogus

"$WARPNET" keys --json >"$TMP/keys.json" || bad "warpnet keys --json exits $?"
if command -v python3 >/dev/null; then
    python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$TMP/keys.json" &&
        echo "ok   warpnet keys --json is JSON" || bad "warpnet keys --json is not JSON"
fi
for sec in engine network workload replay job.N torus fattree slimfly dragonfly dragonflyplus hyperx graph \
           simplenet loggp optical; do
    grep -q "^ *{\"section\": \"$sec\"" "$TMP/keys.json" || bad "warpnet keys --json has no [$sec]"
done
exit $fail
