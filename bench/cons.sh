#!/usr/bin/env bash
# bench/cons.sh — conservative against optimistic on the network models, and
# the engine's time split (issue 15, items 2 and 5). Runs the torus 32K CODES
# case (to 5 us unless END is set) sequentially, optimistic and conservative
# on 1 and 2 ranks, and optimistic on 2 ranks with one LP per KP (where the
# fossil pass over every KP used to cost most); REPS=N repeats each run and
# keeps the fastest (default 3: the machine is usually shared). Prints CSV:
# the run's label and command, run seconds (engine, min over repeats),
# committed events, efficiency, GVT rounds and the slowest rank's split
# fwd/net/gvt/fossil of that fastest run, and the digest.
#   bench/cons.sh [BUILD_DIR]   (default _build; another build compares;
#   RUNS="opt2 opt2-lpk1" runs only those labels)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=${1:-$top/_build}
warpnet=$build/tools/warpnet/warpnet
[ -x "$warpnet" ] || { echo "bench: no $warpnet; build first" >&2; exit 1; }
reps=${REPS:-3}
end=${END:-5us}
mpiexec=${MPIEXEC:-mpiexec}
run="$top/examples/configs/torus-32k-codes.ini --engine.end=$end --quiet"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
num() { sed -n "s/.*\"$1\": \([-0-9.e+]*\).*/\1/p" "$2" | head -1; }
echo "label,command,run_s,committed,efficiency,gvt_rounds,fwd,net,gvt,fossil,digest"
one() {
    label=$1 np=$2; shift 2
    case " ${RUNS:-$label} " in *" $label "*) ;; *) return 0 ;; esac
    best=""
    for _ in $(seq "$reps"); do
        # shellcheck disable=SC2086 # run holds the file and its overrides
        if [ "$np" = 1 ]; then "$warpnet" $run "$@" --stats-json="$tmp/s.json" >/dev/null
        else "$mpiexec" -n "$np" "$warpnet" $run "$@" --stats-json="$tmp/s.json" >/dev/null; fi
        t=$(num run_s "$tmp/s.json")
        if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$t
            cp "$tmp/s.json" "$tmp/best.json"
        fi
    done
    j=$tmp/best.json
    dg=$(sed -n 's/.*"committed_digest": "\([0-9a-f]*\)".*/\1/p' "$j")
    echo "$label,np=$np $* ,$best,$(num committed "$j"),$(num efficiency "$j"),$(num gvt_rounds "$j"),$(num forward "$j"),$(num network "$j"),$(num gvt "$j"),$(num fossil "$j"),$dg"
}
one seq 1 --synch=seq
one opt1 1 --synch=opt
one cons1 1 --synch=cons
one opt2 2 --synch=opt
one cons2 2 --synch=cons
one opt2-lpk1 2 --synch=opt --lps-per-kp=1
