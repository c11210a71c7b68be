# tests/engine/local.mk — engine tests.
TESTS += tests/engine/test_phold_basics.sh
EXTRA_DIST += tests/engine/test_phold_basics.sh

# --- ini/units (ini helper) ---
if HAVE_CRITERION
check_PROGRAMS += tests/engine/test_ini tests/engine/test_units tests/engine/test_pool_size \
	tests/engine/test_digest_event tests/engine/test_lp_class tests/engine/test_keys
TESTS += tests/engine/test_ini tests/engine/test_units tests/engine/test_pool_size \
	tests/engine/test_digest_event tests/engine/test_lp_class tests/engine/test_keys
tests_engine_test_keys_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_engine_test_keys_LDADD = libwarp.la $(CRITERION_LIBS) -lm
tests_engine_test_lp_class_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_engine_test_lp_class_LDADD = libwarp.la $(CRITERION_LIBS) -lm
tests_engine_test_lp_class_LDFLAGS = -static
tests_engine_test_digest_event_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_engine_test_digest_event_LDADD = libwarp.la $(CRITERION_LIBS) -lm
tests_engine_test_digest_event_LDFLAGS = -static
tests_engine_test_pool_size_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_engine_test_pool_size_LDADD = libwarp.la $(CRITERION_LIBS) -lm
tests_engine_test_pool_size_LDFLAGS = -static
tests_engine_test_ini_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_engine_test_ini_LDADD = libwarp.la $(CRITERION_LIBS) -lm
tests_engine_test_units_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_engine_test_units_LDADD = libwarp.la $(CRITERION_LIBS) -lm
endif

# --- rollback, determinism and option tests (torture helper) ---
# The torture model: every state-saving style, warp_alloc queues, all RNG
# helpers, zero-delay and equal-timestamp sends; --broken=1 skips one undo.
check_PROGRAMS += tests/engine/torture
tests_engine_torture_SOURCES = tests/engine/torture.c
tests_engine_torture_LDADD = libwarp.la
tests_engine_torture_LDFLAGS = -static

# Integration scripts; test_torture_lib.sh is their shared library.
EXTRA_DIST += tests/engine/test_torture_lib.sh tests/engine/test_matrix_full.sh \
	tests/engine/test_rollback_debug_check_match_seq.sh \
	tests/engine/test_rollback_broken_model_detected.sh \
	tests/engine/test_determinism_matrix.sh tests/engine/test_phold_ties_stress.sh \
	tests/engine/test_event_pool_pressure.sh tests/engine/test_engine_options_rejected.sh \
	tests/engine/test_event_pool_monotonic.sh tests/engine/test_event_pool_small_no_hang.sh \
	tests/engine/test_splay_mpi_stream_order.sh tests/engine/test_torture_stress.sh \
	tests/engine/test_send_burst.sh tests/engine/test_event_pool_default.sh \
	tests/engine/test_digest_forward_time.sh tests/engine/test_queue_kinds_large.sh \
	tests/engine/test_huge_pages.sh tests/engine/test_safe_events.sh \
	tests/engine/test_transport_shm.sh \
	tests/engine/test_gvt_interval_given.sh \
	tests/engine/test_causality_check.sh \
	tests/engine/test_fossil_key_stress.sh \
	tests/engine/test_hang_stops_the_test.sh
TESTS += tests/engine/test_rollback_debug_check_match_seq.sh \
	tests/engine/test_digest_forward_time.sh \
	tests/engine/test_rollback_broken_model_detected.sh \
	tests/engine/test_determinism_matrix.sh \
	tests/engine/test_phold_ties_stress.sh \
	tests/engine/test_event_pool_pressure.sh \
	tests/engine/test_engine_options_rejected.sh \
	tests/engine/test_event_pool_monotonic.sh \
	tests/engine/test_event_pool_small_no_hang.sh \
	tests/engine/test_splay_mpi_stream_order.sh \
	tests/engine/test_send_burst.sh \
	tests/engine/test_event_pool_default.sh \
	tests/engine/test_queue_kinds_large.sh \
	tests/engine/test_huge_pages.sh \
	tests/engine/test_transport_shm.sh \
	tests/engine/test_safe_events.sh \
	tests/engine/test_gvt_interval_given.sh \
	tests/engine/test_causality_check.sh \
	tests/engine/test_fossil_key_stress.sh \
	tests/engine/test_hang_stops_the_test.sh
# KNOWN ENGINE BUGS: these fail until the engine is fixed (see each script's
# header); remove a line here when its test passes (make check reports XPASS).
LONG_CHECKS += tests/engine/test_matrix_full.sh tests/engine/test_phold_ties_stress.sh \
	tests/engine/test_torture_stress.sh tests/engine/test_fossil_key_stress.sh

if HAVE_CRITERION
# Unit tests of engine internals (engine/internal.h), linked to static libwarp.
TORTURE_UNIT = tests/engine/test_torture_queue tests/engine/test_torture_rollback
check_PROGRAMS += $(TORTURE_UNIT)
TESTS += $(TORTURE_UNIT)
tests_engine_test_torture_queue_SOURCES = tests/engine/test_torture_queue.c
tests_engine_test_torture_queue_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_engine_test_torture_queue_LDADD = libwarp.la $(CRITERION_LIBS) -lm
tests_engine_test_torture_queue_LDFLAGS = -static
tests_engine_test_torture_rollback_SOURCES = tests/engine/test_torture_rollback.c
tests_engine_test_torture_rollback_CFLAGS = $(tests_engine_test_torture_queue_CFLAGS)
tests_engine_test_torture_rollback_LDADD = $(tests_engine_test_torture_queue_LDADD)
tests_engine_test_torture_rollback_LDFLAGS = -static
endif
