/* error.c — formatting of reader errors (see error.h). Keeps the message to one
 * line: any newline a caller's text carries becomes a space. */
#include <stdarg.h>
#include <stdio.h>

#include "replay/error.h"

int replay_errf(replay_err *e, const char *fmt, ...)
{
    if (!e)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    for (char *p = e->msg; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    return -1;
}
