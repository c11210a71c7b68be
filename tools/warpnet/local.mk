# tools/warpnet/local.mk — the warpnet driver.
bin_PROGRAMS += tools/warpnet/warpnet
tools_warpnet_warpnet_SOURCES = tools/warpnet/main.c tools/warpnet/summary.c \
	tools/warpnet/summary.h tools/warpnet/sweep.c tools/warpnet/tune.c tools/warpnet/reference.c \
	tools/warpnet/convert.h tools/warpnet/convert_codes.c tools/warpnet/codes_conf.c \
	tools/warpnet/codes_conf.h tools/warpnet/codes_conv.h tools/warpnet/codes_conv.c tools/warpnet/codes_simple.c \
	tools/warpnet/codes_fattree.c tools/warpnet/codes_dfly.c \
	tools/warpnet/codes_sniff.c tools/warpnet/codes_sniff.h tools/warpnet/outdir.c tools/warpnet/outdir.h \
	tools/warpnet/agree.c tools/warpnet/agree.h \
	tools/warpnet/keys.c tools/warpnet/keys.h
tools_warpnet_warpnet_LDADD = libwarpnet.la libwarp.la -lm
