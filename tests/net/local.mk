# tests/net/local.mk
