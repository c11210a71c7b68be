# models/catalog/local.mk — the catalogue of networks, topologies and workloads.
LIBWARPNET_SOURCES += models/catalog/catalog.h models/catalog/catalog.c
