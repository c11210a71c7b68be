#!/bin/sh
# test_out_dir.sh — --out=DIR holds one whole run or nothing new (issue 13):
# a DIR that cannot take the results is refused before the run (exit 2 at
# once, not after simulating); results appear only when the run finished,
# with run.txt binding each file (POSIX cksum, checked here with cksum(1))
# to the run id in summary.json; a failed run into a reused DIR leaves the
# previous run as it was; a successful one replaces it whole; warpnet
# report refuses a directory that mixes runs or a cut summary.json.
. "${top_srcdir:-.}/tests/net/lib.sh"
C="${top_srcdir:-.}/examples/configs"
RUN="$C/loggp-64.ini"
MPIEXEC=${MPIEXEC-mpiexec}

# runid DIR: the run id summary.json names
runid() { sed -n 's/^  "run_id": "\([^"]*\)".*/\1/p' "$1/summary.json"; }
# whole DIR: run.txt names summary.json's run and lists every file with its cksum
whole() {
    [ -n "$(runid "$1")" ] && [ "$(sed -n '1p' "$1/run.txt")" = "warpnet-run $(runid "$1")" ] || return 1
    n=0
    for f in "$1"/*; do
        case ${f##*/} in run.txt | report.* | *.png) continue ;; esac
        [ "$(cksum < "$f" | awk -v n="${f##*/}" '{ print $1, $2, n }')" = \
          "$(awk -v n="${f##*/}" 'NR > 1 && $3 == n' "$1/run.txt")" ] || return 1
        n=$((n + 1))
    done
    [ $n = $(($(wc -l < "$1/run.txt") - 1)) ]
}
partials() { ls -a "$TMP" | grep -c 'partial' ; }

# A file where the directory should go, and a directory in a place that does
# not exist: refused before the run, which would take minutes (end = 1s).
: > "$TMP/file"
refused "--out is a file" "--out=$TMP/file: exists and is not a directory; give a new or an existing directory" \
    timeout 20 "$WARPNET" --quiet "$C/torus-8x8x8.ini" --end=1s --out="$TMP/file"
refused "--out in no directory" "--out=$TMP/none/out: cannot write beside it (No such file or directory)" \
    timeout 20 "$WARPNET" --quiet "$C/torus-8x8x8.ini" --end=1s --out="$TMP/none/out"

# A run: DIR is whole, with its engine files, and nothing partial is left.
timeout 60 "$WARPNET" --quiet "$RUN" --end=50us --out="$TMP/d" > "$TMP/log" 2>&1 || bad "first run: exit $?"
whole "$TMP/d" && echo "ok   run.txt lists every file of run $(runid "$TMP/d")" || bad "first run not whole: $(cat "$TMP/d/run.txt")"
[ -f "$TMP/d/engine.csv" ] && [ -f "$TMP/d/engine.json" ] || bad "engine files missing"
[ "$(partials)" = 0 ] || bad "a partial directory is left: $(ls -a "$TMP")"
first=$(runid "$TMP/d")
cp "$TMP/d/run.txt" "$TMP/first.txt"

# A run that fails after simulating (a replay deadlock), into the same DIR:
# the previous run stays as it was.
printf 'num_ranks 2\nrank 0 {\n  a: recv 8b from 1 tag 1\n}\nrank 1 {\n  a: recv 8b from 0 tag 1\n}\n' > "$TMP/dl.goal"
printf '[network]\ntopology = loggp\n[workload]\ntype = replay\n[job.0]\ntrace = %s\n' "$TMP/dl.goal" > "$TMP/dl.ini"
timeout 60 "$WARPNET" --quiet "$TMP/dl.ini" --out="$TMP/d" > "$TMP/log" 2>&1
rc=$?
[ $rc = 2 ] || bad "deadlock into a reused --out: exit $rc, want 2"
cmp -s "$TMP/first.txt" "$TMP/d/run.txt" && whole "$TMP/d" && echo "ok   a failed run leaves the previous one whole" ||
    bad "a failed run changed the previous results"
[ "$(partials)" = 0 ] || bad "the failed run left a partial directory: $(ls -a "$TMP")"

# A second run with time series, then a third without: each replaces the
# previous whole (no samples.csv of the second is left with the third).
timeout 60 "$WARPNET" --quiet "$C/torus-8x8x8.ini" --end=3us --sample=500ns --out="$TMP/d" > "$TMP/log" 2>&1 ||
    bad "second run: exit $?"
[ -f "$TMP/d/samples.csv" ] && whole "$TMP/d" && [ "$(runid "$TMP/d")" != "$first" ] ||
    bad "second run not whole or same id"
cp "$TMP/d/ports.csv" "$TMP/ports2.csv"
timeout 60 "$WARPNET" --quiet "$RUN" --end=50us --out="$TMP/d/" --engine-stats="$TMP/d/engine.csv" > "$TMP/log" 2>&1 ||
    bad "third run: exit $?"
[ ! -e "$TMP/d/samples.csv" ] && whole "$TMP/d" && echo "ok   a reused --out holds the last run only" ||
    bad "third run: $(ls "$TMP/d")"

# On two processes too.
if [ -n "$MPIEXEC" ]; then
    timeout 60 $MPIEXEC -n 2 "$WARPNET" --quiet "$RUN" --end=50us --out="$TMP/m" > "$TMP/log" 2>&1 || bad "2 processes: exit $?"
    whole "$TMP/m" && [ "$(partials)" = 0 ] && echo "ok   2 processes: whole" || bad "2 processes: not whole"
fi

# warpnet report: a file of another run, a cut summary.json, no run.txt.
REPORT() { timeout 120 "$WARPNET" report "$@"; }
if command -v gnuplot > /dev/null 2>&1; then
    cp -r "$TMP/d" "$TMP/mix" && cp "$TMP/ports2.csv" "$TMP/mix/ports.csv"
    refused "report on mixed runs" "ports.csv: not the file run $(runid "$TMP/d") wrote (its cksum differs from run.txt): the directory mixes runs" \
        REPORT "$TMP/mix"
    cp -r "$TMP/d" "$TMP/cut" && head -c 300 "$TMP/d/summary.json" > "$TMP/cut/summary.json"
    refused "report on a cut summary.json" "summary.json: not a whole summary.json (cut short or edited); rerun warpnet --out=" \
        REPORT "$TMP/cut"
    cp -r "$TMP/d" "$TMP/norun" && rm "$TMP/norun/run.txt"
    refused "report without run.txt" "but run.txt is missing: the directory does not hold one whole run" REPORT "$TMP/norun"
    REPORT "$TMP/d" > "$TMP/log" 2>&1 && echo "ok   report on a whole run" || bad "report on a whole run: $(cat "$TMP/log")"
else
    echo "note: gnuplot absent; warpnet report part skipped"
fi

# A disk that fills up while the results are written (here: a file size
# limit, which fails writes with EFBIG as a full disk fails them with
# ENOSPC) is a resource, exit 3, named by --out and the file, never the
# internal temporary path or an option the user did not give; nothing
# partial stays and the previous results in DIR stay whole.
# (UCX_TLS: MPICH over UCX would otherwise write its shared-memory files
# under the same limit and fail in MPI_Init.)
rm -rf "$TMP/f"
timeout 60 "$WARPNET" --quiet "$RUN" --end=50us --out="$TMP/f" > /dev/null 2>&1 || bad "run before the full disk: exit $?"
before=$(runid "$TMP/f")
# Limit 0: the engine's own engine.json fails first; 1 KiB: summary.json.
for lim in 0 1; do
    (trap '' XFSZ; ulimit -f $lim; UCX_TLS=self,tcp timeout 60 "$WARPNET" --quiet "$RUN" --end=50us --out="$TMP/f"
     echo "exit $?" >&2) 2>&1 > /dev/null | cat > "$TMP/err"
    if [ "$(tail -1 "$TMP/err")" = "exit 3" ] && [ "$(wc -l < "$TMP/err")" = 2 ] \
        && grep -q "^warpnet: --out=$TMP/f: cannot write .* (File too large); free space" "$TMP/err" \
        && ! grep -q "partial\|stats-json" "$TMP/err"; then
        echo "ok   a full disk under --out (limit $lim KiB): exit 3, $(head -1 "$TMP/err")"
    else
        bad "a full disk under --out (limit $lim KiB): want exit 3 naming --out: $(cat "$TMP/err")"
    fi
done
[ "$(partials)" = 0 ] && [ "$(runid "$TMP/f")" = "$before" ] && whole "$TMP/f" \
    && echo "ok   after the full disk: no partial directory, the previous run whole" \
    || bad "after the full disk: $(ls -a "$TMP")"
exit $fail
