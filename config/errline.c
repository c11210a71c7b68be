/* config/errline.c — the text of a user-facing fatal error: "PROG: message\n"
 * on exactly one line, whatever the message quotes. Option values and names
 * come from the user and may hold newlines or terminal escapes; they are
 * shown as '?'. Called by warp_fatal (fatal.c) and the option fuzz harness. */
#include <stdio.h>

#include "warp_error.h"

size_t warp_error_line(char *line, size_t cap, const char *prog, const char *fmt, va_list ap)
{
    int n = prog ? snprintf(line, cap, "%s: ", prog) : 0;
    if (n < 0)
        n = 0;
    if ((size_t)n > cap - 2)
        n = (int)(cap - 2);
    int m = vsnprintf(line + n, cap - (size_t)n, fmt, ap);
    size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m);
    if (len > cap - 2)
        len = cap - 2;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            line[i] = '?';
    }
    line[len++] = '\n';
    line[len] = '\0';
    return len;
}
