/* opt.h - one option table per subcommand: the parser, --help and the
 * defaults --help shows all come from it. */
#ifndef BCW_CLI_OPT_H
#define BCW_CLI_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What an option's argument is, so how it is checked and what it stores
 * in the command's argument struct. */
enum cli_opt_kind {
    CLI_END,      /* ends a table */
    CLI_FLAG,     /* no argument: stores 1 in an int */
    CLI_INT,      /* an integer from min to max: stores an unsigned */
    CLI_WORD,     /* one of words[]: stores its value in an int or enum */
    CLI_TEXT,     /* any text: stores argv's string */
    CLI_FILE_IN,  /* a file bcwalk reads: must be readable; stores the path */
    CLI_FILE_OUT, /* a file bcwalk writes: a non-empty path; stores it */
    CLI_DIR_OUT,  /* a folder bcwalk writes files in: a non-empty path, a
                     folder if it exists; stores it */
};

/* One word a CLI_WORD option takes.  A list ends with {.word = NULL}. */
typedef struct cli_word {
    const char *word;
    int value;        /* what it stores */
    const char *help; /* a line in --help, or NULL: only the word shows */
} cli_word;

/* The words of --format (text, json, jsonl): explore's, and report's
 * and merge's (cmd_explore.c). */
extern const cli_word cli_formats[];
/* The words of --walk (protocol, algebra, state, learned), explore's;
 * report and merge name a results file's walk with them. */
extern const cli_word cli_walks[];

#define CLI_REQUIRED 1u /* the command does not run without it */

/* One option.  Fill it with designated initializers, the stored field
 * with one of the CLI_<KIND> macros below. */
typedef struct cli_opt {
    enum cli_opt_kind kind;
    const char *name;      /* the long name, without "--" */
    char alias;            /* the one-letter name, or 0 */
    const char *arg;       /* the argument's name in --help ("K", "FILE") */
    size_t at;             /* where the value goes: offset in the target */
    long min, max;         /* CLI_INT: the range */
    const cli_word *words; /* CLI_WORD: the words it takes */
    const char *help;      /* one paragraph; --help wraps it and adds the
                              range, the words and the default */
    const char *dflt;      /* the default --help shows when the target's
                              initial value is not one the option takes
                              (the library picks it), or NULL */
    const char *setting;   /* how the library's messages name this setting
                              when they begin with it ("buffer permutation
                              seed"), or NULL */
    unsigned flags;        /* CLI_REQUIRED */
} cli_opt;

/* The offset of `field` in `type`, which must have the size of `ctype`,
 * the type the option's kind stores: a compile error otherwise. */
#define CLI_AT(type, field, ctype)                                             \
    (offsetof(type, field) +                                                   \
     0 * sizeof(char[sizeof(((type *)0)->field) == sizeof(ctype) ? 1 : -1]))

#define CLI_FLAG(type, field) .kind = CLI_FLAG, .at = CLI_AT(type, field, int)
#define CLI_INT(type, field, lo, hi)                                           \
    .kind = CLI_INT, .at = CLI_AT(type, field, unsigned), .min = (lo),         \
    .max = (hi)
#define CLI_WORD(type, field, list)                                            \
    .kind = CLI_WORD, .at = CLI_AT(type, field, int), .words = (list)
#define CLI_TEXT(type, field)                                                  \
    .kind = CLI_TEXT, .at = CLI_AT(type, field, const char *)
#define CLI_FILE_IN(type, field)                                               \
    .kind = CLI_FILE_IN, .at = CLI_AT(type, field, const char *)
#define CLI_FILE_OUT(type, field)                                              \
    .kind = CLI_FILE_OUT, .at = CLI_AT(type, field, const char *)
#define CLI_DIR_OUT(type, field)                                               \
    .kind = CLI_DIR_OUT, .at = CLI_AT(type, field, const char *)

/* A subcommand's command line: its one operand and its options, the
 * target struct's defaults, and the hand-written parts of --help. */
typedef struct cli_spec {
    const char *cmd;        /* "explore" */
    const char *operand;    /* the one operand's name in usage: "LIB.bc";
                               NULL: the command takes none */
    const char *operand_is; /* what it is, for the error: "bitcode file" */
    unsigned operands;      /* how many it takes (0: one); usage shows
                               `operand` for them all: "TESTS.bc LIB.bc" */
    unsigned min_operands;  /* the fewest it takes (0: `operands`) */
    const char *about;      /* what the command does, after the usage line */
    const char *after;      /* after the options: notes, worked examples */
    const cli_opt *opts;    /* the table, ended by {.kind = CLI_END} */
    const void *defaults;   /* the target before the command line */
    size_t size;            /* the target's size */
} cli_spec;

/* What the parse found besides the values it stored. */
typedef struct cli_args {
    const char *operand; /* the operand, borrowed from argv */
    const char *more[3]; /* spec.operands > 1: the next ones */
    uint64_t given;      /* bit i: opts[i] was on the command line */
} cli_args;

/* cli_parse's answer when the command should go on and run. */
#define CLI_RUN (-1)

/* Parses argv (argv[0] is the subcommand's name) into `target`, first set
 * to s->defaults, then each option's value checked on its own and stored
 * as it comes; a repeated option's last value wins.  Takes --name VALUE,
 * --name=VALUE, -a VALUE, -aVALUE, -h/--help, and "--" before operands.
 * Returns CLI_RUN with *out filled; EXIT_OK after printing --help on
 * stdout; EXIT_USAGE after printing a usage error on stderr (the target
 * then holds what was parsed so far).  Stored strings are argv's. */
int cli_parse(cli_args *out, const cli_spec *s, void *target, int argc,
              char **argv);

/* Whether the option named `name` was on the command line.  Aborts when
 * s has no such option: a typo in the caller. */
bool cli_given(const cli_args *a, const cli_spec *s, const char *name);

/* Prints s's --help on f: usage, about, the options, then s->after. */
void cli_help(const cli_spec *s, FILE *f);

/* Prints the library's last error (bcw_error_last()) as the command's
 * error, naming the option it is about: a message that begins with the
 * setting of a given option has the setting replaced by the option's
 * name.  Returns the exit code of the library's error `err`: EXIT_USAGE
 * for bad input (BCW_EINPUT, BCW_ENOTFOUND), else EXIT_UNFINISHED; a
 * failure while stdout's reader is gone is EXIT_PIPE, printed not. */
int cli_fail_library(const cli_spec *s, const cli_args *a, int err);

#endif
