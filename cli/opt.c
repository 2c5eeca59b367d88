/* opt.c - the option tables' machinery: parsing, --help, and the
 * library's messages told in the command's option names. */
#define _POSIX_C_SOURCE 200809L
#include "opt.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bcwalk/error.h"
#include "cli.h"

#define WIDTH 79    /* the longest line --help prints */
#define MAX_LEFT 24 /* an option's name column: longer ones wrap */

/* The number of options in s's table: at most the 64 cli_args.given
 * holds. */
static size_t count(const cli_spec *s)
{
    size_t n = 0;
    while (s->opts[n].kind != CLI_END)
        n++;
    if (n > 64) {
        fprintf(stderr, "%s:%d: %s has %zu options, at most 64\n", __FILE__,
                __LINE__, s->cmd, n);
        abort();
    }
    return n;
}

static const cli_opt *by_name(const cli_spec *s, const char *name, size_t n)
{
    for (const cli_opt *o = s->opts; o->kind != CLI_END; o++)
        if (strlen(o->name) == n && strncmp(o->name, name, n) == 0)
            return o;
    return NULL;
}

static const cli_opt *by_alias(const cli_spec *s, char c)
{
    for (const cli_opt *o = s->opts; o->kind != CLI_END; o++)
        if (o->alias != 0 && o->alias == c)
            return o;
    return NULL;
}

/* An option's words, `sep` between them, `last_sep` before the last:
 * "a, b or c", "a|b|c". */
static void list_words(char *buf, size_t n, const cli_word *w, const char *sep,
                       const char *last_sep)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; w[i].word != NULL && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s",
                                i == 0                  ? ""
                                : w[i + 1].word == NULL ? last_sep
                                                        : sep,
                                w[i].word);
}

