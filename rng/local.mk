# rng/local.mk — reversible random numbers, part of libwarp.
include_HEADERS += rng/warp_rng.h
WARP_RNG_SOURCES = rng/philox.c rng/warp_rng.h rng/warp_draw.h
