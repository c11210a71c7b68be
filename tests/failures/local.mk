# tests/failures/local.mk — failed links and routers on packet topologies.
dist_check_SCRIPTS += tests/failures/test_failures.sh
TESTS += tests/failures/test_failures.sh
