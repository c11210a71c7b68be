# examples/phold/local.mk — PHOLD, the standard PDES benchmark.
bin_PROGRAMS += examples/phold/phold
examples_phold_phold_SOURCES = examples/phold/phold.c
examples_phold_phold_LDADD = libwarp.la
# Static libwarp: direct calls on the hot path, no LD_LIBRARY_PATH on clusters.
examples_phold_phold_LDFLAGS = -static
