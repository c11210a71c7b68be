# tests/replay/local.mk
