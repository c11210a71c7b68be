# models/slimfly/local.mk — Slim Fly: GF(q), MMS graphs, routing, traffic.
LIBWARPNET_SOURCES += \
	models/slimfly/slimfly_field.c models/slimfly/slimfly_field.h \
	models/slimfly/slimfly_mms.c models/slimfly/slimfly_mms.h \
	models/slimfly/slimfly_route.c models/slimfly/slimfly_route.h \
	models/slimfly/slimfly_traffic.c models/slimfly/slimfly_traffic.h
LIBWARPNET_SOURCES += models/slimfly/slimfly.h models/slimfly/slimfly_topo.c
CATALOG_TOPOLOGIES += slimfly_topology
