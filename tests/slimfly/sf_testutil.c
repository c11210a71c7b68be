/* sf_testutil.c — reference edge relation and BFS for the Slim Fly tests;
 * deliberately written from the definitions, not from slimfly_mms.c's tables. */
#include "sf_testutil.h"

#include <stdlib.h>

const int sft_qs[] = {4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 37};
const int sft_nqs = (int)(sizeof sft_qs / sizeof sft_qs[0]);

static int member(const int *S, int h, int e)
{
    for (int i = 0; i < h; i++)
        if (S[i] == e)
            return 1;
    return 0;
}

int sft_edge(const sf_field *f, const int *X, const int *Xp, int h, uint32_t u, uint32_t v)
{
    int q = f->q, qq = q * q;
    int s = (int)u / qq, a = ((int)u % qq) / q, b = (int)u % q;
    int t = (int)v / qq, c = ((int)v % qq) / q, d = (int)v % q;
    if (u == v)
        return 0;
    if (s == 0 && t == 0)
        return a == c && member(X, h, sf_sub(f, b, d));
    if (s == 1 && t == 1)
        return a == c && member(Xp, h, sf_sub(f, b, d));
    if (s == 0) /* (0,x,y) = (a,b), (1,m,c) = (c,d): y = m x + c */
        return b == sf_add(f, sf_mul(f, c, a), d);
    return d == sf_add(f, sf_mul(f, a, c), b);
}

int sft_bfs(const sf_mms *g, uint32_t src, int *dist)
{
    uint32_t n = g->nrouters, *queue = malloc(n * sizeof *queue), head = 0, tail = 0;
    for (uint32_t i = 0; i < n; i++)
        dist[i] = -1;
    dist[src] = 0;
    queue[tail++] = src;
    int far = 0;
    while (head < tail) {
        uint32_t u = queue[head++];
        for (int p = 0; p < g->radix; p++) {
            uint32_t v = sf_neighbor(g, u, p);
            if (dist[v] < 0) {
                dist[v] = dist[u] + 1;
                far = dist[v];
                queue[tail++] = v;
            }
        }
    }
    free(queue);
    return tail == n ? far : -1;
}

uint64_t sft_draw(uint64_t seed, uint64_t i)
{
    uint64_t z = seed * 0xD1B54A32D192ED03ull + i * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 32)) * 0xD6E8FEB86659FD93ull;
    z = (z ^ (z >> 32)) * 0xD6E8FEB86659FD93ull;
    return z ^ (z >> 32);
}
