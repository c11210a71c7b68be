# tests/fattree/local.mk
