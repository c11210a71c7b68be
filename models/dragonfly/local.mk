# models/dragonfly/local.mk — the dragonfly family: the canonical dragonfly
# (with Cascade groups and CODES's wiring files) and the Dragonfly+ (dfp_*,
# sharing its global wiring): wiring arithmetic, routing, topologies.
LIBWARPNET_SOURCES += models/dragonfly/dragonfly_shape.c models/dragonfly/dragonfly_shape.h \
	models/dragonfly/dragonfly_route.c models/dragonfly/dragonfly_route.h \
	models/dragonfly/dragonfly.h models/dragonfly/dragonfly_topo.c \
	models/dragonfly/dragonfly_files.c models/dragonfly/dragonfly_files.h \
	models/dragonfly/dfp_shape.c models/dragonfly/dfp_shape.h \
	models/dragonfly/dfp_route.c models/dragonfly/dfp_route.h \
	models/dragonfly/dragonflyplus.h models/dragonfly/dfp_topo.c
EXTRA_DIST += models/dragonfly/README.md models/dragonfly/dragonflyplus.md models/dragonfly/cascade_wiring.py
CATALOG_TOPOLOGIES += dragonfly_topology dragonflyplus_topology
