# models/replay/local.mk — task-graph trace replay: readers, generators, the
# task-graph representation and its reference timing.
LIBWARPNET_SOURCES += \
	models/replay/error.c models/replay/error.h \
	models/replay/taskgraph.c models/replay/taskgraph.h \
	models/replay/readers/keymap.c models/replay/readers/keymap.h \
	models/replay/readers/mpimap.c models/replay/readers/mpimap.h \
	models/replay/readers/source.c models/replay/readers/source.h \
	models/replay/readers/readers.c models/replay/readers/readers.h \
	models/replay/readers/bigsim.c models/replay/readers/bigsim.h \
	models/replay/readers/goal.c \
	models/replay/readers/dimemas.c models/replay/readers/dimemas_parse.c \
	models/replay/readers/dimemas_parse.h \
	models/replay/readers/native.c models/replay/readers/native.h \
	models/replay/readers/gen.c models/replay/readers/gen.h \
	models/replay/collectives/coll.c models/replay/collectives/coll_cfg.c \
	models/replay/collectives/coll.h \
	models/replay/readers/gen_mapreduce.c models/replay/readers/gen_mapreduce.h \
	models/replay/critpath.c models/replay/critpath.h \
	models/replay/workload.c models/replay/workload.h \
	models/replay/workload_setup.c models/replay/workload_impl.h \
	models/replay/sizing.c models/replay/reader_opts.c \
	models/replay/placement.c models/replay/placement.h \
	models/replay/locality.c models/replay/locality.h \
	models/replay/tracer_config.c models/replay/tracer_config.h \
	models/replay/workload_tracer.c \
	models/replay/timeline.c models/replay/timeline.h
LIBWARPNET_SOURCES += models/replay/readers/otf2map.c models/replay/readers/otf2map.h \
	models/replay/readers/pcap_msgs.c models/replay/readers/pcap_msgs.h models/replay/capture.h \
	models/replay/capture_stats.c models/replay/phase_stats.c
# The trace readers' table (readers.c), in this order: where two readers are
# equally sure of a path's format, the first wins. A format this build has
# no reader for is FORMAT:PACKAGE in REPLAY_READERS_UNBUILT.
REPLAY_READERS += replay_reader_gen
if HAVE_OTF2
LIBWARPNET_SOURCES += models/replay/readers/otf2.c
REPLAY_READERS += replay_reader_otf2
else
REPLAY_READERS_UNBUILT += otf2:libotf2-trace-dev
endif
if HAVE_PCAP
LIBWARPNET_SOURCES += models/replay/readers/pcap.c
REPLAY_READERS += replay_reader_pcap
else
REPLAY_READERS_UNBUILT += pcap:libpcap-dev
endif
if HAVE_CHAKRA
LIBWARPNET_SOURCES += models/replay/readers/chakra.c models/replay/readers/chakra_map.c \
	models/replay/readers/chakra.h
REPLAY_GENERATED += models/replay/readers/et_def.pb-c.c models/replay/readers/et_def.pb-c.h
REPLAY_READERS += replay_reader_chakra
else
REPLAY_READERS_UNBUILT += chakra:libprotobuf-c-dev
endif
EXTRA_DIST += models/replay/readers/chakra/et_def.proto models/replay/readers/chakra/LICENSE \
	models/replay/readers/chakra/README.md
# Chakra's schema, compiled by protoc-c into the build tree.
models/replay/readers/et_def.pb-c.h: models/replay/readers/et_def.pb-c.c
models/replay/readers/et_def.pb-c.c: $(srcdir)/models/replay/readers/chakra/et_def.proto
	$(AM_V_GEN)$(MKDIR_P) models/replay/readers && \
	  $(PROTOC_C) --proto_path=$(srcdir)/models/replay/readers/chakra --c_out=models/replay/readers \
	  $(srcdir)/models/replay/readers/chakra/et_def.proto
REPLAY_READERS += replay_reader_goal replay_reader_dimemas replay_reader_bigsim replay_reader_native
CATALOG_WORKLOADS += replay_workload
