# tests/rng/local.mk
