# models/local.mk — libwarpnet: the network layer, topologies, workloads and
# trace replay. Each subdirectory adds its sources to LIBWARPNET_SOURCES.
noinst_LTLIBRARIES += libwarpnet.la
LIBWARPNET_SOURCES =
# Each model folder's local.mk names its ops structures in these; the
# catalogue (models/catalog/) is generated from them, in include order.
CATALOG_TOPOLOGIES =
CATALOG_NETWORKS =
CATALOG_WORKLOADS =
# models/replay/local.mk names its trace readers' descriptors in these.
REPLAY_READERS =
REPLAY_READERS_UNBUILT =
# and the sources its readers generate at build time (Chakra's schema).
REPLAY_GENERATED =
include models/net/local.mk
include models/catalog/local.mk
include models/torus/local.mk
include models/fattree/local.mk
include models/slimfly/local.mk
include models/dragonfly/local.mk
include models/hyperx/local.mk
include models/graph/local.mk
include models/simple/local.mk
include models/optical/local.mk
include models/traffic/local.mk
include models/replay/local.mk
libwarpnet_la_SOURCES = $(LIBWARPNET_SOURCES)
libwarpnet_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(builddir)/models/catalog -I$(builddir)/models/replay/readers
libwarpnet_la_CFLAGS = $(AM_CFLAGS) $(OTF2_CFLAGS) $(PCAP_CFLAGS) $(PROTOBUF_C_CFLAGS)
libwarpnet_la_LIBADD = libwarp.la $(OTF2_LIBS) $(PCAP_LIBS) $(METIS_LIBS) $(PROTOBUF_C_LIBS)

# The catalogue's list, rewritten whenever a local.mk (hence Makefile) changes.
nodist_libwarpnet_la_SOURCES = models/catalog/catalog_list.h models/replay/readers/reader_list.h \
	$(REPLAY_GENERATED)
BUILT_SOURCES = models/catalog/catalog_list.h models/replay/readers/reader_list.h $(REPLAY_GENERATED)
CLEANFILES += models/catalog/catalog_list.h models/replay/readers/reader_list.h $(REPLAY_GENERATED)
models/catalog/catalog_list.h: Makefile
	$(AM_V_GEN)$(MKDIR_P) models/catalog && { \
	  for o in $(CATALOG_TOPOLOGIES); do echo "CATALOG_TOPOLOGY($$o)"; done; \
	  for o in $(CATALOG_NETWORKS); do echo "CATALOG_NETWORK($$o)"; done; \
	  for o in $(CATALOG_WORKLOADS); do echo "CATALOG_WORKLOAD($$o)"; done; \
	} > $@-t && mv $@-t $@
models/replay/readers/reader_list.h: Makefile
	$(AM_V_GEN)$(MKDIR_P) models/replay/readers && { \
	  for o in $(REPLAY_READERS); do echo "REPLAY_READER($$o)"; done; \
	  for o in $(REPLAY_READERS_UNBUILT); do echo "REPLAY_READER_UNBUILT(\"$${o%%:*}\", \"$${o#*:}\")"; done; \
	} > $@-t && mv $@-t $@
