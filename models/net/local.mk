# models/net/local.mk
