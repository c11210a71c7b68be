# config/local.mk — the configuration part of libwarp, below the engine: INI
# run files, numbers with units, option tables, did-you-mean, and the
# one-line error path.
libwarp_la_SOURCES += config/ini.c config/units.c config/ini_internal.h config/errline.c \
	config/fatal.c config/xalloc.c config/hash.c config/warp_hash.h config/cfg_table.c config/suggest.c config/keys.c config/keys_warn.c config/presets.c
include_HEADERS += config/warp_error.h config/warp_cfg.h
include_HEADERS += config/warp_ini.h config/warp_keys.h
