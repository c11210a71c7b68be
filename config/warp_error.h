/* warp_error.h — the one way every Warpnet library and program stops on a
 * user's mistake or on exhausted memory: ONE line "PROGRAM: message" on
 * stderr and a documented exit code (docs/errors.md). Part of libwarp's
 * configuration layer, below the engine; warp.h includes it. The host
 * program names itself; the engine installs a stop that ends every MPI rank
 * when one of them fails. */
#ifndef WARP_ERROR_H
#define WARP_ERROR_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exit codes of every Warpnet program. */
enum warp_exit {
    WARP_EXIT_OK = 0,
    WARP_EXIT_INTERNAL = 1, /* an invariant broke (a bug), or a model's result is inconsistent */
    WARP_EXIT_USAGE = 2,    /* bad option, run file or input file */
    WARP_EXIT_RESOURCE = 3, /* out of memory, event memory or similar */
    WARP_EXIT_CHECK = 4,    /* --synch=check found a reverse-handler bug */
    WARP_EXIT_SIGNAL = 5,   /* interrupted */
    WARP_EXIT_CHECKPOINTED = 6, /* stopped after writing a checkpoint (signal or --checkpoint-exit) */
};

/* The name every error line starts with ("warpnet"); the host program sets
 * it, or warp_init takes argv[0]'s base name when none is set. NULL: no
 * prefix. The string must outlive the program's last error. */
void warp_set_program_name(const char *name);
const char *warp_program_name(void);

/* Prints "PROGRAM: message" as one line (control bytes shown as '?') and
 * stops with `code`; printf-style. The one fatal path of the project. */
void warp_fatal(int code, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
void warp_vfatal(int code, const char *fmt, va_list ap) __attribute__((noreturn, format(printf, 2, 0)));

/* How a fatal error leaves: writes line (len bytes, one '\n') and ends the
 * process with code; must not return. The engine installs one for MPI runs;
 * NULL restores the default (write to stderr, exit). */
typedef void (*warp_fatal_stop)(int code, const char *line, size_t len);
void warp_set_fatal_stop(warp_fatal_stop stop);

/* Formats "PROG: message\n" into line (at most cap bytes, cap >= 3) as
 * warp_fatal prints it; returns its length. prog may be NULL (no prefix).
 * warp_fatal sizes line to the whole message; a smaller cap cuts it. */
size_t warp_error_line(char *line, size_t cap, const char *prog, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

/* calloc / realloc / strdup that never return NULL: on exhaustion they stop
 * with WARP_EXIT_RESOURCE and a line naming the size. The project's one
 * out-of-memory wrapper for memory outside the engine's pools. */
void *warp_xcalloc(size_t n, size_t size);
void *warp_xrealloc(void *p, size_t bytes);
char *warp_xstrdup(const char *s);
/* vsnprintf into a string of exactly the length needed (never cut short);
 * the caller frees it. */
char *warp_xvformat(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#ifdef __cplusplus
}
#endif
#endif
