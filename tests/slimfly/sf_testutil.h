/* sf_testutil.h — independent references for the Slim Fly tests: the MMS
 * edge relation evaluated from its definition, and breadth-first search. */
#ifndef SF_TESTUTIL_H
#define SF_TESTUTIL_H

#include <stdint.h>

#include "slimfly/slimfly_mms.h"

/* 1 when routers u and v are joined by the definition of the MMS graph with
 * generator sets X, Xp (h elements each) over field f (r = s q^2 + a q + b). */
int sft_edge(const sf_field *f, const int *X, const int *Xp, int h, uint32_t u, uint32_t v);

/* Hop distances from src over g's adjacency into dist[nrouters] (-1 when
 * unreachable); returns the largest distance found (-1 if some router is
 * unreachable). */
int sft_bfs(const sf_mms *g, uint32_t src, int *dist);

/* A 64-bit draw from a simple counter-based generator for test inputs. */
uint64_t sft_draw(uint64_t seed, uint64_t i);

/* The prime powers of the form 4w + d the issue asks to test. */
extern const int sft_qs[];
extern const int sft_nqs;

#endif
