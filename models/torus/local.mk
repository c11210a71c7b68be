# models/torus/local.mk
