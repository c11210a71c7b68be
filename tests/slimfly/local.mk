# tests/slimfly/local.mk
