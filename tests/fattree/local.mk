# tests/fattree/local.mk — fat-tree sizes, wiring and routing properties.
if HAVE_CRITERION
check_PROGRAMS += tests/fattree/test_fattree
TESTS += tests/fattree/test_fattree
tests_fattree_test_fattree_SOURCES = tests/fattree/test_fattree.c
tests_fattree_test_fattree_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_fattree_test_fattree_LDADD = libwarpnet.la libwarp.la $(CRITERION_LIBS) -lm
endif
