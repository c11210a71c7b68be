/* dragonfly_shape.c — dragonfly wiring by arithmetic (rules in dragonfly_shape.h).
 * Invariant: dfly_global_peer is an involution on the connected global
 * ports of all groups (the far end's far end is the port itself), and a
 * port's far group differs from its own. Called by the dragonfly topology,
 * its routing and the tests. */
#include "dragonfly/dragonfly_shape.h"

#include "warp_draw.h"

const char *dfly_shape_init(dfly_shape *s, uint32_t a, uint32_t p, uint32_t h, uint32_t g,
                            dfly_arrangement arr)
{
    if (a < 1 || a > DFLY_MAX_A)
        return "a (routers per group) must lie in [1, 1024]";
    if (p < 1 || p > DFLY_MAX_P)
        return "p (terminals per router) must lie in [1, 1024]";
    if (h < 1 || h > DFLY_MAX_H)
        return "h (global links per router) must lie in [1, 1024]";
    if (g < 2)
        return "g (groups) must be at least 2";
    if ((uint64_t)g > (uint64_t)a * h + 1)
        return "g (groups) may be at most a*h + 1: a group's a*h global ports must reach "
               "every other group";
    s->a = a;
    s->p = p;
    s->h = h;
    s->g = g;
    s->arr = arr;
    s->others = g - 1;
    s->rounds = a * h / s->others;
    s->spare = a * h - s->rounds * s->others;
    s->rows = 1;
    s->cols = a;
    s->row_links = s->col_links = 1;
    s->local_ports = (int32_t)a - 1;
    s->wire = 0;
    return 0;
}

const char *dfly_shape_cascade(dfly_shape *s, uint32_t rows, uint32_t cols, uint32_t row_links,
                               uint32_t col_links)
{
    if (rows < 1 || cols < 1 || (uint64_t)rows * cols != s->a)
        return "rows x columns must give the routers per group a";
    if (row_links < 1 || row_links > 64 || col_links < 1 || col_links > 64)
        return "row_links and column_links must lie in [1, 64]";
    uint64_t local = (uint64_t)(cols - 1) * row_links + (uint64_t)(rows - 1) * col_links;
    if (local + s->h + s->p > 65535)
        return "a router may have at most 65535 ports ((columns-1)*row_links + "
               "(rows-1)*column_links + h + p)";
    s->rows = rows;
    s->cols = cols;
    s->row_links = row_links;
    s->col_links = col_links;
    s->local_ports = (int32_t)local;
    return 0;
}

int32_t dfly_local_step(const dfly_shape *s, uint32_t r, uint32_t r2, uint32_t draw)
{
    uint32_t R = r / s->cols, C = r % s->cols, R2 = r2 / s->cols, C2 = r2 % s->cols;
    if (C != C2)
        return (int32_t)((C2 < C ? C2 : C2 - 1) * s->row_links + warp_rng_pick(draw, s->row_links));
    return (int32_t)((s->cols - 1) * s->row_links + (R2 < R ? R2 : R2 - 1) * s->col_links +
                     warp_rng_pick(draw, s->col_links));
}

void dfly_local_far(const dfly_shape *s, uint32_t r, int32_t port, uint32_t *r2, int32_t *port2)
{
    uint32_t R = r / s->cols, C = r % s->cols, row_ports = (s->cols - 1) * s->row_links;
    if ((uint32_t)port < row_ports) {
        uint32_t k = (uint32_t)port / s->row_links, m = (uint32_t)port % s->row_links;
        uint32_t C2 = k < C ? k : k + 1;
        *r2 = R * s->cols + C2;
        *port2 = (int32_t)((C < C2 ? C : C - 1) * s->row_links + m);
        return;
    }
    uint32_t q = (uint32_t)port - row_ports, k = q / s->col_links, m = q % s->col_links;
    uint32_t R2 = k < R ? k : k + 1;
    *r2 = R2 * s->cols + C;
    *port2 = (int32_t)(row_ports + (R < R2 ? R : R - 1) * s->col_links + m);
}

/* Circulant slots among `count` (N for a full round, S for the spares):
 * 2m -> +(m+1), 2m+1 -> -(m+1); with count odd the last slot is the
 * antipode when g is even and unconnected (-1) when g is odd. */
static int64_t circ_group(const dfly_shape *s, uint32_t i, uint32_t slot, uint32_t count)
{
    if (count % 2 == 1 && slot == count - 1)
        return s->g % 2 == 0 ? (int64_t)((i + s->g / 2) % s->g) : -1;
    uint32_t off = slot / 2 + 1;
    return slot % 2 == 0 ? (int64_t)((i + off) % s->g) : (int64_t)((i + s->g - off) % s->g);
}

static uint32_t circ_partner(uint32_t slot, uint32_t count)
{
    return count % 2 == 1 && slot == count - 1 ? slot : slot ^ 1u;
}

