# models/fattree/local.mk — the m-port n-tree: addressing, wiring and routing.
LIBWARPNET_SOURCES += models/fattree/fattree.c models/fattree/fattree.h
EXTRA_DIST += models/fattree/README.md
LIBWARPNET_SOURCES += models/fattree/fattree_topo.c models/fattree/fattree_topo.h
CATALOG_TOPOLOGIES += fattree_topology
