# tests/rng/local.mk

if HAVE_CRITERION
check_PROGRAMS += tests/rng/test_rng
TESTS += tests/rng/test_rng
tests_rng_test_rng_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_rng_test_rng_LDADD = libwarp.la $(CRITERION_LIBS) -lm
endif
