/* cli.c - what the subcommands share: their one-line failure and their
 * question to a person. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>

#include "cli.h"

int cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("bcwalk: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return EXIT_USAGE;
}

bool cli_stdout_gone(void)
{
    /* a pipe's write end polls POLLERR once no reader is left, a
     * socket's or a hung-up terminal's POLLHUP; a file neither */
    struct pollfd p = {.fd = 1, .events = POLLOUT};
    return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP)) != 0;
}

int cli_ask(const char *question)
{
    fflush(stdout);
    fputs(question, stderr);
    char line[64];
    if (fgets(line, sizeof line, stdin) == NULL) {
        fputc('\n', stderr);
        return -1;
    }
    return tolower((unsigned char)line[0]);
}
