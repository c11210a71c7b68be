#!/usr/bin/env bash
# bench/checkpoint.sh — checkpoint write and read cost (issue 19) on the 32K
# torus (32x32x32, uniform traffic) and the q=13 Slim Fly (338 routers, 3,042
# nodes), both at 50 % load. Per case and rank count: a run to T with a
# checkpoint at T/2 that stops (write time and size, as the engine prints
# them), then the restart to T (read time, as the engine prints it). Prints
# CSV (header, one row per run with the exact commands) and a median line per
# case; writes bench/results/checkpoint.csv. The machine's load is recorded
# in each row: figures taken under load say so.
#   bench/checkpoint.sh [REPS] [RANKS...]        (default: 1 rep, 1 and 2 ranks)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
reps=${1:-1}; shift || true
ranks=${*:-1 2}
mpiexec=${MPIEXEC:-mpiexec}
out=$here/results
mkdir -p "$out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/torus32k.ini" <<'INI'
[engine]
end = 2us
[network]
topology = torus
link_bandwidth = 2GiB/s
link_latency = 50ns
router_delay = 100ns
packet_size = 512B
vc_buffer = 4KiB
[torus]
dims = 32,32,32
[workload]
pattern = uniform
message_size = 4KiB
load = 0.5
INI
sed -e 's/^end = .*/end = 40us/' -e 's/^load = .*/load = 0.5/' -e 's/^warmup = .*/warmup = 5us/' \
    "$top/examples/configs/slimfly-q13.ini" > "$tmp/slimfly-q13.ini"
cut_of() { case $1 in torus32k) echo 1us ;; *) echo 20us ;; esac; }

csv=$out/checkpoint.csv
echo "case,ranks,rep,size_mb,write_s,read_s,write_mb_per_s,read_mb_per_s,loadavg,digest_same,command" | tee "$csv"
for case in torus32k slimfly-q13; do
    ini=$tmp/$case.ini cut=$(cut_of $case)
    ref=$("$warpnet" --quiet "$ini" --synch=seq --out="$tmp/ref" >/dev/null 2>&1; \
          sed -n 's/.*"committed_digest": "\([0-9a-f]*\)".*/\1/p' "$tmp/ref/summary.json")
    for np in $ranks; do
        for r in $(seq 1 "$reps"); do
            pre=""; [ "$np" -gt 1 ] && pre="$mpiexec -n $np"
            wcmd="$pre $warpnet $ini --checkpoint=$tmp/ck --checkpoint-at=$cut --checkpoint-exit"
            rcmd="$pre $warpnet $ini --restart=$tmp/ck --out=$tmp/r"
            rm -rf "$tmp/ck" "$tmp/r"
            load=$(cut -d' ' -f1 /proc/loadavg)
            $wcmd > "$tmp/w.log" 2>&1 || [ $? -eq 6 ]
            $rcmd > "$tmp/r.log" 2>&1
            # "checkpoint 1 written to DIR at time T: X MB in Y s"
            size=$(sed -n 's/.*checkpoint 1 written to .*: \([0-9.]*\) MB in \([0-9.]*\) s$/\1/p' "$tmp/w.log")
            wt=$(sed -n 's/.*checkpoint 1 written to .*: \([0-9.]*\) MB in \([0-9.]*\) s$/\2/p' "$tmp/w.log")
            rt=$(sed -n 's/.*checkpoint .* read: \([0-9.]*\) MB in \([0-9.]*\) s$/\2/p' "$tmp/r.log")
            got=$(sed -n 's/.*"committed_digest": "\([0-9a-f]*\)".*/\1/p' "$tmp/r/summary.json")
            printf '%s,%s,%s,%s,%s,%s,%.1f,%.1f,%s,%s,"%s ; %s"\n' "$case" "$np" "$r" "$size" "$wt" "$rt" \
                "$(awk -v s="$size" -v t="$wt" 'BEGIN{print (t > 0 ? s / t : 0)}')" \
                "$(awk -v s="$size" -v t="$rt" 'BEGIN{print (t > 0 ? s / t : 0)}')" \
                "$load" "$([ "$got" = "$ref" ] && echo yes || echo NO)" "$wcmd" "$rcmd" | tee -a "$csv"
        done
    done
done
# Median write and read time per case and rank count.
awk -F, 'NR > 1 { k = $1 " on " $2 " rank(s)"; w[k] = w[k] " " $5; r[k] = r[k] " " $6; s[k] = $4 }
    function med(l,   a, n, i, j, x) { n = split(l, a, " ")   # insertion sort: mawk has no asort
        for (i = 2; i <= n; i++) { x = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
        return a[int((n + 1) / 2)] }
    END { for (k in w) printf "median %s: %s MB, write %s s, read %s s\n", k, s[k], med(w[k]), med(r[k]) }' "$csv"
