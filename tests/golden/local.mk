# tests/golden/local.mk — recorded digests and figures of every shipped run
# file and of PHOLD: behaviour must not change unnoticed.
TESTS += tests/golden/test_golden.sh
EXTRA_DIST += tests/golden/test_golden.sh
# The golden test itself fails when the program it checks crashes.
TESTS += tests/golden/test_golden_fails_broken.sh
EXTRA_DIST += tests/golden/test_golden_fails_broken.sh
