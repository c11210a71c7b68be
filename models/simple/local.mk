# models/simple/local.mk — analytic networks: simplenet (alpha-beta) and loggp.
LIBWARPNET_SOURCES += models/simple/simple.h models/simple/nic.c models/simple/matrix.c
CATALOG_NETWORKS += simplenet_network loggp_network
