# models/simple/local.mk
