# models/hyperx/local.mk — HyperX (and the flattened butterfly): wiring by
# coordinates, dimension-order and DAL routing.
LIBWARPNET_SOURCES += models/hyperx/hyperx_shape.h models/hyperx/hyperx_route.c \
	models/hyperx/hyperx.h models/hyperx/hyperx_topo.c
EXTRA_DIST += models/hyperx/README.md
CATALOG_TOPOLOGIES += hyperx_topology
