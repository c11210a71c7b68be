# tests/engine/local.mk

# --- rollback, determinism and option tests (torture helper) ---
# The torture model: every state-saving style, warp_alloc queues, all RNG
# helpers, zero-delay and equal-timestamp sends; --broken=1 skips one undo.
check_PROGRAMS += tests/engine/torture
tests_engine_torture_SOURCES = tests/engine/torture.c
tests_engine_torture_LDADD = libwarp.la
tests_engine_torture_LDFLAGS = -static
