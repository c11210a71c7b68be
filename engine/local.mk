# engine/local.mk — libwarp: the Time Warp kernel and the RNG.
lib_LTLIBRARIES += libwarp.la
include_HEADERS += engine/warp.h engine/warp_mpi.h
libwarp_la_SOURCES = $(WARP_RNG_SOURCES) \
	engine/internal.h engine/context.c engine/options.c engine/setup.c engine/map.c engine/api.c \
	engine/pool.c engine/queue.c engine/alloc.c engine/bigmem.c engine/undo.c \
	engine/process.c engine/rollback.c engine/fossil.c \
	engine/sched_seq.c engine/sched_opt.c engine/sched_cons.c engine/check.c \
	engine/transport.c engine/shm.c engine/gvt.c engine/gvt_shm.c engine/stats.c engine/report.c engine/collective.c \
	engine/checkpoint.c engine/checkpoint_read.c engine/checkpoint_format.h
libwarp_la_LIBADD = $(JEMALLOC_LIBS) -lm
libwarp_la_LDFLAGS = -version-info 0:0:0 $(SYMBOLIC_LDFLAGS)
