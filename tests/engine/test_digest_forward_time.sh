#!/bin/sh
# The committed digest is hashed when an event's forward handler returns
# (engine/process.c), not at commit. With --msg-facts=1 every torture forward
# handler writes a state-derived fact into its event's payload and every
# reverse handler scribbles over it, so a digest word kept from a rolled-back
# execution, or hashed before forward, would differ from the sequential one:
# seq, debug (forced rollbacks), check and opt on 2 and 4 ranks must agree.
# --msg-facts=2 (the commit handler writes the payload, casting away const)
# must stop --synch=check with exit code 4 and the documented message.
. "$top_srcdir/tests/engine/test_torture_lib.sh"

for seed in 1 2 3; do
    args="--lps=24 --end=12 --seed=$seed --msg-facts=1"
    # shellcheck disable=SC2086
    ref=$(sig 0 "$TORTURE" --synch=seq $args)
    is_sig "$ref" || { fail "seed $seed: the sequential run failed: $ref"; continue; }
    # shellcheck disable=SC2086
    plain=$(sig 0 "$TORTURE" --synch=seq --lps=24 --end=12 --seed=$seed)
    [ "${plain%% committed*}" != "${ref%% committed*}" ] ||
        fail "seed $seed: --msg-facts=1 leaves the digest unchanged: the facts are not hashed"
    # shellcheck disable=SC2086
    got=$(sig 0 "$TORTURE" --synch=debug $args)
    same "seed $seed: --synch=debug --msg-facts=1 differs from seq" "$ref" "$got"
    rb=$(stat "rolled back events")
    [ "${rb:-0}" -gt 0 ] 2>/dev/null || fail "seed $seed: --synch=debug rolled back ${rb:-no} events: the test proves nothing"
    # shellcheck disable=SC2086
    got=$(sig 0 "$TORTURE" --synch=check $args)
    same "seed $seed: --synch=check --msg-facts=1 fails or differs from seq" "$ref" "$got"
    for np in 2 4; do
        # shellcheck disable=SC2086
        got=$(sig $np "$TORTURE" --synch=opt --batch=4 $args)
        same "seed $seed: --synch=opt on $np ranks --msg-facts=1 differs from seq" "$ref" "$got"
    done

    # shellcheck disable=SC2086
    run_failing 0 "$TORTURE" --synch=check --lps=24 --end=12 --seed=$seed --msg-facts=2
    [ "$TT_RC" = 4 ] || fail "seed $seed: --synch=check --msg-facts=2 exits $TT_RC, expected 4 (check failure)"
    pattern='^torture: --synch=check: LP [0-9]* (type torture-[a-z]*), event at time [0-9.e+-]* from LP [0-9]*: its payload changed after the forward handler ran'
    grep -q "$pattern" "$TT_OUT" ||
        fail "seed $seed: --synch=check --msg-facts=2 does not name the written payload; it said: $(tail -n 1 "$TT_OUT")"
done
finish "the forward-time digest is the committed one"
