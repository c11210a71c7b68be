# models/dragonfly/local.mk — the dragonfly: wiring arithmetic, routing, topology.
LIBWARPNET_SOURCES += models/dragonfly/dragonfly_shape.c models/dragonfly/dragonfly_shape.h \
	models/dragonfly/dragonfly_route.c models/dragonfly/dragonfly_route.h \
	models/dragonfly/dragonfly.h models/dragonfly/dragonfly_topo.c
EXTRA_DIST += models/dragonfly/README.md
CATALOG_TOPOLOGIES += dragonfly_topology
