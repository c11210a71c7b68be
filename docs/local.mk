# docs/local.mk
