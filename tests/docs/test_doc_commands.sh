#!/bin/sh
# test_doc_commands.sh — every command the docs give works as written, in a
# plain checkout (issue 53, item 12: bare `warpnet`, `examples/phold/phold`
# and `make fuzz` failed; docs/trace-format.md's run file was refused).
# Every fenced block of README.md, docs/*.md, the models' and the examples'
# READMEs carries a tag; each line of a ```sh block runs here, in a scratch
# folder that holds the checkout's examples/, tests/ and bench/ and _build/
# (this build), with the build's programs on PATH as the docs say to put
# them (or `make install`), under the per-run limit. Network runs get a
# short end time. Commands that cannot run in a test are listed in skip()
# below, each with its reason; a long run still has its run file checked
# with --describe.
set -u
S=$(cd "${top_srcdir:-.}" && pwd)
B=$(cd "${top_builddir:-.}" && pwd)
[ -x "$B/tools/warpnet/warpnet" ] || { echo "SKIP warpnet not built"; exit 77; }
. "$S/tests/limit.sh"
tmp=$(mktemp -d /tmp/warpnet-doc-commands.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }

# The programs under the limit, by the names the docs use.
mkdir "$tmp/bin" "$tmp/run"
for p in tools/warpnet/warpnet tools/trace/warpnet-trace tools/report/warpnet-report; do
    [ -x "$B/$p" ] && ln -s "$(limited "$B/$p")" "$tmp/bin/$(basename "$p")"
done
PATH="$tmp/bin:$PATH"
export PATH
MPIEXEC=${MPIEXEC:-mpiexec}
for d in examples tests bench; do ln -s "$S/$d" "$tmp/run/$d"; done
ln -s "$B" "$tmp/run/_build"
# "run.ini", the docs' name for the reader's own run file: a small torus
# whose 100 us end leaves docs/checkpoint.md's 50 us at half time.
sed -e 's/^dims *=.*/dims = 4,4,4/' -e 's/^end *=.*/end = 100us/' \
    "$S/examples/configs/torus-8x8x8.ini" > "$tmp/run/run.ini"

