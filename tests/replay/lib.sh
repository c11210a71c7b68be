# tests/replay/lib.sh — shared by the replay's shell tests (sourced after
# W, tmp and die are set): the determinism check over the run modes.

# same_digest INI MODE...: runs INI in each mode ("np2 OPTIONS" runs on 2
# processes, skipped without MPIEXEC) and fails unless every committed
# digest equals the first.
same_digest() {
    sd_ini=$1; shift
    ref=""
    for mode in "$@"; do
        case $mode in
        np2*) [ -n "${MPIEXEC:-}" ] || continue
              $MPIEXEC -n 2 "$W" ${mode#np2 } "$sd_ini" > "$tmp/out" 2>&1 ;;
        *)    "$W" $mode "$sd_ini" > "$tmp/out" 2>&1 ;;
        esac || { die "$mode: $(tail -3 "$tmp/out")"; continue; }
        d=$(sed -n 's/.*committed digest: //p' "$tmp/out")
        [ -n "$d" ] || die "$mode: no digest"
        if [ -z "$ref" ]; then ref=$d; echo "ok   reference digest $d"
        elif [ "$d" = "$ref" ]; then echo "ok   $mode: same digest"
        else die "$mode: digest $d differs from $ref"; fi
    done
}
