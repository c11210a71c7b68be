# models/replay/local.mk — task-graph trace replay: readers, generators, the
# task-graph representation and its reference timing.
LIBWARPNET_SOURCES += \
	models/replay/error.c models/replay/error.h \
	models/replay/util.c models/replay/util.h \
	models/replay/taskgraph.c models/replay/taskgraph.h \
	models/replay/keymap.c models/replay/keymap.h \
	models/replay/mpimap.c models/replay/mpimap.h \
	models/replay/source.c models/replay/source.h \
	models/replay/bigsim.c models/replay/bigsim.h \
	models/replay/goal.c \
	models/replay/dimemas.c models/replay/dimemas_parse.c models/replay/dimemas_parse.h \
	models/replay/placement.c models/replay/placement.h \
	models/replay/native.c models/replay/native.h \
	models/replay/gen.c models/replay/gen.h \
	models/replay/critpath.c models/replay/critpath.h \
	models/replay/workload.c models/replay/workload.h \
	models/replay/workload_setup.c models/replay/workload_impl.h \
	models/replay/tracer_config.c models/replay/tracer_config.h \
	models/replay/workload_tracer.c \
	models/replay/timeline.c models/replay/timeline.h
LIBWARPNET_SOURCES += models/replay/otf2map.c models/replay/otf2map.h
if HAVE_OTF2
LIBWARPNET_SOURCES += models/replay/otf2.c
endif
