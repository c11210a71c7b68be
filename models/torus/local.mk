# models/torus/local.mk — n-dimensional torus topology.
LIBWARPNET_SOURCES += models/torus/torus.h models/torus/torus_topo.c
CATALOG_TOPOLOGIES += torus_topology
