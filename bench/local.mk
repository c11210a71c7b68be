# bench/local.mk — benchmarks ship with the sources; make check times none of them
# (tests/bench/test_bundle.sh only checks that bundle.sh and scaling.sh run).
EXTRA_DIST += bench/huge_pages.sh bench/phold.sh bench/savestyle.sh bench/torus.sh bench/fattree.sh \
	bench/slimfly.sh bench/slimfly_sweep.sh bench/dragonfly.sh bench/dragonfly_sweep.sh bench/fattree_sweep.sh bench/instrumentation.sh bench/soak.sh bench/parallel.sh bench/checkpoint.sh bench/booksim.sh bench/replay_scale.sh bench/cons.sh bench/interleave.sh bench/pair.sh bench/engine_stats.sh bench/bundle.sh bench/scaling.sh bench/scenarios.sh bench/partition_bound.py bench/lib.sh bench/overhead.sh bench/codes_confs.sh bench/ai_collectives.sh bench/topo_sweep.sh bench/RESULTS.md bench/current.py bench/scaling_model.py bench/remote_cost.sh bench/partition_measured.sh bench/remote_instr.sh bench/gvt_round.sh \
	bench/optical_study.sh bench/codes.sh bench/memory_per_node.sh
# The figures bench/RESULTS.md cites (results/tmp and results/soak are scratch).
EXTRA_DIST += bench/results/provenance.csv bench/results/gvt_round.csv bench/results/remote_cost.csv bench/results/codes.csv bench/results/codes.md bench/results/codes.png bench/results/describe_ranks.csv bench/results/describe_measured.csv bench/results/partition_measured.csv bench/results/scaling_anchors.csv bench/results/booksim-events.csv bench/results/booksim.csv bench/results/booksim.md bench/results/soak-rss.csv \
	bench/results/booksim.png bench/results/checkpoint.csv \
	bench/results/hyperx-4x4-uniform.csv bench/results/hyperx-4x4-uniform-throughput.png \
	bench/results/dragonfly-xc-uniform.csv bench/results/dragonfly-xc-uniform-throughput.png \
	bench/results/dragonfly-xc-uniform-latency.png bench/results/dragonfly-xc-worst.csv \
	bench/results/dragonfly-xc-worst-throughput.png bench/results/dragonfly-xc-worst-latency.png \
	bench/results/graph-leafspine-uniform.csv bench/results/graph-leafspine-uniform-throughput.png \
	bench/results/graph-leafspine-uniform-latency.png bench/results/graph-leafspine-worst.csv \
	bench/results/graph-leafspine-worst-throughput.png bench/results/graph-leafspine-worst-latency.png \
	bench/results/memory-per-node.csv \
	bench/results/hyperx-4x4-uniform-latency.png bench/results/hyperx-4x4-worst.csv \
	bench/results/hyperx-4x4-worst-throughput.png bench/results/hyperx-4x4-worst-latency.png \
	bench/results/dragonflyplus-small-uniform.csv bench/results/dragonflyplus-small-uniform-throughput.png \
	bench/results/dragonflyplus-small-uniform-latency.png bench/results/dragonflyplus-small-worst.csv \
	bench/results/dragonflyplus-small-worst-throughput.png bench/results/dragonflyplus-small-worst-latency.png \
	bench/results/dragonfly-a8-uniform-latency.png bench/results/dragonfly-a8-uniform-throughput.png \
	bench/results/dragonfly-a8-uniform.csv bench/results/dragonfly-a8-worst-latency.png \
	bench/results/dragonfly-a8-worst-throughput.png bench/results/dragonfly-a8-worst.csv \
	bench/results/parallel.csv bench/results/parallel.png bench/results/phold-debug.csv \
	bench/results/phold-debug.png bench/results/phold-opt.csv bench/results/phold-opt.png \
	bench/results/phold-seq.csv bench/results/phold-seq.png bench/results/replay_scale.csv \
	bench/results/savestyle.csv bench/results/scaling.csv bench/results/scaling.png \
	bench/results/slimfly-q13-uniform-latency.png bench/results/slimfly-q13-uniform-throughput.png \
	bench/results/slimfly-q13-uniform.csv bench/results/slimfly-q13-worst-latency.png \
	bench/results/slimfly-q13-worst-throughput.png bench/results/slimfly-q13-worst.csv \
	bench/results/slimfly-q5-uniform-latency.png bench/results/slimfly-q5-uniform-throughput.png \
	bench/results/slimfly-q5-uniform.csv bench/results/slimfly-q5-worst-latency.png \
	bench/results/slimfly-q5-worst-throughput.png bench/results/slimfly-q5-worst.csv \
	bench/results/fattree-leafspine-3to1-uniform.csv bench/results/fattree-leafspine-3to1-uniform-throughput.png \
	bench/results/fattree-leafspine-3to1-uniform-latency.png bench/results/fattree-leafspine-3to1-worst.csv \
	bench/results/fattree-leafspine-3to1-worst-throughput.png bench/results/fattree-leafspine-3to1-worst-latency.png \
	bench/results/fattree-4ary3tree-uniform.csv bench/results/fattree-4ary3tree-uniform-throughput.png \
	bench/results/fattree-4ary3tree-uniform-latency.png \
	bench/results/optical-study-flow.csv bench/results/optical-study-dc.csv \
	bench/results/optical-study-flow.png bench/results/optical-study-dc.png
noinst_PROGRAMS += bench/savebench
bench_savebench_SOURCES = bench/savebench.c
bench_savebench_LDADD = libwarp.la
bench_savebench_LDFLAGS = -static
