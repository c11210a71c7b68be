# examples/local.mk — example models and ready-made configurations.
include examples/phold/local.mk
