/* error.h — user-facing errors of the trace readers: one line "PLACE: what is
 * wrong; what to do". Readers fill a replay_err and return -1; programs print
 * it after "warpnet: " and exit 2, tests compare it. */
#ifndef REPLAY_ERROR_H
#define REPLAY_ERROR_H

typedef struct replay_err {
    char msg[512];
} replay_err;

/* Formats msg into e (if e is non-NULL); always returns -1 so readers can
 * write `return replay_errf(err, ...)`. */
int replay_errf(replay_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
