# examples/phold/local.mk — PHOLD, the standard PDES benchmark.
bin_PROGRAMS += examples/phold/phold
examples_phold_phold_SOURCES = examples/phold/phold.c
examples_phold_phold_LDADD = libwarp.la
