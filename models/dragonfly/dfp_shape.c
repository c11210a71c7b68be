/* dfp_shape.c — Dragonfly+ sizes and minimal distances (numbering and
 * wiring in dfp_shape.h). Invariant: everything is computed from the few
 * integers of dfp_shape; the global wiring is the dragonfly's (dfly_shape
 * with a = spines). Called by the Dragonfly+ topology, its routing and the
 * tests. */
#include "dragonfly/dfp_shape.h"

const char *dfp_shape_init(dfp_shape *s, uint32_t leaves, uint32_t spines, uint32_t p, uint32_t h,
                           uint32_t c, uint32_t g, dfly_arrangement arr)
{
    if (leaves < 1 || leaves > DFP_MAX_ROUTERS)
        return "leaves (leaf routers per group) must lie in [1, 1024]";
    if (spines < 1 || spines > DFP_MAX_ROUTERS)
        return "spines (spine routers per group) must lie in [1, 1024]";
    if (p < 1 || p > DFP_MAX_PORTS)
        return "p (terminals per leaf) must lie in [1, 1024]";
    if (h < 1 || h > DFP_MAX_PORTS)
        return "h (global links per spine) must lie in [1, 1024]";
    if (c < 1 || c > DFP_MAX_PARALLEL)
        return "level_links (links between a leaf and a spine) must lie in [1, 16]";
    if ((uint64_t)spines * c + p > 65535 || (uint64_t)leaves * c + h > 65535)
        return "a router may have at most 65535 ports (spines*level_links + p for a leaf, "
               "leaves*level_links + h for a spine)";
    const char *why = dfly_shape_init(&s->glob, spines, 1, h, g, arr);
    if (why)
        return g < 2 ? "g (groups) must be at least 2"
                     : "g (groups) may be at most spines*h + 1: a group's spines*h global "
                       "ports must reach every other group";
    s->leaves = leaves;
    s->spines = spines;
    s->p = p;
    s->h = h;
    s->c = c;
    s->g = g;
    return 0;
}

/* Hops from a spine x of group gx to router y of another group: over each
 * link from gx to y's group, (x owns it ? 0 : 2) + 1 + the landing spine's
 * distance to y inside its group (0 or 1 to a leaf, 0 or 2 to a spine). */
static uint32_t spine_to_group(const dfp_shape *s, uint32_t gx, int32_t x_spine, uint64_t y)
{
    uint32_t gy = dfp_group_of(s, y), links = dfly_links_between(&s->glob, gx, gy), best = UINT32_MAX;
    for (uint32_t n = 0; n < links; n++) {
        uint32_t j = dfly_link_port(&s->glob, gx, gy, n), fg, fj;
        dfly_global_peer(&s->glob, gx, j, &fg, &fj);
        uint64_t landing = dfp_spine_id(s, fg, fj / s->h);
        uint32_t in_y = landing == y ? 0 : dfp_is_leaf(s, y) ? 1 : 2;
        uint32_t hops = (x_spine >= 0 && j / s->h == (uint32_t)x_spine ? 0 : 2) + 1 + in_y;
        if (hops < best)
            best = hops;
    }
    return best;
}

uint32_t dfp_router_hops(const dfp_shape *s, uint64_t x, uint64_t y)
{
    if (x == y)
        return 0;
    uint32_t gx = dfp_group_of(s, x), gy = dfp_group_of(s, y);
    if (gx == gy)
        return dfp_is_leaf(s, x) == dfp_is_leaf(s, y) ? 2 : 1;
    if (dfp_is_leaf(s, x)) /* one hop up to any link's owner, not a spine's two */
        return spine_to_group(s, gx, -1, y) - 1;
    return spine_to_group(s, gx, (int32_t)(dfp_place_of(s, x) - s->leaves), y);
}
