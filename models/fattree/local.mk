# models/fattree/local.mk
