# tests/torus/local.mk — torus routing unit tests and integration runs.
if HAVE_CRITERION
check_PROGRAMS += tests/torus/test_routes
TESTS += tests/torus/test_routes
tests_torus_test_routes_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_torus_test_routes_LDADD = libwarpnet.la libwarp.la $(CRITERION_LIBS) -lm
endif
TESTS += tests/torus/test_torus.sh tests/torus/test_sweep.sh
dist_check_SCRIPTS += tests/torus/test_torus.sh tests/torus/test_sweep.sh
# The run files and benchmark these tests and users start from (their
# directories have no local.mk of their own).
