#!/bin/sh
# test_scaling_model.sh — bench/scaling_model.py (issue 49, "plan past the
# box") reads the committed measurements and prints its validation against
# every 16-rank scenario of bench/results/scaling.csv and its predictions for
# the three headline cases at 64, 256 and 1,024 ranks; with --describe it
# refreshes the remote shares from the real binary. No figure is asserted:
# the model's error is reported in bench/RESULTS.md, not tested.
set -u
S=$(cd "${top_srcdir:-.}" && pwd)
B=$(cd "${top_builddir:-.}" && pwd)
command -v python3 > /dev/null || { echo "SKIP: python3 runs the model"; exit 77; }
tmp=$(mktemp -d /tmp/warpnet-scaling-model.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
python3 "$S/bench/scaling_model.py" > "$tmp/out" 2>&1 || { echo "FAIL: $(tail -3 "$tmp/out")"; exit 1; }
n=$(awk -F'|' '/^## Validation/ { v = 1 } /^## Predictions/ { v = 0 } v && $8 ~ /%/ { c++ } END { print c + 0 }' "$tmp/out")
want=$(awk -F, '$2 == "opt" && $3 == 16' "$S/bench/results/scaling.csv" | wc -l)
[ "$n" = "$want" ] && echo "ok   validation rows: $n scenarios at 16 ranks" || { echo "FAIL validation rows: $n, want $want"; fail=1; }
for c in slimfly-q163-window fattree-524k stencil-512k-torus; do
    for r in 64 256 1024; do
        grep -q "^| $c | .* | $r | [0-9.]* / [0-9.]* / [0-9.]* |" "$tmp/out" || { echo "FAIL no prediction for $c on $r ranks"; fail=1; }
    done
done
[ $fail = 0 ] && echo "ok   predictions for the three headline cases at 64, 256 and 1024 ranks"
# --describe writes describe_ranks.csv beside the script: run it on a copy,
# for two scenarios (all of them take a minute; the other rows must stay).
W="$B/tools/warpnet/warpnet"
if [ -x "$W" ]; then
    mkdir -p "$tmp/bench/results" "$tmp/examples"
    cp "$S/bench/scaling_model.py" "$tmp/bench/" && cp "$S"/bench/results/*.csv "$tmp/bench/results/" &&
        ln -s "$S/examples/configs" "$tmp/examples/configs"
    chmod -R u+w "$tmp/bench"
    if python3 "$tmp/bench/scaling_model.py" --describe "$W" torus-32k fattree-codes && cmp -s "$tmp/bench/results/describe_ranks.csv" "$S/bench/results/describe_ranks.csv"; then
        echo "ok   --describe reproduces the committed describe_ranks.csv"
    else
        echo "FAIL --describe differs from bench/results/describe_ranks.csv (partition changed? rerun it and commit)"
        diff "$S/bench/results/describe_ranks.csv" "$tmp/bench/results/describe_ranks.csv" | head -5; fail=1
    fi
fi
exit $fail
