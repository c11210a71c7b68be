# examples/phold/local.mk
