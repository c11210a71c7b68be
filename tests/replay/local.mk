# tests/replay/local.mk — trace readers, task graphs, generators and the
# warpnet-trace tool.
if HAVE_CRITERION
REPLAY_TEST_HELPERS = tests/replay/helpers.c tests/replay/helpers.h
REPLAY_TEST_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
REPLAY_TEST_LDADD = libwarpnet.la libwarp.la $(OTF2_LIBS) $(PCAP_LIBS) $(METIS_LIBS) $(CRITERION_LIBS) -lm
check_PROGRAMS += tests/replay/test_graph tests/replay/test_goal tests/replay/test_otf2map \
	tests/replay/test_bigsim tests/replay/test_dimemas tests/replay/test_readers tests/replay/test_pcap_msgs \
	tests/replay/test_coll
TESTS += tests/replay/test_graph tests/replay/test_goal tests/replay/test_otf2map \
	tests/replay/test_bigsim tests/replay/test_dimemas tests/replay/test_readers tests/replay/test_pcap_msgs \
	tests/replay/test_coll
tests_replay_test_pcap_msgs_SOURCES = tests/replay/test_pcap_msgs.c
tests_replay_test_pcap_msgs_CFLAGS = $(REPLAY_TEST_CFLAGS)
tests_replay_test_pcap_msgs_LDADD = $(REPLAY_TEST_LDADD)
tests_replay_test_coll_SOURCES = tests/replay/test_coll.c
tests_replay_test_coll_CFLAGS = $(REPLAY_TEST_CFLAGS)
tests_replay_test_coll_LDADD = $(REPLAY_TEST_LDADD)
tests_replay_test_readers_SOURCES = tests/replay/test_readers.c $(REPLAY_TEST_HELPERS)
tests_replay_test_readers_CFLAGS = $(REPLAY_TEST_CFLAGS)
tests_replay_test_readers_LDADD = $(REPLAY_TEST_LDADD)
tests_replay_test_graph_SOURCES = tests/replay/test_graph.c $(REPLAY_TEST_HELPERS)
tests_replay_test_graph_CFLAGS = $(REPLAY_TEST_CFLAGS)
tests_replay_test_graph_LDADD = $(REPLAY_TEST_LDADD)
tests_replay_test_goal_SOURCES = tests/replay/test_goal.c $(REPLAY_TEST_HELPERS)
tests_replay_test_goal_CFLAGS = $(REPLAY_TEST_CFLAGS)
tests_replay_test_goal_LDADD = $(REPLAY_TEST_LDADD)
tests_replay_test_otf2map_SOURCES = tests/replay/test_otf2map.c $(REPLAY_TEST_HELPERS)
tests_replay_test_otf2map_CFLAGS = $(REPLAY_TEST_CFLAGS)
tests_replay_test_otf2map_LDADD = $(REPLAY_TEST_LDADD)
tests_replay_test_bigsim_SOURCES = tests/replay/test_bigsim.c $(REPLAY_TEST_HELPERS)
tests_replay_test_bigsim_CFLAGS = $(REPLAY_TEST_CFLAGS)
tests_replay_test_bigsim_LDADD = $(REPLAY_TEST_LDADD)
tests_replay_test_dimemas_SOURCES = tests/replay/test_dimemas.c $(REPLAY_TEST_HELPERS)
tests_replay_test_dimemas_CFLAGS = $(REPLAY_TEST_CFLAGS)
tests_replay_test_dimemas_LDADD = $(REPLAY_TEST_LDADD)
if HAVE_CHAKRA
check_PROGRAMS += tests/replay/test_chakra
TESTS += tests/replay/test_chakra
tests_replay_test_chakra_SOURCES = tests/replay/test_chakra.c $(REPLAY_TEST_HELPERS)
tests_replay_test_chakra_CFLAGS = $(REPLAY_TEST_CFLAGS) $(PROTOBUF_C_CFLAGS)
tests_replay_test_chakra_LDADD = $(REPLAY_TEST_LDADD) $(PROTOBUF_C_LIBS)
endif
if HAVE_OTF2
check_PROGRAMS += tests/replay/test_otf2
TESTS += tests/replay/test_otf2
tests_replay_test_otf2_SOURCES = tests/replay/test_otf2.c $(REPLAY_TEST_HELPERS)
tests_replay_test_otf2_CFLAGS = $(REPLAY_TEST_CFLAGS)
tests_replay_test_otf2_LDADD = $(REPLAY_TEST_LDADD)
endif
endif
EXTRA_DIST += tests/replay/dimemas tests/replay/pcap tests/replay/lib.sh tests/replay/chakra
dist_check_SCRIPTS += tests/replay/test_trace_tool.sh tests/replay/test_trace_samples.sh \
	tests/replay/test_replay_run.sh tests/replay/test_replay_samples.sh tests/replay/test_replay_loggp.sh \
	tests/replay/test_collectives.sh tests/replay/test_chakra_replay.sh tests/replay/test_rails.sh \
	tests/replay/test_replay_multiproc_report.sh tests/replay/test_tracer_config.sh \
	tests/replay/test_timeline.sh tests/replay/test_replay_dimemas.sh tests/replay/test_replay_incomplete.sh tests/replay/test_replay_figures.sh tests/replay/test_readme_replay.sh \
	tests/replay/test_replay_stencil.sh tests/replay/test_scale_cases.sh tests/replay/test_pcap_replay.sh tests/replay/test_mapreduce.sh
TESTS += tests/replay/test_trace_tool.sh tests/replay/test_trace_samples.sh \
	tests/replay/test_replay_run.sh tests/replay/test_replay_samples.sh tests/replay/test_replay_loggp.sh \
	tests/replay/test_collectives.sh tests/replay/test_chakra_replay.sh tests/replay/test_rails.sh \
	tests/replay/test_replay_multiproc_report.sh tests/replay/test_tracer_config.sh \
	tests/replay/test_timeline.sh tests/replay/test_replay_dimemas.sh tests/replay/test_replay_incomplete.sh tests/replay/test_replay_figures.sh tests/replay/test_readme_replay.sh \
	tests/replay/test_replay_stencil.sh tests/replay/test_scale_cases.sh tests/replay/test_pcap_replay.sh tests/replay/test_mapreduce.sh
LONG_CHECKS += tests/replay/test_scale_cases.sh
