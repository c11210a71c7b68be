# models/replay/local.mk
