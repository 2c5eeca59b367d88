/* errors.c - the last-error record and broken-invariant aborts. */
#define _POSIX_C_SOURCE 200809L
#include "errors.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static _Thread_local char last_error[1024];

const char *bcw_error_last(void)
{
    return last_error;
}

int bcw__error(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return code;
}

void bcw__error_clear(void)
{
    last_error[0] = '\0';
}

void bcw__assert_fail(const char *expr, const char *file, int line)
{
    fprintf(stderr, "bcwalk: internal error: assertion %s failed at %s:%d\n",
            expr, file, line);
    abort();
}
