# models/optical/local.mk — the hybrid optical data-centre network (racks, ToRs, OPS, OCS).
LIBWARPNET_SOURCES += models/optical/optical.h models/optical/optical_impl.h \
	models/optical/optical.c models/optical/optical_lp.c models/optical/racks.c models/optical/tor.h models/optical/tor.c \
	models/optical/tor_ops.c models/optical/tor_ocs.c models/optical/ops.c models/optical/ocs.c
EXTRA_DIST += models/optical/README.md
CATALOG_NETWORKS += optical_network
