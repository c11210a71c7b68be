# tools/trace/local.mk — warpnet-trace: info, convert and gen for replay traces.
bin_PROGRAMS += tools/trace/warpnet-trace
tools_trace_warpnet_trace_SOURCES = tools/trace/main.c
tools_trace_warpnet_trace_CFLAGS = $(AM_CFLAGS) $(OTF2_CFLAGS)
tools_trace_warpnet_trace_LDADD = libwarpnet.la libwarp.la $(OTF2_LIBS) $(PCAP_LIBS) $(METIS_LIBS) -lm
