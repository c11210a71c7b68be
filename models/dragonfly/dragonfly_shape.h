/* dragonfly_shape.h — the canonical dragonfly (Kim, Dally, Scott, Abts, ISCA 2008)
 * as pure address arithmetic: sizes, local and global wiring, the links
 * between two groups and minimal router distances, in O(1) memory.
 *
 * Shape. g groups of a routers; each router has p terminals, a - 1 local
 * ports (all-to-all inside its group) and h global ports; g <= a·h + 1 so
 * that every pair of groups is joined. Router id R = i·a + r (group i,
 * index r in the group); terminal id t = R·p + k.
 *
 * Ports of a router: 0 .. a-2 local (port l leads to router index l if
 * l < r, else l + 1, and arrives there on port r if r < that index, else
 * r - 1); a-1 .. a-2+h global (global port k of router r is the group's
 * global port j = r·h + k); then the p terminals.
 *
 * Global links. Each group has P = a·h global ports j and N = g - 1 other
 * groups. Port j < R·N (R = floor(P / N) full rounds) is slot s = j mod N
 * of round j / N and leads to the group the arrangement gives slot s, on
 * the far group's port of the same round whose slot leads back:
 *   absolute:  slot s -> group s if s < i, else s + 1 (groups in id order,
 *              skipping i);
 *   relative:  slot s -> group (i + s + 1) mod g;
 *   circulant: slot s -> group i + (s/2 + 1) for even s, i - (s/2 + 1) for
 *              odd s (mod g), so the link on slot 2m arrives on slot 2m + 1
 *              and the other way round; for even g the last slot N - 1 is
 *              the antipode i + g/2 and arrives on slot N - 1.
 * Every full round joins every pair of groups once, so R >= 1 (g <= a·h + 1)
 * joins them all, and with g = a·h + 1 exactly once (R = 1, no spares).
 * Spare ports. When N does not divide P, the S = P - R·N ports j >= R·N of
 * every group are wired circulant-style whatever the arrangement (spare
 * slot s = j - R·N as a circulant slot): slots 2m and 2m + 1 give each group
 * one more link to the groups at cyclic distance m + 1, for m + 1 <=
 * floor(S/2). With S odd the last spare slot S - 1 joins antipodes
 * (i + g/2) when g is even, and stays unconnected when g is odd (then
 * g·a·h is odd: some port must). So two groups at cyclic distance
 * d = min((i-i') mod g, (i'-i) mod g) share
 * R + [d <= floor(S/2)] + [S odd, g even, d = g/2] links.
 *
 * Cascade groups (Cray XC, dfly_shape_cascade). The a = rows·cols routers
 * of a group form a rows x cols array, router index r = row·cols + col;
 * each pair of routers of a row is joined by row_links links, each pair of
 * a column by col_links links (the canonical group is 1 x a with one link).
 * Local ports of router (R, C): first the row ports, port (c' < C ? c' :
 * c' - 1)·row_links + m to column c' (copy m), then the column ports,
 * (cols - 1)·row_links + (r' < R ? r' : r' - 1)·col_links + m to row r';
 * then the h global ports and the p terminals. A local path goes along
 * the row first, then along the column (at most 2 hops).
 *
 * File wiring (dfly_wiring, from CODES's inter-group file): when s->wire is
 * set, the global links come from its table instead of the arrangement;
 * the functions below answer from it.
 */
#ifndef DRAGONFLY_SHAPE_H
#define DRAGONFLY_SHAPE_H

#include <stdint.h>

/* Largest a, h and p accepted: router ids stay below 2^32 and a port number
 * fits 16 bits. */
#define DFLY_MAX_A 1024
#define DFLY_MAX_H 1024
#define DFLY_MAX_P 1024

typedef enum dfly_arrangement {
    DFLY_ABSOLUTE = 0,
    DFLY_RELATIVE = 1,
    DFLY_CIRCULANT = 2,
} dfly_arrangement;

typedef struct dfly_shape {
    uint32_t a, p, h, g;
    dfly_arrangement arr;
    uint32_t others; /* N = g - 1 */
    uint32_t rounds; /* R = floor(a·h / N): links every pair of groups has at least */
    uint32_t spare;  /* S = a·h - R·N: spare global ports per group */
    uint32_t rows, cols;          /* the group's array (1 x a unless Cascade) */
    uint32_t row_links, col_links; /* links per pair of a row, of a column */
    int32_t local_ports;          /* (cols-1)·row_links + (rows-1)·col_links */
    const struct dfly_wiring *wire; /* global links from a file, or NULL */
} dfly_shape;

/* Global links read from a file: group i's port j leads to far[i·a·h + j]
 * = far group · a·h + far port (UINT64_MAX: unconnected); the ports of
 * group i to group d are port[first[i·g + d] .. first[i·g + d + 1]). */
