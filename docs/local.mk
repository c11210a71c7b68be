# docs/local.mk
dist_doc_DATA = docs/trace-format.md docs/report.md docs/errors.md docs/architecture.md docs/checkpoint.md \
	docs/convert-codes.md docs/topologies.md docs/routers.md docs/outputs.md docs/replay.md docs/coming-from.md \
	docs/building.md docs/engine.md docs/writing-a-model.md docs/benchmarks.md docs/pcap-replay.md docs/validation.md \
	docs/keys.md docs/ai-workloads.md docs/mapreduce.md docs/datacentre.md

# docs/keys.md is `warpnet keys --markdown` (tests/docs/test_keys_reference.sh
# fails when it is stale): `make keys-md` rewrites it in the source tree.
keys-md: tools/warpnet/warpnet$(EXEEXT)
	tools/warpnet/warpnet keys --markdown > $(srcdir)/docs/keys.md.tmp && mv $(srcdir)/docs/keys.md.tmp $(srcdir)/docs/keys.md
.PHONY: keys-md
EXTRA_DIST += docs/images/slimfly-q5-uniform-occupancy.png docs/images/slimfly-q5-uniform-latency_cdf.png \
	docs/images/slimfly-q5-worst-occupancy.png docs/images/slimfly-q5-worst-throughput_time.png
