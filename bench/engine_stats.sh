# shellcheck shell=bash
# bench/engine_stats.sh — sourced by bench/interleave.sh and bench/pair.sh
# (no side effects): figures read from the engine's statistics table in a
# run's output file.

# engine_seconds FILE: setup + run wall time (s, 3 decimals); empty when
# FILE has no statistics table.
engine_seconds() {
    local s r
    s=$(sed -n 's/^  setup wall time (s) *//p' "$1" | head -1)
    r=$(sed -n 's/^  run wall time (s) *//p' "$1" | head -1)
    [ -n "$s" ] && [ -n "$r" ] || return 0
    awk -v a="$s" -v b="$r" 'BEGIN { printf "%.3f", a + b }'
}

# engine_digest FILE: the committed digest; empty when there is none.
engine_digest() { grep -o 'digest: [0-9a-f]*' "$1" | head -1 | cut -d' ' -f2; }
