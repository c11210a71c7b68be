# models/traffic/local.mk — synthetic traffic workloads.
LIBWARPNET_SOURCES += models/traffic/traffic.h models/traffic/traffic.c
CATALOG_WORKLOADS += traffic_workload
