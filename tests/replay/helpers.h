/* helpers.h — shared helpers of the replay unit tests: temporary files, loading
 * every rank of a source, and field-by-field graph comparison. */
#ifndef TESTS_REPLAY_HELPERS_H
#define TESTS_REPLAY_HELPERS_H

#include <stdint.h>

#include "replay/critpath.h"
#include "replay/readers/readers.h"

/* Writes text to a fresh temporary file with the given suffix; returns its
 * path (static storage per call slot; free with free()). */
char *th_write_temp(const char *suffix, const char *text);

/* A fresh temporary directory (mkdtemp); caller frees the string. */
char *th_temp_dir(void);

/* Opens path (format NULL guesses); fails the test with the reader's error. */
replay_source *th_open(const char *path, const char *format);

/* Opens and expects failure; returns the error message (static buffer). */
const char *th_open_error(const char *path, const char *format);

/* Loads every rank; fails the test on error. Free with th_free_all. */
replay_rank *th_load_all(replay_source *s);
void th_free_all(replay_rank *r, int32_t n);

/* Loads every rank; returns 0, or -1 with err filled (ranks freed). */
int th_try_load_all(replay_source *s, replay_err *err);

/* 1 when a and b are the same graph, field for field. */
int th_same_graph(const replay_rank *a, const replay_rank *b);

/* Critical path and ideal replay of all ranks of s. */
void th_timing(replay_source *s, replay_timing *cp, replay_timing *fifo);

/* The directory of the sample traces, or NULL when absent. */
const char *th_traces_dir(void);

/* Path of rel inside the source tree ($top_srcdir, else "."), malloc'd. */
char *th_src(const char *rel);

/* Path of sample rel inside the sample traces (malloc'd); skips the test
 * with a message when the samples are absent. */
char *th_sample(const char *rel);

#endif
