# docs/local.mk
dist_doc_DATA = docs/trace-format.md docs/report.md docs/errors.md docs/architecture.md docs/checkpoint.md \
	docs/convert-codes.md docs/topologies.md docs/routers.md docs/outputs.md docs/replay.md docs/coming-from.md \
	docs/building.md docs/engine.md docs/writing-a-model.md docs/benchmarks.md docs/pcap-replay.md
EXTRA_DIST += docs/images/slimfly-q5-uniform-occupancy.png docs/images/slimfly-q5-uniform-latency_cdf.png \
	docs/images/slimfly-q5-worst-occupancy.png docs/images/slimfly-q5-worst-throughput_time.png
