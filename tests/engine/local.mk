# tests/engine/local.mk — engine tests.
TESTS += tests/engine/test_phold_basics.sh
EXTRA_DIST += tests/engine/test_phold_basics.sh

# --- ini/units (ini helper) ---
if HAVE_CRITERION
check_PROGRAMS += tests/engine/test_ini tests/engine/test_units
TESTS += tests/engine/test_ini tests/engine/test_units
tests_engine_test_ini_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_engine_test_ini_LDADD = libwarp.la $(CRITERION_LIBS) -lm
tests_engine_test_units_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
tests_engine_test_units_LDADD = libwarp.la $(CRITERION_LIBS) -lm
endif
# Built by hand with clang (compile line inside); shipped in the tarball.
EXTRA_DIST += tests/fuzz/fuzz_ini.c
