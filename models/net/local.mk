# models/net/local.mk — the packet network layer: terminals, routers, credits,
# statistics, the workload API and the network plug-in interface.
LIBWARPNET_SOURCES += models/net/net.h models/net/topology.h models/net/net_impl.h \
	models/net/network.h models/net/packet.c models/net/model.h models/net/model.c models/net/build.c \
	models/net/fifo.h models/net/port.h models/net/send.c models/net/terminal.c models/net/router.c \
	models/net/router_core.h models/net/router_core.c models/net/router_iq.c \
	models/net/stats.h models/net/stats.c models/net/sample.h models/net/sample.c models/net/dot.c \
	models/net/memory.c models/net/links.c models/net/partition.c models/net/partition_file.c \
	models/net/partition_parse.h models/net/partition_parse.c \
	models/net/spt.h models/net/spt.c models/net/failures.h models/net/failures.c models/net/keys.c models/net/presets.c
EXTRA_DIST += models/net/README.md
