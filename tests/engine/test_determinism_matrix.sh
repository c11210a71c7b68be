#!/bin/sh
# make check's share of the determinism matrix; the full matrix is
# test_matrix_full.sh (make check-long).
MATRIX_SUBSET=1 exec sh "$top_srcdir/tests/engine/test_matrix_full.sh"
