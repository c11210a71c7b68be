# tests/optical/local.mk — the optical network: zero-load closed forms per
# path, OPS contention, OCS circuits, determinism, configuration errors,
# Dimemas traces on the optical network and a fat-tree.
OPTICAL_TESTS = tests/optical/test_zero_load.sh tests/optical/test_contention.sh \
	tests/optical/test_ocs.sh tests/optical/test_determinism.sh tests/optical/test_bad_config.sh \
	tests/optical/test_dimemas.sh
TESTS += $(OPTICAL_TESTS)
dist_check_SCRIPTS += $(OPTICAL_TESTS)
EXTRA_DIST += tests/optical/lib.sh
