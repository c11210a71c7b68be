/* codes_sniff.h — the CODES files beside the network configs that are not
 * configs (allocations, workload lists, simplep2p matrices, LogGP tables,
 * binary link files), told apart so that `warpnet convert codes` names what
 * the user gave it instead of failing in the config grammar. */
#ifndef WN_CODES_SNIFF_H
#define WN_CODES_SNIFF_H

#include <stddef.h>

/* 1 with "PATH: this is ..., not a network config; ..." in msg when path is
 * one of those kinds; 0 when it may be a config (or cannot be read: the
 * config reader says so). */
int codes_sniff(const char *path, char *msg, size_t n);

#endif