typedef struct dfly_wiring {
    uint64_t *far;
    uint32_t *first;
    uint32_t *port;
    uint32_t min_pair, max_pair; /* fewest and most links between two groups */
    uint64_t links, unconnected; /* links (each once), unconnected ports */
} dfly_wiring;

/* Fills *s. Returns NULL, or a static message naming what is wrong (a, p or
 * h outside [1, DFLY_MAX_*], g < 2, or g > a·h + 1). */
const char *dfly_shape_init(dfly_shape *s, uint32_t a, uint32_t p, uint32_t h, uint32_t g,
                            dfly_arrangement arr);
/* Makes the groups of an initialised shape rows x cols arrays (rows·cols
 * = a) with row_links and col_links links per pair. Returns NULL or what
 * is wrong. */
const char *dfly_shape_cascade(dfly_shape *s, uint32_t rows, uint32_t cols, uint32_t row_links,
                               uint32_t col_links);

static inline uint64_t dfly_routers(const dfly_shape *s) { return (uint64_t)s->g * s->a; }
static inline uint64_t dfly_nodes(const dfly_shape *s) { return dfly_routers(s) * s->p; }
static inline uint32_t dfly_group_of(const dfly_shape *s, uint64_t router)
{
    return (uint32_t)(router / s->a);
}
static inline uint32_t dfly_index_of(const dfly_shape *s, uint64_t router)
{
    return (uint32_t)(router % s->a);
}
/* First global port and first terminal port of every router. */
static inline int32_t dfly_global_base(const dfly_shape *s) { return s->local_ports; }
static inline int32_t dfly_terminal_base(const dfly_shape *s)
{
    return s->local_ports + (int32_t)s->h;
}
static inline int32_t dfly_radix(const dfly_shape *s)
{
    return s->local_ports + (int32_t)(s->h + s->p);
}

/* Local hops from router index r to r2 of the same group: 0, 1, or 2 when
 * they share neither row nor column. */
static inline uint32_t dfly_local_hops(const dfly_shape *s, uint32_t r, uint32_t r2)
{
    return (r / s->cols != r2 / s->cols) + (r % s->cols != r2 % s->cols);
}
/* The most local hops inside a group: 1, or 2 for a Cascade array. */
static inline uint32_t dfly_local_diameter(const dfly_shape *s)
{
    return (s->rows > 1) + (s->cols > 1);
}
/* The first local port of router index r towards r2 (r != r2): along the
 * row to r2's column if the columns differ, else along the column; among
 * parallel links the one the 32-bit draw picks. */
int32_t dfly_local_step(const dfly_shape *s, uint32_t r, uint32_t r2, uint32_t draw);
/* The far end of local port `port` of router index r: router index *r2
 * and its port *port2. */
void dfly_local_far(const dfly_shape *s, uint32_t r, int32_t port, uint32_t *r2, int32_t *port2);

/* The far end of group i's global port j (< a·h): *group and *port (the far
 * group's global port). Returns 0 when the port is an unconnected spare. */
int dfly_global_peer(const dfly_shape *s, uint32_t i, uint32_t j, uint32_t *group, uint32_t *port);

/* Global links between groups i != d (R or R + 1; 0 for i == d). */
uint32_t dfly_links_between(const dfly_shape *s, uint32_t i, uint32_t d);
/* Group i's global port of the n-th link to group d (n < dfly_links_between):
 * n < R in round n, n = R among the spares. */
uint32_t dfly_link_port(const dfly_shape *s, uint32_t i, uint32_t d, uint32_t n);

/* Router-to-router hops of a minimal path from router x to router y: 0 for
 * x = y, dfly_local_hops inside a group, else the fewest over the links
 * between the groups of (local hops to its owner) + 1 + (local hops from
 * where it lands to y). */
uint32_t dfly_router_hops(const dfly_shape *s, uint64_t x, uint64_t y);

/* Global links of the whole network (each counted once), and unconnected
 * spare ports (g when S and g are odd, else 0). */
uint64_t dfly_global_links(const dfly_shape *s);
uint64_t dfly_unconnected_ports(const dfly_shape *s);
/* Local links of the whole network: g·a·(a-1)/2 for canonical groups,
 * g·(rows·C(cols, 2)·row_links + cols·C(rows, 2)·col_links) for Cascade. */
static inline uint64_t dfly_local_links(const dfly_shape *s)
{
    return (uint64_t)s->g * ((uint64_t)s->rows * s->cols * (s->cols - 1) / 2 * s->row_links +
                             (uint64_t)s->cols * s->rows * (s->rows - 1) / 2 * s->col_links);
}

/* The worst-case shift: terminal k of router index r in group i sends to
 * terminal k of router index r in group (i + 1) mod g. */
uint64_t dfly_shift_dst(const dfly_shape *s, uint64_t terminal);

#endif
