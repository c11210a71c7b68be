/* tests/fuzz/regress_main.c — runs a fuzz harness without libFuzzer: each
 * file named on the command line goes once through LLVMFuzzerTestOneInput.
 * Linked with every harness by make check (test_fuzz_regress.sh), so the
 * inputs fuzzing found (tests/fuzz/regress/) and the seeds are replayed by
 * the normal compiler and, in the sanitizer build, under ASan + UBSan. A
 * harness check that fails aborts, after the file's name was printed.
 * Inputs that once made a reader allocate gigabytes must fail here too: the
 * address space is capped at 2 GiB (under ASan, which reserves terabytes of
 * shadow, test_fuzz_regress.sh sets max_allocation_size_mb instead). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
#ifndef UNDER_ASAN
    struct rlimit as = {.rlim_cur = 2UL << 30, .rlim_max = 2UL << 30};
    if (setrlimit(RLIMIT_AS, &as) != 0)
        perror("setrlimit");
#endif
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 2;
        }
        size_t n = 0, cap = 4096;
        uint8_t *buf = malloc(cap);
        for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
            n += got;
            if (n == cap)
                buf = realloc(buf, cap *= 2);
        }
        fclose(f);
        if (!buf) {
            fprintf(stderr, "%s: out of memory\n", argv[i]);
            return 3;
        }
        printf("input %s (%zu bytes)\n", argv[i], n);
        fflush(stdout);
        LLVMFuzzerTestOneInput(buf, n);
        free(buf);
    }
    printf("%d inputs passed\n", argc - 1);
    return 0;
}
