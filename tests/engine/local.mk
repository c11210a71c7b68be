# tests/engine/local.mk — engine tests.
TESTS += tests/engine/test_phold_basics.sh
EXTRA_DIST += tests/engine/test_phold_basics.sh
