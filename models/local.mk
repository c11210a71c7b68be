# models/local.mk — libwarpnet: the network layer, topologies, workloads and
# trace replay. Each subdirectory adds its sources to LIBWARPNET_SOURCES.
noinst_LTLIBRARIES += libwarpnet.la
LIBWARPNET_SOURCES =
include models/net/local.mk
include models/catalog/local.mk
include models/torus/local.mk
include models/fattree/local.mk
include models/slimfly/local.mk
include models/dragonfly/local.mk
include models/simple/local.mk
include models/optical/local.mk
include models/traffic/local.mk
include models/replay/local.mk
libwarpnet_la_SOURCES = $(LIBWARPNET_SOURCES)
libwarpnet_la_CFLAGS = $(AM_CFLAGS) $(OTF2_CFLAGS)
libwarpnet_la_LIBADD = libwarp.la $(OTF2_LIBS)
