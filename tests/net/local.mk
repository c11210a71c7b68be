# tests/net/local.mk — network layer: zero-load closed forms, config errors,
# the reference bandwidth of the summary, --sample time series, the
# routers' 32-bit statistics words.
TESTS += tests/net/test_zero_load.sh tests/net/test_bad_config.sh tests/net/test_reference.sh \
	tests/net/test_sample.sh tests/net/test_convert_codes.sh tests/net/test_man.sh tests/net/test_summary_figures.sh tests/net/test_out_dir.sh tests/net/test_papercuts.sh \
	tests/net/test_ranks_agree.sh tests/net/test_oversized.sh tests/net/test_memory_estimate.sh tests/net/test_interrupt.sh \
	tests/net/test_partition.sh tests/net/test_partition_metis.sh tests/net/test_partition_file.sh tests/net/test_placement_locality.sh \
	tests/net/test_iq_router.sh tests/net/test_presets.sh tests/net/test_run_names.sh tests/net/test_cons.sh tests/net/test_lookahead.sh tests/net/test_tune.sh tests/net/test_sweep_tune_checks.sh tests/net/test_bernoulli.sh \
	tests/net/test_gvt_rounds.sh tests/net/test_patterns.sh
dist_check_SCRIPTS += tests/net/test_zero_load.sh tests/net/test_bad_config.sh \
	tests/net/test_reference.sh tests/net/test_sample.sh tests/net/test_convert_codes.sh tests/net/test_man.sh tests/net/test_summary_figures.sh tests/net/test_out_dir.sh tests/net/test_papercuts.sh \
	tests/net/test_ranks_agree.sh tests/net/test_oversized.sh tests/net/test_memory_estimate.sh tests/net/test_interrupt.sh \
	tests/net/test_partition.sh tests/net/test_partition_metis.sh tests/net/test_partition_file.sh tests/net/test_placement_locality.sh \
	tests/net/test_iq_router.sh tests/net/test_presets.sh tests/net/test_run_names.sh tests/net/test_cons.sh tests/net/test_lookahead.sh tests/net/test_tune.sh tests/net/test_sweep_tune_checks.sh tests/net/test_bernoulli.sh \
	tests/net/test_gvt_rounds.sh tests/net/test_patterns.sh
EXTRA_DIST += tests/net/lib.sh tests/net/partition_cases.sh
if HAVE_CRITERION
check_PROGRAMS += tests/net/test_wide
TESTS += tests/net/test_wide
tests_net_test_wide_SOURCES = tests/net/test_wide.c
tests_net_test_wide_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_net_test_wide_LDADD = libwarpnet.la libwarp.la $(CRITERION_LIBS) -lm
endif
