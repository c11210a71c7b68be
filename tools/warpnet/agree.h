/* agree.h — the warpnet driver's check that every rank runs the same
 * configuration (agree.c). */
#ifndef WN_AGREE_H
#define WN_AGREE_H

#include <stddef.h>

#include "warp.h"
#include "warp_ini.h"

/* Collective: stops every rank with exit 2 and one line naming the first
 * differing setting and the ranks, unless all hold the same run-file keys
 * (after overrides), the same sizes and times of the files those keys
 * name, the same engine options and the same `extra` "--name=value"
 * driver options. */
void wn_agree(const warp_ctx *w, const warp_ini *ini, const char *const *extra, size_t nextra);

#endif
