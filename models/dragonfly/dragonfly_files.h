/* dragonfly_files.h — CODES's dragonfly-custom wiring files, read as they are.
 *
 * CODES (src/networks/model-net/dragonfly-custom.cxx) reads two binary files
 * of native 32-bit ints, written by its generators with Python's
 * struct.pack('3i') and ('2i'):
 *   intra-group-connections: entries (src, dest, type), router indices
 *     inside one group (index = row·cols + col), type 0 a row ("green")
 *     link, 1 a column ("black") link; every link is listed from both ends,
 *     parallel links once each;
 *   inter-group-connections: entries (src, dest), router ids of the whole
 *     network (group·a + index); every global link is listed from both ends;
 *     the k-th entry of a router is its global port k.
 * Warpnet's Cascade groups are rows x columns arrays with the same link
 * count for every pair of a row and for every pair of a column; the intra
 * file is checked against that and gives those counts. The inter file gives
 * the global wiring (dfly_wiring): the n-th entry src -> dest is the link
 * whose other end is the n-th entry dest -> src.
 * Errors name the file, the entry (from 0) and its bytes.
 */
#ifndef DRAGONFLY_FILES_H
#define DRAGONFLY_FILES_H

#include <stddef.h>

#include "dragonfly/dragonfly_shape.h"

/* Checks the intra-group file `path` against a rows x cols group and sets
 * *row_links and *col_links. Returns 0, or -1 with the reason in why. */
int dfly_read_codes_intra(const char *path, uint32_t rows, uint32_t cols, uint32_t *row_links,
                          uint32_t *col_links, char *why, size_t n);

/* Reads the inter-group file `path` for shape s (a, h, g): a heap table
 * (free with dfly_wiring_free), or NULL with the reason in why. Every pair
 * of groups must share a link. */
dfly_wiring *dfly_read_codes_inter(const char *path, const dfly_shape *s, char *why, size_t n);

void dfly_wiring_free(dfly_wiring *w);
/* Bytes the table uses (for --describe). */
size_t dfly_wiring_bytes(const dfly_wiring *w, const dfly_shape *s);

#endif
