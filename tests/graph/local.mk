# tests/graph/local.mk — shortest-path tables (Criterion) and runs of
# warpnet on networks read from files.
if HAVE_CRITERION
check_PROGRAMS += tests/graph/test_spt
TESTS += tests/graph/test_spt
tests_graph_test_spt_SOURCES = tests/graph/test_spt.c
tests_graph_test_spt_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_graph_test_spt_LDADD = libwarpnet.la libwarp.la $(CRITERION_LIBS) -lm
endif
dist_check_SCRIPTS += tests/graph/test_graph_run.sh
TESTS += tests/graph/test_graph_run.sh
dist_check_SCRIPTS += tests/graph/test_graph_routes.sh
TESTS += tests/graph/test_graph_routes.sh
