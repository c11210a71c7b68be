# engine/local.mk — libwarp: the Time Warp kernel and the RNG.
lib_LTLIBRARIES += libwarp.la
include_HEADERS += engine/warp.h
libwarp_la_SOURCES = $(WARP_RNG_SOURCES)
libwarp_la_LIBADD = $(JEMALLOC_LIBS)
libwarp_la_LDFLAGS = -version-info 0:0:0

# --- ini/units (ini helper) ---
libwarp_la_SOURCES += engine/ini.c engine/units.c engine/ini_internal.h
include_HEADERS += engine/warp_ini.h
