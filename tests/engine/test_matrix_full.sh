#!/bin/sh
# The determinism matrix (issue 4): PHOLD with --total-lps and the torture
# model commit the sequential digest, count and model summary in cons and opt
# on 1, 2 and 4 ranks, with --kps 1 and one KP per LP, --batch 1/16/64,
# --gvt-interval 1/16/256 and --gvt mattern/sync (opt), plus very large
# batches. The full cross product runs in make check-long; with
# MATRIX_SUBSET=1 (test_determinism_matrix.sh, make check) a subset in which
# every value of every setting still appears on every rank count.
. "$top_srcdir/tests/engine/test_torture_lib.sh"

# Models: name, program, arguments. torture-zero uses zero delays, so no cons.
PHOLD_ARGS="--total-lps=16 --end=50"
TZ_ARGS="--lps=24 --end=12"
TL_ARGS="--lps=24 --end=12 --lookahead=0.5"

if [ "${MATRIX_SUBSET:-0}" = 1 ]; then
    # kps, batch, gvt-interval, gvt: every value of every column appears.
    combos="kps=1,1,1,mattern lpk=1,16,256,sync kps=1,64,16,sync lpk=1,1,16,mattern
            kps=1,100000,256,mattern"
else
    combos=
    for k in kps=1 lpk=1; do
        for b in 1 16 64 100000; do
            for gi in 1 16 256; do
                for g in mattern sync; do
                    combos="$combos $k,$b,$gi,$g"
                done
            done
        done
    done
fi

kp_opt() {
    case $1 in
    kps=*) echo "--kps=${1#kps=}" ;;
    lpk=*) echo "--lps-per-kp=${1#lpk=}" ;;
    esac
}

runs=0
for model in phold torture-zero torture-la; do
    case $model in
    phold) prog=$PHOLD args=$PHOLD_ARGS ;;
    torture-zero) prog=$TORTURE args=$TZ_ARGS ;;
    torture-la) prog=$TORTURE args=$TL_ARGS ;;
    esac
    # shellcheck disable=SC2086
    ref=$(sig 0 "$prog" --synch=seq $args)
    is_sig "$ref" || { fail "$model: the sequential run failed: $ref"; continue; }
    for np in 1 2 4; do
        if [ $model != torture-zero ]; then
            for k in kps=1 lpk=1; do
                for b in 1 64; do
                    [ "${MATRIX_SUBSET:-0}" = 1 ] && [ "$k,$b" != "kps=1,1" ] && [ "$k,$b" != "lpk=1,64" ] && continue
                    # shellcheck disable=SC2086
                    got=$(sig "$np" "$prog" --synch=cons $(kp_opt $k) --batch=$b $args)
                    same "$model on $np ranks: --synch=cons $(kp_opt $k) --batch=$b $args" "$ref" "$got"
                    runs=$((runs + 1))
                done
            done
        fi
        for c in $combos; do
            IFS=, read -r k b gi g <<END
$c
END
            set -- --synch=opt $(kp_opt "$k") --batch="$b" --gvt-interval="$gi" --gvt="$g"
            # shellcheck disable=SC2086
            got=$(sig "$np" "$prog" "$@" $args)
            same "$model on $np ranks: $* $args" "$ref" "$got"
            runs=$((runs + 1))
        done
        # The other queues (the combos above ran the default, ladder): splay
        # with the default engine settings and a window, the plain heap.
        for extra in "--queue=splay" "--queue=splay --window=0.5" "--queue=heap"; do
            [ "${MATRIX_SUBSET:-0}" = 1 ] && [ "$extra" = "--queue=splay --window=0.5" ] && continue
            # shellcheck disable=SC2086
            got=$(sig "$np" "$prog" --synch=opt $extra $args)
            same "$model on $np ranks: --synch=opt $extra $args" "$ref" "$got"
            runs=$((runs + 1))
        done
    done
done
echo "$runs runs"
finish "determinism matrix"
