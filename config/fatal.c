/* config/fatal.c — the one fatal-error path (warp_error.h): formats the line
 * with the host program's name and hands it to the installed stop, or
 * writes it and exits. Invariant: whatever the message holds, the user sees
 * exactly one line. Called by every part of the project. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "warp_error.h"

static const char *program_name;
static warp_fatal_stop fatal_stop;

void warp_set_program_name(const char *name) { program_name = name; }
const char *warp_program_name(void) { return program_name; }
void warp_set_fatal_stop(warp_fatal_stop stop) { fatal_stop = stop; }

void warp_vfatal(int code, const char *fmt, va_list ap)
{
    /* Sized to the whole message (a path or a list of ranks can run past
     * any fixed buffer); the stack line only when malloc fails. */
    char small[1024];
    va_list aq;
    va_copy(aq, ap);
    int need = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    size_t cap = (program_name ? strlen(program_name) + 2 : 0) + (need > 0 ? (size_t)need : 0) + 2;
    char *line = cap > sizeof small ? malloc(cap) : NULL;
    if (!line) {
        line = small;
        cap = cap < sizeof small ? cap : sizeof small;
    }
    size_t len = warp_error_line(line, cap, program_name, fmt, ap);
    if (fatal_stop)
        fatal_stop(code, line, len);
    /* One write: a launcher forwards a line written in pieces in pieces. */
    ssize_t written = write(STDERR_FILENO, line, len);
    (void)written; /* nowhere left to report a closed stderr */
    exit(code);
}

void warp_fatal(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    warp_vfatal(code, fmt, ap);
}
