# tests/simple/local.mk — analytic networks against hand-computed times.
TESTS += tests/simple/test_simple.sh tests/simple/test_simple_matrix.sh
dist_check_SCRIPTS += tests/simple/test_simple.sh tests/simple/test_simple_matrix.sh
