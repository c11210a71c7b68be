# tools/local.mk — the programs users run: the warpnet driver and trace tools.
include tools/warpnet/local.mk
include tools/trace/local.mk
include tools/report/local.mk
include tools/man/local.mk
