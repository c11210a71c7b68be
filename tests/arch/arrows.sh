#!/bin/sh
# tests/arch/arrows.sh ROOT — checks the include arrows of docs/architecture.md
# over the sources under ROOT. Prints one line per forbidden arrow,
#   FILE:LINE: PART includes "HEADER" (PART2): why
# and exits 1 if there is any, 0 if none. Parts: config, rng, engine,
# net (models/net), catalog (models/catalog), a model folder (models/X),
# tool (tools/), example (examples/), test (tests/).
root=${1:?usage: arrows.sh ROOT}
cd "$root" || exit 2
found=$(find config rng engine models tools examples tests bench -name '*.[ch]' 2>/dev/null | sort |
while IFS= read -r f; do
    awk -v f="$f" '
    function part_of(path,    d) {
        if (path ~ /^config\//) return "config"
        if (path ~ /^rng\//) return "rng"
        if (path ~ /^engine\//) return "engine"
        if (path ~ /^models\/net\//) return "net"
        if (path ~ /^models\/catalog\//) return "catalog"
        if (path ~ /^models\//) { d = path; sub(/^models\//, "", d); sub(/\/.*/, "", d); return "model:" d }
        if (path ~ /^tools\//) return "tool"
        if (path ~ /^examples\//) return "example"
        return "test" # tests/ and bench/
    }
    # The part a header belongs to, from how it is named.
    function header_part(h,    d) {
        if (h == "mpi.h") return "mpi"
        if (h == "ini_internal.h") return "config-private"
        if (h ~ /^(warp_error|warp_ini|warp_cfg)\.h$/) return "config"
        if (h == "warp_rng.h") return "rng"
        if (h == "warp.h") return "engine"
        if (h == "warp_mpi.h") return "engine-mpi"
        if (h == "internal.h") return "engine-private"
        if (h == "net/net_impl.h") return "net-private"
        if (h ~ /^net\//) return "net"
        if (h ~ /^catalog\//) return "catalog"
        if (h ~ /^[a-z0-9_]+\//) { d = h; sub(/\/.*/, "", d); return "model:" d }
        return "" # autoconf config.h, or a header of the same folder
    }
    function allowed(p, q) {
        if (q == "" || q == p || p == "test") return 1
        if (q ~ /-private$/) return q == p "-private"
        if (p == "config" || p == "rng") return 0
        if (p == "engine") return q == "config" || q == "rng" || q == "mpi" || q == "engine-mpi"
        if (p == "net" || p ~ /^model:/) return q == "engine" || q == "config" || q == "rng" || q == "net"
        if (p == "catalog") return q == "engine" || q == "config" || q == "rng" || q == "net" || q ~ /^model:/
        if (p == "example") return q == "engine" || q == "engine-mpi" || q == "config" || q == "rng" || q == "mpi"
        return 1 # tools: every public header
    }
    function why(p, q) {
        if (q == "mpi" || q == "engine-mpi") return "only the engine and host programs talk to MPI; models use warp_reduce_to_root"
        if (q ~ /-private$/) return "the private header of another part"
        if (p == "config" || p == "rng") return p " lies below the engine and depends on no other part"
        if (p == "engine") return "the engine knows no network, model or program"
        if (p == "net") return "the network layer knows no topology, network or workload by name; the catalogue does"
        if (p ~ /^model:/) return "a model plugs in through net/; only the catalogue knows every model"
        return "not an arrow of docs/architecture.md"
    }
    BEGIN { p = part_of(f) }
    /^[ \t]*#[ \t]*include[ \t]*[<"]/ {
        h = $0
        sub(/^[^<"]*[<"]/, "", h)
        sub(/[>"].*$/, "", h)
        if ($0 ~ /#[ \t]*include[ \t]*</ && h != "mpi.h") next # the C library and the system
        if (h ~ /^(engine|config|rng|models)\//) h = substr(h, index(h, "/") + 1) # a path from the top
        q = header_part(h)
        if (!allowed(p, q))
            printf "%s:%d: %s includes \"%s\" (%s): %s\n", f, NR, p, h, q, why(p, q)
    }
    /MPI_COMM_WORLD/ && p != "engine" {
        printf "%s:%d: %s mentions MPI_COMM_WORLD: only the engine does; use warp_comm(w) (warp_mpi.h) or warp_reduce_to_root\n", f, NR, p
    }
    ' "$f"
done)
[ -z "$found" ] && exit 0
printf '%s\n' "$found"
exit 1