/* A usage error of s's command, pointing to --help when `help`. */
static int usage_error(const cli_spec *s, bool help, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int usage_error(const cli_spec *s, bool help, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (help)
        return cli_fail("%s: %s (see bcwalk %s --help)", s->cmd, msg, s->cmd);
    return cli_fail("%s: %s", s->cmd, msg);
}

/* Checks `value` for o and stores it in target; EXIT_USAGE after saying
 * why not. */
static int store(const cli_spec *s, const cli_opt *o, void *target,
                 const char *value)
{
    char *at = (char *)target + o->at;
    switch (o->kind) {
    case CLI_FLAG: {
        int one = 1;
        memcpy(at, &one, sizeof one);
        return 0;
    }
    case CLI_INT: {
        char *end = NULL;
        long v = 0;
        errno = 0;
        /* digits only: strtol alone would take spaces and a sign */
        if (value[0] >= '0' && value[0] <= '9')
            v = strtol(value, &end, 10);
        if (end == NULL || *end != '\0' || errno != 0 || v < o->min ||
            v > o->max)
            return usage_error(s, false,
                               "--%s must be an integer from %ld to %ld, "
                               "not '%s'",
                               o->name, o->min, o->max, value);
        unsigned u = (unsigned)v;
        memcpy(at, &u, sizeof u);
        return 0;
    }
    case CLI_WORD: {
        for (const cli_word *w = o->words; w->word != NULL; w++)
            if (strcmp(w->word, value) == 0) {
                memcpy(at, &w->value, sizeof w->value);
                return 0;
            }
        char words[256];
        list_words(words, sizeof words, o->words, ", ", " or ");
        return usage_error(s, false, "unknown --%s '%s' (%s)", o->name, value,
                           words);
    }
    case CLI_FILE_IN:
        if (access(value, R_OK) != 0)
            return usage_error(s, false, "--%s %s: %s", o->name, value,
                               strerror(errno));
        break;
    case CLI_FILE_OUT: {
        if (value[0] == '\0')
            return usage_error(s, false, "--%s needs a file name, not ''",
                               o->name);
        /* bcwalk replaces files, by rename: never a device or a file
         * the user may not write */
        struct stat st;
        if (stat(value, &st) == 0 && !S_ISREG(st.st_mode))
            return usage_error(s, false,
                               "--%s %s: not a regular file (bcwalk "
                               "replaces only files)",
                               o->name, value);
        if (stat(value, &st) == 0 && access(value, W_OK) != 0)
            return usage_error(s, false, "--%s %s: %s", o->name, value,
                               strerror(errno));
        break;
    }
    case CLI_DIR_OUT: {
        struct stat st;
        if (value[0] == '\0')
            return usage_error(s, false, "--%s needs a folder, not ''",
                               o->name);
        if (stat(value, &st) == 0 && !S_ISDIR(st.st_mode))
            return usage_error(s, false, "--%s %s: not a folder", o->name,
                               value);
        break;
    }
    case CLI_TEXT:
        break;
    case CLI_END:
        abort();
    }
    memcpy(at, &value, sizeof value);
    return 0;
}

int cli_parse(cli_args *out, const cli_spec *s, void *target, int argc,
              char **argv)
{
    size_t nopts = count(s);
    int noperands = 0;
    bool options = true;
    *out = (cli_args){0};
    memcpy(target, s->defaults, s->size);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value = NULL;
        if (!options || arg[0] != '-' || arg[1] == '\0') {
            if (noperands == 0)
                out->operand = arg;
            else if (noperands <= 3)
                out->more[noperands - 1] = arg;
            noperands++;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            options = false;
            continue;
        }
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            cli_help(s, stdout);
            return EXIT_OK;
        }
        const cli_opt *o;
        if (arg[1] == '-') {
            size_t n = strcspn(arg + 2, "=");
            o = by_name(s, arg + 2, n);
            if (arg[2 + n] == '=')
                value = arg + 3 + n;
        } else {
            o = by_alias(s, arg[1]);
            if (arg[2] != '\0') /* -oFILE */
                value = arg + 2;
            if (o != NULL && o->kind == CLI_FLAG && value != NULL)
                o = NULL;
        }
        if (o == NULL)
            return usage_error(s, true, "unknown option '%s'", arg);
        if (o->kind == CLI_FLAG && value != NULL)
            return usage_error(s, true, "--%s takes no value, not '%s'",
                               o->name, value);
        if (o->kind != CLI_FLAG && value == NULL) {
            if (i + 1 == argc)
                return usage_error(s, true, "missing %s after %s", o->arg, arg);
            value = argv[++i];
        }
        if (store(s, o, target, value) != 0)
            return EXIT_USAGE;
        out->given |= UINT64_C(1) << (o - s->opts);
    }
    if (s->operand == NULL && noperands > 0)
        return usage_error(s, true, "unexpected '%s': it takes options only",
                           out->operand);
    unsigned want = s->operands > 0 ? s->operands : 1;
    unsigned least = s->min_operands > 0 ? s->min_operands : want;
    if (s->operand != NULL &&
        ((unsigned)noperands < least || (unsigned)noperands > want))
        return want == 1
                   ? usage_error(s, true, "expected one %s", s->operand_is)
               : least < want
                   ? usage_error(s, true, "expected %u to %u operands: %s",
                                 least, want, s->operand)
                   : usage_error(s, true, "expected %u operands: %s", want,
                                 s->operand);
    /* an output that is an input would destroy it */
    struct stat in, outst;
    const char *operands[4] = {out->operand, out->more[0], out->more[1],
                               out->more[2]};
    for (size_t k = 0; k < 4; k++)
        for (size_t i = 0;
             i < nopts && operands[k] != NULL && stat(operands[k], &in) == 0;
             i++) {
            const cli_opt *o = &s->opts[i];
            const char *path;
            if (o->kind != CLI_FILE_OUT || !(out->given >> i & 1))
                continue;
            memcpy(&path, (char *)target + o->at, sizeof path);
            if (stat(path, &outst) == 0 && outst.st_dev == in.st_dev &&
                outst.st_ino == in.st_ino)
                return usage_error(s, false,
                                   "--%s %s is the %s: it would be "
                                   "replaced",
                                   o->name, path, s->operand_is);
        }
    for (size_t i = 0; i < nopts; i++) {
        const cli_opt *o = &s->opts[i];
        if ((o->flags & CLI_REQUIRED) && !(out->given >> i & 1))
            return usage_error(s, false, "--%s %s is required: %s", o->name,
                               o->arg, o->help);
    }
    return CLI_RUN;
}

