#!/bin/sh
# tests/arch/circles.sh ROOT [BUILDDIR] — finds circles between the files
# outside engine/ (docs/architecture.md, "No circles"). An arrow runs from
# a file to every header it includes (headers that include each other round
# are a circle the include guards hide) and, with BUILDDIR, from a .c file
# to every .c file whose object defines a function or variable its object
# uses (`nm` of the objects under BUILDDIR): files that call each other
# round can be neither read nor tested one at a time. Prints one line per
# circle,
#   circle: A -> B -> ... -> A (N files in one strongly connected set: ...)
# and exits 1 if there is any, 0 if none (2 on a usage error).
root=${1:?usage: circles.sh ROOT [BUILDDIR]}
build=${2:-}
cd "$root" || exit 2
dirs="config rng models tools examples"
edges=$(mktemp "${TMPDIR:-/tmp}/warpnet-circles.XXXXXX") || exit 2
trap 'rm -f "$edges"' EXIT

# Include arrows: "X" resolves beside the including file, then under the
# build's -I directories (config, engine, rng, models). The engine is below
# every unit here and is left out.
find $dirs -name '*.[ch]' 2>/dev/null | sort | while IFS= read -r f; do
    d=${f%/*}
    sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f" | while IFS= read -r h; do
        for c in "$d/$h" "config/$h" "rng/$h" "models/$h" "$h"; do
            if [ -f "$c" ]; then
                case $c in engine/*) ;; *) echo "$f $c" ;; esac
                break
            fi
        done
    done
done >> "$edges"

# Call arrows: an object's undefined function -> the object defining it.
# Objects are named DIR/[PREFIX-]BASE.o for the source DIR/BASE.c.
if [ -n "$build" ]; then
    for d in $dirs; do
        [ -d "$build/$d" ] && find "$build/$d" -name '*.o' ! -path '*/.libs/*'
    done | sort | while IFS= read -r o; do
        rel=${o#"$build"/}
        dir=${rel%/*}
        base=${rel##*/}
        base=${base%.o}
        base=${base#*_la-}
        base=${base#*-}
        [ -f "$dir/$base.c" ] || continue
        nm "$o" | awk -v u="$dir/$base.c" '$1 == "U" { print "U", u, $2; next }
                                        NF == 3 && $2 ~ /^[TDBR]$/ { print "D", u, $3 }'
    done | awk '$1 == "D" { def[$3] = $2; next } { use[++n] = $2 " " $3 }
        END { for (i = 1; i <= n; i++) { split(use[i], a, " ")
                  if ((a[2] in def) && def[a[2]] != a[1]) print a[1], def[a[2]] } }' >> "$edges"
fi

# Tarjan's strongly connected components; each set of two or more files is
# printed with one circle through it (a shortest path back to its first file).
sort -u "$edges" | awk '
    $1 != $2 { adj[$1] = adj[$1] " " $2; node[$1] = 1; node[$2] = 1 }
    function visit(v,    ws, k, i, w, m) {
        idx[v] = low[v] = ++counter
        stack[++sp] = v; on[v] = 1
        k = split(adj[v], ws, " ")
        for (i = 1; i <= k; i++) {
            w = ws[i]
            if (!(w in idx)) { visit(w); if (low[w] < low[v]) low[v] = low[w] }
            else if (on[w] && idx[w] < low[v]) low[v] = idx[w]
        }
        if (low[v] == idx[v]) {
            m = 0
            do { w = stack[sp--]; on[w] = 0; comp[w] = v; members[v] = members[v] " " w; m++ } while (w != v)
            size[v] = m
        }
    }
    # A shortest circle from s back to s inside its component (breadth first).
    function circle(s,    q, head, tail, prev, k, ws, i, v, w, path) {
        head = 1; tail = 0; q[++tail] = s
        delete prev
        while (head <= tail) {
            v = q[head++]
            k = split(adj[v], ws, " ")
            for (i = 1; i <= k; i++) {
                w = ws[i]
                if (comp[w] != comp[s]) continue
                if (w == s) { path = s; while (v != s) { path = v " -> " path; v = prev[v] } return s " -> " path }
                if (!(w in prev)) { prev[w] = v; q[++tail] = w }
            }
        }
        return s
    }
    END {
        for (v in node) if (!(v in idx)) visit(v)
        for (v in size) if (size[v] > 1) {
            k = split(members[v], ms, " "); first = ms[1]
            for (i = 2; i <= k; i++) if (ms[i] < first) first = ms[i]
            printf "circle: %s (%d files in one strongly connected set:%s)\n", circle(first), size[v], members[v]
            bad = 1
        }
        exit bad
    }'
