# tools/trace/local.mk
