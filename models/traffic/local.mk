# models/traffic/local.mk
