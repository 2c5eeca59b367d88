/* cli.h - the bcwalk command's subcommand table and shared helpers. */
#ifndef BCW_CLI_H
#define BCW_CLI_H

#include <stdbool.h>

/* Exit codes (README.md): success; bad usage or bad input, the user's
 * to fix; a command that started on good input but could not finish (a
 * worker not built, not started or not answering, out of memory, a
 * failed write).  1 is kept for a walk's findings (the test command of
 * docs' design). */
#define EXIT_OK 0
#define EXIT_FINDINGS 1 /* test: a failure, or something pending */
#define EXIT_USAGE 2
#define EXIT_UNFINISHED 3
/* the reader of stdout gone (`| head`): quiet, as a shell says of a
 * command SIGPIPE ended (128 + 13) */
#define EXIT_PIPE 141

typedef struct cli_cmd {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
} cli_cmd;

int cmd_analyze(int argc, char **argv);
int cmd_explore(int argc, char **argv);
int cmd_oracle(int argc, char **argv);
int cmd_test(int argc, char **argv);
int cmd_review(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_learn(int argc, char **argv);

/* A walk's command line as a results file recorded it ("explore" and
 * its options), parsed as bcwalk explore parses it: its options into
 * *o, its unit's name into *unit.  CLI_RUN, or EXIT_USAGE when it is
 * not one. */
struct bcw_explore_opts;
int cli_explore_args(struct bcw_explore_opts *o, const char **unit,
                     unsigned argc, const char *const *argv);

/* True when stdout's reader has gone (a pipe whose reader exited): a
 * report's write failing then is the reader's choice, said by no
 * message.  bcwalk ignores SIGPIPE, for its workers' pipes, so such a
 * write fails rather than ending it. */
bool cli_stdout_gone(void);

/* Prints "bcwalk: <message>" on stderr and returns EXIT_USAGE. */
int cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Asks a person `question` on stderr (what stdout printed first) and
 * reads one line of answer from stdin: its first character, '\n' for a
 * bare Enter, lower case; -1 at the end of the input. */
int cli_ask(const char *question);

#endif
