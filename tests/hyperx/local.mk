# tests/hyperx/local.mk — HyperX wiring and dor routing (Criterion), and runs
# of warpnet: closed forms, throughput bounds, deadlock freedom, determinism.
if HAVE_CRITERION
check_PROGRAMS += tests/hyperx/test_hyperx_topo
TESTS += tests/hyperx/test_hyperx_topo
tests_hyperx_test_hyperx_topo_SOURCES = tests/hyperx/test_hyperx_topo.c
tests_hyperx_test_hyperx_topo_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_hyperx_test_hyperx_topo_LDADD = libwarpnet.la libwarp.la $(CRITERION_LIBS) -lm
endif
dist_check_SCRIPTS += tests/hyperx/test_hyperx_run.sh
TESTS += tests/hyperx/test_hyperx_run.sh
