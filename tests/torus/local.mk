# tests/torus/local.mk