bool cli_given(const cli_args *a, const cli_spec *s, const char *name)
{
    const cli_opt *o = by_name(s, name, strlen(name));
    if (o == NULL) {
        fprintf(stderr, "%s:%d: %s has no option --%s\n", __FILE__, __LINE__,
                s->cmd, name);
        abort();
    }
    return a->given >> (o - s->opts) & 1;
}

int cli_fail_library(const cli_spec *s, const cli_args *a, int err)
{
    if (err == BCW_ERROR && cli_stdout_gone())
        return EXIT_PIPE;
    const char *msg = bcw_error_last();
    /* the user's to fix, or bcwalk's failure on good input */
    int code = err == BCW_EINPUT || err == BCW_ENOTFOUND ? EXIT_USAGE
                                                         : EXIT_UNFINISHED;
    for (size_t i = 0; s->opts[i].kind != CLI_END; i++) {
        const cli_opt *o = &s->opts[i];
        size_t n = o->setting != NULL ? strlen(o->setting) : 0;
        if (n > 0 && (a->given >> i & 1) && strncmp(msg, o->setting, n) == 0 &&
            (msg[n] == ':' || msg[n] == ' ')) {
            cli_fail("%s: --%s%s", s->cmd, o->name, msg + n);
            return code;
        }
    }
    cli_fail("%s", msg);
    return code;
}

/* --help's text, wrapped word by word at WIDTH. */
typedef struct out {
    FILE *f;
    int col;    /* columns printed on this line */
    int indent; /* where a wrapped line starts */
    bool fresh; /* nothing printed since the indent: no space before */
} out;

static void newline(out *o, int indent)
{
    fprintf(o->f, "\n%*s", indent, "");
    o->col = o->indent = indent;
    o->fresh = true;
}

/* Prints n bytes of w after a space, or on a new line where it would
 * pass WIDTH. */
static void word(out *o, const char *w, size_t n)
{
    if (!o->fresh && o->col + 1 + (int)n > WIDTH)
        newline(o, o->indent);
    if (!o->fresh) {
        fputc(' ', o->f);
        o->col++;
    }
    o->col += fprintf(o->f, "%.*s", (int)n, w);
    o->fresh = false;
}

static void words(out *o, const char *text)
{
    for (const char *p = text; *p != '\0';) {
        p += strspn(p, " ");
        size_t n = strcspn(p, " ");
        if (n > 0)
            word(o, p, n);
        p += n;
    }
}

/* The default --help shows for o: the defaults' value where the option
 * takes it, else o->dflt. */
static const char *default_of(const cli_spec *s, const cli_opt *o, char *buf,
                              size_t n)
{
    const char *at = (const char *)s->defaults + o->at;
    switch (o->kind) {
    case CLI_INT: {
        unsigned v;
        memcpy(&v, at, sizeof v);
        if (v >= o->min && v <= o->max) {
            snprintf(buf, n, "%u", v);
            return buf;
        }
        break;
    }
    case CLI_WORD: {
        int v;
        memcpy(&v, at, sizeof v);
        for (const cli_word *w = o->words; w->word != NULL; w++)
            if (w->value == v)
                return w->word;
        break;
    }
    case CLI_TEXT:
    case CLI_FILE_IN:
    case CLI_FILE_OUT:
    case CLI_DIR_OUT: {
        const char *v;
        memcpy(&v, at, sizeof v);
        if (v != NULL)
            return v;
        break;
    }
    case CLI_FLAG:
    case CLI_END:
        break;
    }
    return o->dflt;
}

/* "-o, --output FILE" or "--depth K". */
static int left_column(char *buf, size_t n, const cli_opt *o)
{
    char alias[8] = "";
    if (o->alias != 0)
        snprintf(alias, sizeof alias, "-%c, ", o->alias);
    return snprintf(buf, n, "  %s--%s%s%s", alias, o->name,
                    o->kind == CLI_FLAG ? "" : " ",
                    o->kind == CLI_FLAG ? "" : o->arg);
}

