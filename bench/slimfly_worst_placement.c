/* bench/slimfly_worst_placement.c — writes a [network] placement file that
 * turns the traffic workload's `neighbor` pattern with distance = nodes/2
 * into the Slim Fly worst case (sf_traffic.h): ranks r and r + nodes/2 sit on
 * terminals of the same index on paired routers, so each rank sends to, and
 * receives from, its worst-case partner.
 * Usage: slimfly_worst_placement Q P > worst.txt   (one terminal per line)
 * Called by bench/slimfly.sh and tests/slimfly/test_slimfly_run.sh. */
#include <stdio.h>
#include <stdlib.h>

#include "slimfly/sf_mms.h"
#include "slimfly/sf_traffic.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s Q P > placement.txt\n", argv[0]);
        return 2;
    }
    int q = atoi(argv[1]), p = atoi(argv[2]);
    sf_mms g;
    char err[300];
    if (p < 1 || sf_mms_build(&g, q, NULL, 0, NULL, 0, err, sizeof err) != 0) {
        fprintf(stderr, "warpnet: slimfly_worst_placement: %s\n",
                p < 1 ? "P must be at least 1" : err);
        return 2;
    }
    uint32_t *partner = malloc(g.nrouters * sizeof *partner);
    if (!partner) {
        fprintf(stderr, "warpnet: slimfly_worst_placement: out of memory\n");
        return 3;
    }
    sf_worst_case_pairs(&g, partner);
    /* Ranks 0 .. N/2-1: the lower terminal of each pair, in order; ranks
     * N/2 .. N-1: their partners, in the same order. */
    for (int half = 0; half < 2; half++)
        for (uint32_t r = 0; r < g.nrouters; r++)
            if (r < partner[r])
                for (int t = 0; t < p; t++)
                    printf("%llu\n",
                           (unsigned long long)(half ? partner[r] : r) * (unsigned long long)p +
                               (unsigned long long)t);
    free(partner);
    sf_mms_free(&g);
    return ferror(stdout) ? 3 : 0;
}
