# tests/simple/local.mk