/* One option's entry: its names, its help with the range, the words and
 * the default, then a line per word that has help. */
static void help_entry(out *w, const cli_spec *s, const cli_opt *o, int col)
{
    char left[128], dflt[32], list[256], more[320] = "";
    int n = left_column(left, sizeof left, o);
    fputs(left, w->f);
    if (n + 2 > col)
        newline(w, col);
    else
        fprintf(w->f, "%*s", col - n, "");
    w->col = w->indent = col;
    w->fresh = true;
    words(w, o->help);
    const char *d = default_of(s, o, dflt, sizeof dflt);
    bool listed = o->kind == CLI_WORD && o->words[0].help != NULL;
    if (o->kind == CLI_INT && d != NULL)
        snprintf(more, sizeof more, "(%ld to %ld, default %s)", o->min, o->max,
                 d);
    else if (o->kind == CLI_INT)
        snprintf(more, sizeof more, "(%ld to %ld)", o->min, o->max);
    else if (listed && d != NULL)
        snprintf(more, sizeof more, "(default %s):", d);
    else if (o->kind == CLI_WORD && !listed) {
        list_words(list, sizeof list, o->words, ", ", " or ");
        snprintf(more, sizeof more, "(%s%s%s)", list, d ? "; default " : "",
                 d ? d : "");
    } else if (d != NULL)
        snprintf(more, sizeof more, "(default: %s)", d);
    words(w, more);
    if (!listed)
        return;
    if (d == NULL) /* the words follow */
        w->col += fprintf(w->f, ":");
    int wide = 0;
    for (const cli_word *x = o->words; x->word != NULL; x++)
        if ((int)strlen(x->word) > wide)
            wide = (int)strlen(x->word);
    for (const cli_word *x = o->words; x->word != NULL; x++) {
        newline(w, col + 2);
        w->col += fprintf(w->f, "%-*s  ", wide, x->word);
        w->indent = w->col;
        w->fresh = true;
        words(w, x->help);
    }
}

/* The usage line: the operand, then every option, optional ones in
 * brackets, a word option with its words. */
static void usage(out *w, const cli_spec *s)
{
    w->col = fprintf(w->f, "usage: bcwalk %s", s->cmd);
    w->indent = w->col + 1;
    w->fresh = false;
    if (s->operand != NULL)
        word(w, s->operand, strlen(s->operand));
    for (const cli_opt *o = s->opts; o->kind != CLI_END; o++) {
        char name[64], arg[256] = "", tok[320];
        if (o->alias != 0)
            snprintf(name, sizeof name, "-%c", o->alias);
        else
            snprintf(name, sizeof name, "--%s", o->name);
        if (o->kind == CLI_WORD)
            list_words(arg, sizeof arg, o->words, "|", "|");
        else if (o->kind != CLI_FLAG)
            snprintf(arg, sizeof arg, "%s", o->arg);
        int n = snprintf(tok, sizeof tok,
                         o->flags & CLI_REQUIRED ? "%s%s%s" : "[%s%s%s]", name,
                         arg[0] ? " " : "", arg);
        word(w, tok, (size_t)n);
    }
    fputc('\n', w->f);
}

void cli_help(const cli_spec *s, FILE *f)
{
    out w = {.f = f};
    usage(&w, s);
    fprintf(f, "\n%s\noptions:\n", s->about);
    /* the help column: after the longest name, up to MAX_LEFT */
    int col = 0;
    char left[128];
    for (const cli_opt *o = s->opts; o->kind != CLI_END; o++) {
        int n = left_column(left, sizeof left, o) + 2;
        if (n > col && n <= MAX_LEFT)
            col = n;
    }
    for (const cli_opt *o = s->opts; o->kind != CLI_END; o++) {
        help_entry(&w, s, o, col);
        fputc('\n', f);
    }
    fprintf(f, "  -h, --help%*sshow this help\n\n%s", col > 14 ? col - 12 : 2,
            "", s->after);
}
