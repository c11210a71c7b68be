# bench/scenarios.sh — sourced by bench/parallel.sh and bench/scaling.sh
# (not a benchmark itself): the network scenarios both time, and readers of
# the engine's --stats-json. Needs lib.sh's variables and a scratch folder
# in $tmp. Sets phold and cfg; writes the replay configs into $tmp.
phold=${PHOLD:-$build/examples/phold/phold}
cfg=$top/examples/configs

cat >"$tmp/replay-ft32.ini" <<EOF
[engine]
end = 1s
[network]
topology = fattree
link_bandwidth = 12.5GB/s
link_latency = 50ns
router_delay = 90ns
packet_size = 512B
vc_buffer = 8KiB
[fattree]
ports = 32
levels = 3
[workload]
type = replay
[job.0]
trace = gen:stencil3d:px=16,py=16,pz=16,iters=2,bytes=1024,compute=5000
EOF

# The same job at 32,768 ranks (one iteration) on a 64-port 3-tree (65,536
# nodes: the job fills half of them).
sed -e 's/^ports = 32/ports = 64/' \
    -e 's/^trace = .*/trace = gen:stencil3d:px=32,py=32,pz=32,iters=1,bytes=1024,compute=5000/' \
    "$tmp/replay-ft32.ini" >"$tmp/replay-ft64.ini"

# scenario NAME: the command (without synch and partition) that runs it.
# SHORT=1 runs the network scenarios to a quarter of their end time.
short() { [ -n "${SHORT:-}" ] && echo " --engine.end=$1"; true; }
scenario() {
    case $1 in
    slimfly-q13) echo "$warpnet $cfg/slimfly-q13.ini$(short 55us)" ;;
    fattree-codes) echo "$warpnet $cfg/fattree-8p3l-codes.ini$(short 175us)" ;;
    torus-32k) echo "$warpnet $cfg/torus-32k-codes.ini$(short 5us)" ;;
    replay-ft32) echo "$warpnet $tmp/replay-ft32.ini" ;;
    replay-ft32-locality) echo "$warpnet $tmp/replay-ft32.ini --job.0.placement=locality" ;;
    replay-ft64) echo "$warpnet $tmp/replay-ft64.ini" ;;
    # The million-node Slim Fly's first 1.2 us: setup and its first packets.
    slimfly-q163-window) echo "$warpnet $cfg/slimfly-q163.ini --engine.end=1200ns" ;;
    phold-large) echo "$phold --remote=0.1 --mean=1.0 --lookahead=0.1 --start-events=1 --total-lps=1048576 --end=2" ;;
    *) echo "bench: unknown scenario $1" >&2; exit 2 ;;
    esac
}

# json KEY FILE: a scalar of the stats JSON; split KEY FILE: a number in
# its time split (forward, network, fossil, gvt).
json() { sed -n "s/^ *\"$1\": *\"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$2" | head -1; }
split() { sed -n "s/.*\"$1\": \([0-9.eE+-]*\).*/\1/p" "$2" | head -1; }
load() { cut -d' ' -f1 /proc/loadavg; }
# The derived columns parallel.sh and scaling.sh share, from a stats JSON:
# setup + run seconds, remote events sent and events run final per event
# processed, the largest rank's peak RSS in MiB; speedup SEQ_WALL WALL.
wall_of() { awk -v a="$(json setup_s "$1")" -v b="$(json run_s "$1")" 'BEGIN{printf "%.3f", a+b}'; }
speedup() { awk -v s="${1:-0}" -v w="$2" 'BEGIN{print ((w > 0 && s > 0) ? s / w : 0)}'; }
remote_share() { awk -v a="$(json remote_sent "$1")" -v p="$(json processed "$1")" 'BEGIN{print ((p > 0) ? a / p : 0)}'; }
final_share() { awk -v f="$(json final_run "$1")" -v p="$(json processed "$1")" 'BEGIN{print ((p > 0 && f != "") ? f / p : 0)}'; }
# differing_digests CSV COL: the scenarios (column 1) whose rows hold more
# than one digest in column COL.
differing_digests() { tail -n +2 "$1" | awk -F, -v c="$2" '{print $1, $c}' | sort -u | awk '{n[$1]++} END {for (s in n) if (n[s] > 1) print s}'; }
rss_mb() { awk -v b="$(json peak_rss_bytes "$1")" 'BEGIN{print b/1048576}'; }
