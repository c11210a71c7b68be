# tests/engine/local.mk