# Every fenced block: FILE<TAB>LINE<TAB>TAG<TAB>COMMAND (continuations joined).
for f in "$S"/README.md "$S"/docs/*.md "$S"/models/*/README.md "$S"/examples/*/README.md; do
    awk -v F="${f#"$S"/}" '
        /^ *```/ { if (!inb) { inb = 1; tag = $0; sub(/^ *```/, "", tag); start = FNR
                               if (tag == "") printf "%s\t%d\tNONE\t\n", F, FNR; next }
                   inb = 0; next }
        inb && (tag == "ini") { printf "%s\t%d\tini\t%s\n", F, start, $0; next }
        inb && (tag == "sh") {
            line = $0
            if (cont != "") { line = cont " " line; cont = "" }
            if (line ~ /\\$/) { sub(/ *\\$/, "", line); cont = line; next }
            sub(/^ +/, "", line); sub(/ +#.*$/, "", line)
            if (line == "" || line ~ /^#/) next
            printf "%s\t%d\tsh\t%s\n", F, FNR, line
        }' "$f"
done > "$tmp/cmds"

# skip COMMAND FILE: prints the reason a command is not run here (or nothing).
skip() {
    case $1 in
    ./quickstart*) echo "installs packages as root and builds: CI runs it (.ci/run)" ;;
    autoreconf*|mkdir*_build*|../configure*|make\ -j*) echo "how this build was made" ;;
    make*check*|make*install*|make*distcheck*) echo "the test suite itself, or an install: CI runs them" ;;
    make*fuzz*|tests/fuzz/*) echo "needs clang's libFuzzer: CI runs make fuzz (.ci/run)" ;;
    xdg-open*) echo "opens a browser" ;;
    *bench/*sweep*.sh*) echo "a sweep of many minutes (the scripts are checked with sh -n)" ;;
    *bench/optical_study.sh*) echo "a study of a minute that rewrites bench/results (the script is checked with sh -n)" ;;
    *tune*--budget=*) echo "a probe budget of a minute (the run file is checked with --describe)" ;;
    *512k*|*q163*|*128p3l-fts*) echo "runs of minutes to hours (the run file is checked with --describe)" ;;
    *"warpnet run.ini"*) [ "$2" = docs/coming-from.md ] && echo "docs/coming-from.md's run.ini stands in TraceR's examples/jacobi2d-bigsim (tests/replay/test_tracer_config.sh runs that)" ;;
    esac
}

# shorten COMMAND: a network run of a traffic run file (a shipped one, or
# one a command wrote, as convert's torus.ini) ends early; a later --end
# wins over one the docs give. run.ini is small already.
shorten() {
    case $1 in *--describe*|*" convert "*|*" report "*|*warpnet-trace*|*phold*|*--checkpoint*|*--restart*) echo "$1"; return ;; esac
    ini=$(printf '%s\n' "$1" | tr ' ' '\n' | grep '\.ini$' | grep -v '^run\.ini$' | head -1)
    if [ -n "$ini" ] && [ -f "$tmp/run/$ini" ] && ! grep -q '^type *= *replay' "$tmp/run/$ini"; then
        echo "$1 --end=3us --workload.warmup=0ns"
    else
        echo "$1"
    fi
}

# A run file of the docs (an ```ini block with [network] and [workload]) must
# run; one that reads a TraceR directory, which no checkout holds, is only
# listed.
runfile() { # FILE LINE
    f="$tmp/run/doc-$(echo "$1" | tr '/.' '--')-$2.ini"
    grep -q '^\[network\]' "$f" && grep -q '^\[workload\]' "$f" || return 0
    if grep -q '^tracer_config' "$f"; then
        echo "skip $1:$2: a run file for a TraceR directory"; return 0
    fi
    if (cd "$tmp/run" && warpnet "$(basename "$f")") > "$tmp/log" 2>&1 < /dev/null; then
        echo "ok   $1:$2: its run file runs"
    elif grep -q "support was not built; install" "$tmp/log"; then
        echo "skip $1:$2: this build lacks the trace reader: $(tail -1 "$tmp/log")"
    else
        bad "$1:$2: its run file: exit $?"; tail -3 "$tmp/log"
    fi
}

n=0 nskip=0 last=
while IFS="$(printf '\t')" read -r file line tag cmd; do
    [ -n "$last" ] && [ "$last" != "$file:$line" ] && { runfile ${last%:*} ${last##*:}; last=; }
    if [ "$tag" = NONE ]; then
        bad "$file:$line: a fenced block without a tag: sh (run by this test), ini, text, c, ..."
        continue
    fi
    if [ "$tag" = ini ]; then
        printf '%s\n' "$cmd" >> "$tmp/run/doc-$(echo "$file" | tr '/.' '--')-$line.ini"
        last="$file:$line"
        continue
    fi
    cmd=$(printf '%s\n' "$cmd" | sed "s|^mpiexec |$MPIEXEC |")
    why=$(skip "$cmd" "$file")
    if [ -n "$why" ]; then
        nskip=$((nskip + 1))
        echo "skip $file:$line: $cmd ($why)"
        case $cmd in
        *bench/*.sh*) script=$(printf '%s\n' "$cmd" | tr ' ' '\n' | grep 'bench/.*\.sh$')
                      sh -n "$S/$script" || bad "$file:$line: $script does not parse" ;;
        *.ini*) ini=$(printf '%s\n' "$cmd" | tr ' ' '\n' | grep '\.ini$' | head -1)
                (cd "$tmp/run" && warpnet --describe "$ini") > "$tmp/log" 2>&1 ||
                    { bad "$file:$line: warpnet --describe $ini:"; tail -3 "$tmp/log"; } ;;
        esac
        continue
    fi
    n=$((n + 1))
    run=$(shorten "$cmd")
    # --checkpoint-exit stops with its own documented code, 6.
    want=0
    case $cmd in *--checkpoint-exit*) want=6 ;; esac
    (cd "$tmp/run" && eval "$run") > "$tmp/log" 2>&1 < /dev/null
    rc=$?
    if [ $rc = $want ]; then
        echo "ok   $file:$line: $cmd"
    else
        bad "$file:$line: exit $rc (want $want): $run"; tail -3 "$tmp/log"
    fi
done < "$tmp/cmds"
[ -n "$last" ] && runfile ${last%:*} ${last##*:}
# A doc that names the programs bare says how they get on PATH.
for f in $(awk -F '\t' '$3 == "sh" && $4 ~ /^(mpiexec -n [0-9]+ )?warpnet(-trace|-report)? / { print $1 }' "$tmp/cmds" | sort -u); do
    grep -q 'make install' "$S/$f" && grep -q 'PATH' "$S/$f" ||
        bad "$f names warpnet bare but says nothing of make install or PATH"
done
[ $n -ge 20 ] || bad "only $n commands ran"
echo "$n commands ran, $nskip skipped"
exit $fail
