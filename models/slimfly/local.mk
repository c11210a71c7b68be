# models/slimfly/local.mk — Slim Fly: GF(q), MMS graphs, routing, traffic.
LIBWARPNET_SOURCES += \
	models/slimfly/sf_field.c models/slimfly/sf_field.h \
	models/slimfly/sf_mms.c models/slimfly/sf_mms.h \
	models/slimfly/sf_route.c models/slimfly/sf_route.h \
	models/slimfly/sf_traffic.c models/slimfly/sf_traffic.h
LIBWARPNET_SOURCES += models/slimfly/slimfly.h models/slimfly/slimfly_topo.c
CATALOG_TOPOLOGIES += slimfly_topology
