# tests/checkpoint/local.mk — checkpoint and restart (issue 19): PHOLD in
# every mode, the torus, Slim Fly and replay result files, refusals.
TESTS += tests/checkpoint/test_checkpoint_phold.sh tests/checkpoint/test_checkpoint_net.sh \
	tests/checkpoint/test_checkpoint_refused.sh
dist_check_SCRIPTS += tests/checkpoint/test_checkpoint_phold.sh tests/checkpoint/test_checkpoint_net.sh \
	tests/checkpoint/test_checkpoint_refused.sh
EXTRA_DIST += tests/checkpoint/lib.sh
# The fault drill (a rank SIGKILLed, restarts on 1 and 3 ranks): make check-long.
LONG_CHECKS += tests/checkpoint/test_fault_drill.sh
EXTRA_DIST += tests/checkpoint/test_fault_drill.sh
