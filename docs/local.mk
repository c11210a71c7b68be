# docs/local.mk
dist_doc_DATA = docs/trace-format.md docs/report.md
EXTRA_DIST += docs/images/slimfly-q5-occupancy_heatmap.png docs/images/slimfly-q5-term_recv_heatmap.png \
	docs/images/slimfly-q5-throughput_time.png docs/images/slimfly-q5-latency_cdf.png
