# tools/warpnet/local.mk
