# tests/dragonflyplus/local.mk — Dragonfly+ wiring and routing (Criterion),
# and runs of warpnet: closed forms, bounds, determinism, deadlock freedom.
if HAVE_CRITERION
check_PROGRAMS += tests/dragonflyplus/test_dfp
TESTS += tests/dragonflyplus/test_dfp
tests_dragonflyplus_test_dfp_SOURCES = tests/dragonflyplus/test_dfp.c
tests_dragonflyplus_test_dfp_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_dragonflyplus_test_dfp_LDADD = libwarpnet.la libwarp.la $(CRITERION_LIBS) -lm
endif
dist_check_SCRIPTS += tests/dragonflyplus/test_dragonflyplus_run.sh
TESTS += tests/dragonflyplus/test_dragonflyplus_run.sh
