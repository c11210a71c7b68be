# bench/local.mk — benchmarks ship with the sources; make check times none of them
# (tests/bench/test_bundle.sh only checks that bundle.sh and scaling.sh run).
EXTRA_DIST += bench/huge_pages.sh bench/phold.sh bench/savestyle.sh bench/torus.sh bench/fattree.sh \
	bench/slimfly.sh bench/slimfly_sweep.sh bench/dragonfly.sh bench/dragonfly_sweep.sh bench/instrumentation.sh bench/soak.sh bench/parallel.sh bench/checkpoint.sh bench/booksim.sh bench/replay_scale.sh bench/cons.sh bench/interleave.sh bench/pair.sh bench/engine_stats.sh bench/bundle.sh bench/scaling.sh bench/scenarios.sh bench/partition_bound.py bench/lib.sh bench/RESULTS.md
noinst_PROGRAMS += bench/savebench
bench_savebench_SOURCES = bench/savebench.c
bench_savebench_LDADD = libwarp.la
bench_savebench_LDFLAGS = -static
