/* dfp_shape.h — the Dragonfly+ (Shpiner et al., HOTI 2017) as pure address
 * arithmetic: sizes, numbering, leaf-spine and global wiring, minimal
 * router distances and the worst-case shift, in O(1) memory.
 *
 * Shape. g groups; a group is a two-level Clos: L leaf routers, each with p
 * terminals, and S spine routers, each leaf joined to each spine by c
 * parallel links (complete bipartite); every spine has h global ports.
 * A group's S·h global ports are wired to the other groups exactly as the
 * global ports of a canonical dragonfly group of a = S routers with h
 * global links each (dragonfly_shape.h: arrangement absolute, relative or
 * circulant, spares to the nearest groups), so g <= S·h + 1.
 *
 * Numbering. Router id R = i·(L + S) + x: x < L is leaf x of group i,
 * x >= L spine x - L. Terminal t = (i·L + l)·p + k is terminal k of leaf l
 * of group i. Leaf ports: 0 .. S·c-1 up (port s·c + m: copy m of the link
 * to spine s), then the p terminals. Spine ports: 0 .. L·c-1 down (port
 * l·c + m to leaf l, the far end of the leaf's up port s·c + m), then h
 * global ports (global port k of spine s is the group's global port
 * j = s·h + k of the dragonfly wiring).
 */
#ifndef DFP_SHAPE_H
#define DFP_SHAPE_H

#include <stdint.h>

#include "dragonfly/dragonfly_shape.h"

/* Largest L, S, p, h and c accepted: ports of a router fit 16 bits. */
#define DFP_MAX_ROUTERS 1024
#define DFP_MAX_PORTS 1024
#define DFP_MAX_PARALLEL 16

typedef struct dfp_shape {
    uint32_t leaves, spines, p, h, c, g;
    dfly_shape glob; /* the global wiring: a = spines, h = h, g = g */
} dfp_shape;

/* Fills *s. Returns NULL, or a static message naming what is wrong. */
const char *dfp_shape_init(dfp_shape *s, uint32_t leaves, uint32_t spines, uint32_t p, uint32_t h,
                           uint32_t c, uint32_t g, dfly_arrangement arr);

static inline uint32_t dfp_per_group(const dfp_shape *s) { return s->leaves + s->spines; }
static inline uint64_t dfp_routers(const dfp_shape *s) { return (uint64_t)s->g * dfp_per_group(s); }
static inline uint64_t dfp_nodes(const dfp_shape *s) { return (uint64_t)s->g * s->leaves * s->p; }
static inline uint32_t dfp_group_of(const dfp_shape *s, uint64_t r)
{
    return (uint32_t)(r / dfp_per_group(s));
}
/* x: the router's place in its group (leaves first, then spines). */
static inline uint32_t dfp_place_of(const dfp_shape *s, uint64_t r)
{
    return (uint32_t)(r % dfp_per_group(s));
}
static inline int dfp_is_leaf(const dfp_shape *s, uint64_t r) { return dfp_place_of(s, r) < s->leaves; }
static inline uint64_t dfp_leaf_id(const dfp_shape *s, uint32_t group, uint32_t leaf)
{
    return (uint64_t)group * dfp_per_group(s) + leaf;
}
static inline uint64_t dfp_spine_id(const dfp_shape *s, uint32_t group, uint32_t spine)
{
    return (uint64_t)group * dfp_per_group(s) + s->leaves + spine;
}
/* The leaf router of terminal t. */
static inline uint64_t dfp_leaf_of_terminal(const dfp_shape *s, uint64_t t)
{
    uint64_t leaf = t / s->p;
    return dfp_leaf_id(s, (uint32_t)(leaf / s->leaves), (uint32_t)(leaf % s->leaves));
}
/* Port bases: a leaf's first terminal port, a spine's first global port. */
static inline int32_t dfp_leaf_terminal_base(const dfp_shape *s) { return (int32_t)(s->spines * s->c); }
static inline int32_t dfp_spine_global_base(const dfp_shape *s) { return (int32_t)(s->leaves * s->c); }
static inline int32_t dfp_leaf_radix(const dfp_shape *s) { return (int32_t)(s->spines * s->c + s->p); }
static inline int32_t dfp_spine_radix(const dfp_shape *s) { return (int32_t)(s->leaves * s->c + s->h); }

/* The group's global port j (< S·h) as a port of its owner spine j / h. */
static inline int32_t dfp_global_port(const dfp_shape *s, uint32_t j)
{
    return dfp_spine_global_base(s) + (int32_t)(j % s->h);
}

/* Router hops of a minimal path between routers x and y (0 for x = y):
 * within a group 1 between a leaf and a spine, 2 between two leaves or two
 * spines; between groups the fewest over the links joining them. */
uint32_t dfp_router_hops(const dfp_shape *s, uint64_t x, uint64_t y);

/* Leaf-spine links of the whole network: g·L·S·c. */
static inline uint64_t dfp_local_links(const dfp_shape *s)
{
    return (uint64_t)s->g * s->leaves * s->spines * s->c;
}

/* The worst-case shift: terminal k of leaf l in group i sends to terminal
 * k of leaf l in group (i + 1) mod g. */
static inline uint64_t dfp_shift_dst(const dfp_shape *s, uint64_t t)
{
    uint64_t per_group = (uint64_t)s->leaves * s->p;
    return (t + per_group) % dfp_nodes(s);
}

#endif
