# tests/fattree/local.mk — fat-tree sizes, wiring and routing properties.
if HAVE_CRITERION
check_PROGRAMS += tests/fattree/test_fattree
TESTS += tests/fattree/test_fattree
tests_fattree_test_fattree_SOURCES = tests/fattree/test_fattree.c
tests_fattree_test_fattree_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_fattree_test_fattree_LDADD = libwarpnet.la libwarp.la $(CRITERION_LIBS) -lm
check_PROGRAMS += tests/fattree/test_fattree_topo
TESTS += tests/fattree/test_fattree_topo
tests_fattree_test_fattree_topo_SOURCES = tests/fattree/test_fattree_topo.c
tests_fattree_test_fattree_topo_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_fattree_test_fattree_topo_LDADD = libwarpnet.la libwarp.la $(CRITERION_LIBS) -lm
check_PROGRAMS += tests/fattree/test_xgft
TESTS += tests/fattree/test_xgft
tests_fattree_test_xgft_SOURCES = tests/fattree/test_xgft.c
tests_fattree_test_xgft_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_fattree_test_xgft_LDADD = libwarpnet.la libwarp.la $(CRITERION_LIBS) -lm
endif
TESTS += tests/fattree/test_zero_load.sh tests/fattree/test_network.sh tests/fattree/test_xgft_run.sh
dist_check_SCRIPTS += tests/fattree/test_zero_load.sh tests/fattree/test_network.sh tests/fattree/test_xgft_run.sh
LONG_CHECKS += tests/fattree/test_network.sh
