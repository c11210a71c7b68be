/* slimfly_traffic.h — Slim Fly traffic patterns that need the graph's structure.
 *
 * Worst case (after Besta & Hoefler, SC14): routers are paired at distance 2
 * so that two pairs share the middle link of their minimal paths; every
 * terminal of a router sends to the terminal of the same index on the
 * partner router, and back.
 *
 * The pairing. Read (0,x,y) as the point (x,y) and (1,m,c) as the line
 * y = m·x + c. Columns and slopes are taken in pairs i = 0 .. floor(q/2)-1:
 * column a = 2i, column b = 2i + 1, slopes m0 = 2i, m1 = 2i + 1 (field
 * element numbers). For every y in GF(q) one quadruple
 *   P3 = (0, a, y),  L2 = the line of slope m0 through P3,
 *   P1 = the point of L2 in column b,  L4 = the line of slope m1 through P3
 * gives the pairs P1 <-> P3 (unique minimal path P1 - L2 - P3) and
 * L2 <-> L4 (unique minimal path L2 - P3 - L4): both cross the link
 * L2 - P3, in each direction. As y runs over GF(q) the quadruples of pair i
 * cover columns a and b and the lines of slopes m0 and m1 exactly once, so
 * for even q every router is paired. For odd q column q-1 and slope q-1 are
 * left: point (q-1, y) is paired with the line of slope q-1 through
 * (q-1, y + g), g the first element of X' not in X (or X'[0] if none) — at
 * distance 2, but without a second pair on its middle link. */
#ifndef SLIMFLY_TRAFFIC_H
#define SLIMFLY_TRAFFIC_H

#include <stdint.h>

#include "slimfly/slimfly_mms.h"

/* Fills partner[0 .. g->nrouters-1] (an involution without fixed points,
 * every pair at distance 2) and returns the number of quadruples, i.e. of
 * pairs of pairs that share a middle link: floor(q/2)·q. */
uint32_t sf_worst_case_pairs(const sf_mms *g, uint32_t *partner);

#endif
