# tests/convert/local.mk — `warpnet convert codes` beyond the packet
# networks of tests/net/test_convert_codes.sh: CODES's files that are not
# network configs, networks without a Warpnet model, the analytic networks.
TESTS += tests/convert/test_convert_kinds.sh tests/convert/test_convert_analytic.sh tests/convert/test_convert_mesh.sh \
	tests/convert/test_convert_fattree.sh tests/convert/test_convert_dfly.sh
dist_check_SCRIPTS += tests/convert/test_convert_kinds.sh tests/convert/test_convert_analytic.sh \
	tests/convert/test_convert_mesh.sh tests/convert/test_convert_fattree.sh \
	tests/convert/test_convert_dfly.sh
EXTRA_DIST += tests/convert/codes/allocation.conf tests/convert/codes/workloads.conf \
	tests/convert/codes/latency-matrix.conf tests/convert/codes/storage.conf \
	tests/convert/codes/simplenet-8.conf tests/convert/codes/loggp-4.conf \
	tests/convert/codes/loggp-table.dat tests/convert/codes/p2p-3.conf \
	tests/convert/codes/p2p-latency.txt tests/convert/codes/p2p-bandwidth.txt \
	tests/convert/codes/express-mesh-4x4.conf \
	tests/convert/codes/fattree-summit.conf tests/convert/codes/fattree-dual-plane.conf \
	tests/convert/codes/fattree-dual-plane-tapered.conf \
	tests/convert/codes/dfcustom-theta.conf tests/convert/codes/dfdally-72.conf \
	tests/convert/codes/dfdally-72-intra tests/convert/codes/dfdally-72-inter \
	tests/convert/codes/dfp-test.conf tests/convert/codes/dfp-test-intra tests/convert/codes/dfp-test-inter