/* The circulant slot of group i leading to d among `count`, or -1. */
static int64_t circ_slot(const dfly_shape *s, uint32_t i, uint32_t d, uint32_t count)
{
    uint32_t o = (d + s->g - i) % s->g;
    if (o == 0)
        return -1;
    if (2 * o == s->g)
        return count % 2 == 1 ? (int64_t)count - 1 : -1;
    uint32_t dist = o < s->g - o ? o : s->g - o;
    if (2 * dist > count)
        return -1;
    return 2 * (int64_t)(dist - 1) + (o < s->g - o ? 0 : 1);
}

/* Full rounds: the group slot s of group i leads to, and back. */
static uint32_t full_group(const dfly_shape *s, uint32_t i, uint32_t slot)
{
    switch (s->arr) {
    case DFLY_ABSOLUTE:
        return slot < i ? slot : slot + 1;
    case DFLY_RELATIVE:
        return (i + slot + 1) % s->g;
    default:
        return (uint32_t)circ_group(s, i, slot, s->others);
    }
}

static uint32_t full_slot(const dfly_shape *s, uint32_t i, uint32_t d)
{
    switch (s->arr) {
    case DFLY_ABSOLUTE:
        return d < i ? d : d - 1;
    case DFLY_RELATIVE:
        return (d + s->g - i - 1) % s->g;
    default:
        return (uint32_t)circ_slot(s, i, d, s->others);
    }
}

int dfly_global_peer(const dfly_shape *s, uint32_t i, uint32_t j, uint32_t *group, uint32_t *port)
{
    if (s->wire) {
        uint64_t ports = (uint64_t)s->a * s->h, f = s->wire->far[i * ports + j];
        if (f == UINT64_MAX)
            return 0;
        *group = (uint32_t)(f / ports);
        *port = (uint32_t)(f % ports);
        return 1;
    }
    uint32_t full = s->rounds * s->others;
    if (j < full) {
        uint32_t round = j / s->others, slot = j % s->others;
        uint32_t d = full_group(s, i, slot);
        *group = d;
        *port = round * s->others + full_slot(s, d, i);
        return 1;
    }
    uint32_t slot = j - full;
    int64_t d = circ_group(s, i, slot, s->spare);
    if (d < 0)
        return 0;
    *group = (uint32_t)d;
    *port = full + circ_partner(slot, s->spare);
    return 1;
}

uint32_t dfly_links_between(const dfly_shape *s, uint32_t i, uint32_t d)
{
    if (i == d)
        return 0;
    if (s->wire)
        return s->wire->first[(uint64_t)i * s->g + d + 1] - s->wire->first[(uint64_t)i * s->g + d];
    return s->rounds + (s->spare > 0 && circ_slot(s, i, d, s->spare) >= 0);
}

uint32_t dfly_link_port(const dfly_shape *s, uint32_t i, uint32_t d, uint32_t n)
{
    if (s->wire)
        return s->wire->port[s->wire->first[(uint64_t)i * s->g + d] + n];
    if (n < s->rounds)
        return n * s->others + full_slot(s, i, d);
    return s->rounds * s->others + (uint32_t)circ_slot(s, i, d, s->spare);
}

uint32_t dfly_router_hops(const dfly_shape *s, uint64_t x, uint64_t y)
{
    if (x == y)
        return 0;
    uint32_t gx = dfly_group_of(s, x), gy = dfly_group_of(s, y);
    uint32_t ix = dfly_index_of(s, x), iy = dfly_index_of(s, y);
    if (gx == gy)
        return dfly_local_hops(s, ix, iy);
    uint32_t best = UINT32_MAX, links = dfly_links_between(s, gx, gy);
    for (uint32_t n = 0; n < links && best > 1; n++) {
        uint32_t j = dfly_link_port(s, gx, gy, n), far_group, far_port;
        dfly_global_peer(s, gx, j, &far_group, &far_port);
        uint32_t hops = dfly_local_hops(s, ix, j / s->h) + 1 + dfly_local_hops(s, far_port / s->h, iy);
        if (hops < best)
            best = hops;
    }
    return best;
}

uint64_t dfly_unconnected_ports(const dfly_shape *s)
{
    if (s->wire)
        return s->wire->unconnected;
    return s->spare % 2 == 1 && s->g % 2 == 1 ? s->g : 0;
}

uint64_t dfly_global_links(const dfly_shape *s)
{
    return ((uint64_t)s->g * s->a * s->h - dfly_unconnected_ports(s)) / 2;
}

uint64_t dfly_shift_dst(const dfly_shape *s, uint64_t terminal)
{
    uint64_t router = terminal / s->p, k = terminal % s->p;
    uint64_t next = (dfly_group_of(s, router) + 1) % s->g;
    return (next * s->a + dfly_index_of(s, router)) * s->p + k;
}
