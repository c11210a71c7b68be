# models/dragonfly/local.mk — the dragonfly: wiring arithmetic, routing, topology.
LIBWARPNET_SOURCES += models/dragonfly/dfly_shape.c models/dragonfly/dfly_shape.h \
	models/dragonfly/dfly_route.c models/dragonfly/dfly_route.h \
	models/dragonfly/dragonfly.h models/dragonfly/dragonfly_topo.c
EXTRA_DIST += models/dragonfly/README.md
CATALOG_TOPOLOGIES += dragonfly_topology
