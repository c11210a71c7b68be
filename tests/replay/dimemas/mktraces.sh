#!/bin/sh
# mktraces.sh OUTDIR — writes the Dimemas test traces of tests/replay/dimemas/
# (pingpong.dim, ring.dim, stencil.dim) into OUTDIR. The shipped copies were
# made by this script; test_replay_dimemas.sh checks they still match. The
# numbers every test derives from these traces are in README.md beside it.
set -eu
out=$1
burst() { printf '1:%d:0:%.9f\n' "$1" "$2"; }            # task seconds
send() { printf '2:%d:0:%d:-1:%d:%d:%d:%d\n' "$@"; }     # task dst bytes tag comm sync
recv() { printf '3:%d:0:%d:-1:%d:%d:%d:%d\n' "$@"; }     # task src bytes tag comm type
glop() { printf '10:%d:0:%d:%d:%d:0:%d:%d\n' "$@"; }     # task op comm root sent recvd

# with_offsets NAME NTASKS NCOMMS < body: the header with the offsets-table
# position (prv2dim's "1,BYTE"), the body, then one s:TASK:BYTE line per task.
with_offsets() {
    awk -v name="$1" -v n="$2" -v nc="$3" '
    { line[NR] = $0 }
    END {
        threads = "1"
        for (i = 1; i < n; i++) threads = threads ",1"
        body = 0
        for (i = 1; i <= NR; i++) {
            off[i] = body
            body += length(line[i]) + 1
            if (line[i] ~ /^[0-9]+:/) {
                split(line[i], f, ":")
                if (!((f[2]) in first)) first[f[2]] = i
            }
        }
        p = 0
        do {
            prev = p
            hdr = sprintf("#DIMEMAS:\"%s\":1,%d:%d(%s),%d", name, p, n, threads, nc)
            p = length(hdr) + 1 + body
        } while (p != prev)
        print hdr
        for (i = 1; i <= NR; i++) print line[i]
        for (t = 0; t < n; t++) printf "s:%d:%d\n", t, length(hdr) + 1 + off[first[t]]
    }'
}

# Ping-pong: 4 iterations of 4096 bytes; task 0 computes 1.5 us before each
# send, task 1 2.5 us between receiving and answering. Blocking, eager.
{
    echo '#DIMEMAS:"pingpong":0:2(1,1),1'
    echo 'd:1:1:2:0:1'
    echo '20:0:0:50000001:31'
    for i in 1 2 3 4; do
        burst 0 0.0000015
        send 0 1 4096 1 1 0
        recv 0 1 4096 2 1 0
    done
    echo '20:0:0:50000001:0'
    for i in 1 2 3 4; do
        recv 1 0 4096 1 1 0
        burst 1 0.0000025
        send 1 0 4096 2 1 0
    done
    echo '0:1:0'
} > "$out/pingpong.dim"

# Ring of 4 tasks, 2 iterations: compute (t + 1) us, irecv from the left,
# isend 2048 bytes to the right, wait, compute 0.5 us. With an offsets table.
{
    echo 'd:1:1:4:0:1:2:3'
    for t in 0 1 2 3; do
        l=$(((t + 3) % 4)) r=$(((t + 1) % 4))
        for i in 1 2; do
            burst $t "$(awk -v t=$t 'BEGIN { printf "%.9f", (t + 1) * 1e-6 }')"
            recv $t $l 2048 7 1 1
            send $t $r 2048 7 1 2
            recv $t $l 2048 7 1 2
            burst $t 0.0000005
        done
    done
} | with_offsets ring 4 1 > "$out/ring.dim"

# halo KIND P1 P2 P3 P4 TYPE: records of KIND (send or recv) for task $t with
# peers P1..P4, tags 1..4, 8 KiB for tags 1 and 2, 96 KiB for 3 and 4.
halo() {
    $1 $t $2 8192 1 1 $6
    $1 $t $3 8192 2 1 $6
    $1 $t $4 98304 3 1 $6
    $1 $t $5 98304 4 1 $6
}

# 4 x 4 periodic stencil, 3 iterations: compute (10 + t/10) us, 8 KiB halos
# left/right (eager), 96 KiB up/down (above the 64 KiB eager limit:
# rendezvous), an 8-byte allreduce on the world; then 2 us of compute, a
# 1 KiB broadcast from task 2 on row 0 (communicator 2) and a 64-byte
# reduction to task 5 on the world.
{
    echo 'd:1:1:16:0:1:2:3:4:5:6:7:8:9:10:11:12:13:14:15'
    echo 'd:1:2:4:0:1:2:3'
    for t in $(seq 0 15); do
        x=$((t % 4)) y=$((t / 4))
        w=$((y * 4 + (x + 3) % 4)) e=$((y * 4 + (x + 1) % 4))
        n=$(((y + 3) % 4 * 4 + x)) s=$(((y + 1) % 4 * 4 + x))
        for i in 1 2 3; do
            burst $t "$(awk -v t=$t 'BEGIN { printf "%.9f", (10 + t / 10) * 1e-6 }')"
            halo recv $w $e $n $s 1   # irecvs: tag 1 from the west, 2 east, 3 north, 4 south
            halo send $e $w $s $n 2   # isends: tag 1 to the east, ...
            halo recv $w $e $n $s 2   # waits
            glop $t 11 1 0 8 8
        done
        burst $t 0.000002
        if [ $t -lt 4 ]; then
            if [ $t -eq 2 ]; then glop $t 1 2 1 1024 0; else glop $t 1 2 0 0 1024; fi
        fi
        glop $t 10 1 5 64 64
    done
} | with_offsets stencil 16 2 > "$out/stencil.dim"
