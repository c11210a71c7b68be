# tests/dragonfly/local.mk — dragonfly wiring and routing (Criterion), and
# runs of warpnet: closed forms, bounds, determinism, deadlock freedom.
if HAVE_CRITERION
DFLY_TEST_LDADD = libwarpnet.la libwarp.la $(CRITERION_LIBS) -lm
check_PROGRAMS += tests/dragonfly/test_dragonfly_shape tests/dragonfly/test_dragonfly_route
TESTS += tests/dragonfly/test_dragonfly_shape tests/dragonfly/test_dragonfly_route
tests_dragonfly_test_dragonfly_shape_SOURCES = tests/dragonfly/test_dragonfly_shape.c
tests_dragonfly_test_dragonfly_shape_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_dragonfly_test_dragonfly_shape_LDADD = $(DFLY_TEST_LDADD)
tests_dragonfly_test_dragonfly_route_SOURCES = tests/dragonfly/test_dragonfly_route.c
tests_dragonfly_test_dragonfly_route_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_dragonfly_test_dragonfly_route_LDADD = $(DFLY_TEST_LDADD)
endif
# Runs of the warpnet binary (skipped when it is not built).
dist_check_SCRIPTS += tests/dragonfly/test_dragonfly_closed_forms.sh \
	tests/dragonfly/test_dragonfly_run.sh
TESTS += tests/dragonfly/test_dragonfly_closed_forms.sh tests/dragonfly/test_dragonfly_run.sh
EXTRA_DIST += tests/dragonfly/dfly_lib.sh
dist_check_SCRIPTS += tests/dragonfly/test_dragonfly_cascade.sh
TESTS += tests/dragonfly/test_dragonfly_cascade.sh
