# models/slimfly/local.mk
