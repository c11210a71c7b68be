# models/graph/local.mk — any network from a file (BookSim anynet, edge
# lists), routed by shortest-path tables.
LIBWARPNET_SOURCES += models/graph/graph_read.h models/graph/graph_read.c \
	models/graph/graph.h models/graph/graph_topo.c \
	models/graph/graph_routes.h models/graph/graph_routes.c
EXTRA_DIST += models/graph/README.md
CATALOG_TOPOLOGIES += graph_topology
