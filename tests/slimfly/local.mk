# tests/slimfly/local.mk — Slim Fly unit tests (Criterion) and runs of warpnet.
if HAVE_CRITERION
SF_TEST_LDADD = libwarpnet.la libwarp.la $(CRITERION_LIBS) -lm
SF_TEST_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
check_PROGRAMS += tests/slimfly/test_slimfly_field tests/slimfly/test_slimfly_mms \
	tests/slimfly/test_slimfly_route tests/slimfly/test_slimfly_traffic
TESTS += tests/slimfly/test_slimfly_field tests/slimfly/test_slimfly_mms \
	tests/slimfly/test_slimfly_route tests/slimfly/test_slimfly_traffic
tests_slimfly_test_slimfly_field_SOURCES = tests/slimfly/test_slimfly_field.c
tests_slimfly_test_slimfly_field_CFLAGS = $(SF_TEST_CFLAGS)
tests_slimfly_test_slimfly_field_LDADD = $(SF_TEST_LDADD)
SF_TESTUTIL = tests/slimfly/sf_testutil.c tests/slimfly/sf_testutil.h
tests_slimfly_test_slimfly_mms_SOURCES = tests/slimfly/test_slimfly_mms.c $(SF_TESTUTIL)
tests_slimfly_test_slimfly_mms_CFLAGS = $(SF_TEST_CFLAGS)
tests_slimfly_test_slimfly_mms_LDADD = $(SF_TEST_LDADD)
tests_slimfly_test_slimfly_route_SOURCES = tests/slimfly/test_slimfly_route.c $(SF_TESTUTIL)
tests_slimfly_test_slimfly_route_CFLAGS = $(SF_TEST_CFLAGS)
tests_slimfly_test_slimfly_route_LDADD = $(SF_TEST_LDADD)
tests_slimfly_test_slimfly_traffic_SOURCES = tests/slimfly/test_slimfly_traffic.c $(SF_TESTUTIL)
tests_slimfly_test_slimfly_traffic_CFLAGS = $(SF_TEST_CFLAGS)
tests_slimfly_test_slimfly_traffic_LDADD = $(SF_TEST_LDADD)
endif
if HAVE_CRITERION
check_PROGRAMS += tests/slimfly/test_slimfly_topo
TESTS += tests/slimfly/test_slimfly_topo
tests_slimfly_test_slimfly_topo_SOURCES = tests/slimfly/test_slimfly_topo.c
tests_slimfly_test_slimfly_topo_CFLAGS = $(SF_TEST_CFLAGS)
tests_slimfly_test_slimfly_topo_LDADD = $(SF_TEST_LDADD)
endif
# Runs of the warpnet binary (skipped when it is not built).
dist_check_SCRIPTS += tests/slimfly/test_slimfly_run.sh tests/slimfly/test_sweep_series.sh
TESTS += tests/slimfly/test_slimfly_run.sh tests/slimfly/test_sweep_series.sh
LONG_CHECKS += tests/slimfly/test_slimfly_run.sh
# What the run test and the benchmarks read ship with the sources.
