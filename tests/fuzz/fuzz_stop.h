/* tests/fuzz/fuzz_stop.h — lets a harness call a reader whose errors stop
 * the program through warp_fatal (the network file readers). The reader runs
 * with a fatal stop that checks the line and longjmps back; what the reader
 * held at that moment (its memory, its open files) is released, so one
 * process runs millions of inputs with leak detection on. Link with
 * FUZZ_STOP_WRAP (tests/fuzz/local.mk): the reader's malloc family, fopen,
 * fclose and getline go through fuzz_stop.c, which tracks them while a
 * reader runs. */
#ifndef FUZZ_STOP_H
#define FUZZ_STOP_H

#include <stddef.h>
#include <stdint.h>

/* Writes data to a private temporary file (the same one for every input,
 * removed at exit) and returns its path. */
const char *fuzz_stop_file(const uint8_t *data, size_t size);

/* Runs fn(arg); returns 0 when it returned, 1 when it stopped through
 * warp_fatal with exit code 2 and one line "warpnet: PATH:LINE: what; fix"
 * or "warpnet: PATH: what; fix" (path as given). Any other stop aborts, as
 * does a reader that returns with a file still open. With FUZZ_STOP_SHOW
 * set in the environment, the line is printed to stderr. */
int fuzz_stop_run(const char *path, void (*fn)(void *), void *arg);

#endif
