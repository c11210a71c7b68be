# config/local.mk — the configuration part of libwarp, below the engine: INI
# run files, numbers with units, and the one-line error path.
libwarp_la_SOURCES += config/ini.c config/units.c config/ini_internal.h config/errline.c \
	config/fatal.c config/xalloc.c
include_HEADERS += config/warp_error.h
include_HEADERS += config/warp_ini.h
