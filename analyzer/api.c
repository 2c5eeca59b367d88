/* api.c - the functions a library's headers declare.  Each source file
 * defining external functions gets one header, the first of its stem
 * found in the usual places (stem.c's folder, include/ below it or beside
 * it, one folder down from those), read once with comments and literals
 * blanked; a function is named there when its name is a whole token. */
#define _POSIX_C_SOURCE 200809L
#include "api.h"

#include <glob.h>
#include <llvm-c/DebugInfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "bitcode.h"
#include "file.h"
#include "hash.h"

#define HEADER_LIMIT ((size_t)16 << 20)

/* One source file and the header that applies to it. */
typedef struct source {
    char *path;         /* the .c file, as debug info spells it */
    char *header;       /* its header's path, NULL when none applies */
    char *text;         /* the header's identifiers, each NUL-terminated */
    const char **names; /* into text, sorted */
    size_t nnames;
    bool applies; /* it names at least one of the source's functions */
    bool private_; /* its header is beside it while the library's public
                      headers are in a folder of their own */
} source;

struct bcw_api {
    source *srcs;
    size_t nsrcs, srcs_cap;
    LLVMValueRef *internal; /* the functions left out, and their */
    const char **by;        /* headers (borrowed from srcs) */
    char *public_dir;       /* a folder of public headers, or NULL */
    size_t ninternal, internal_cap, by_cap;
    char **consulted; /* "SUM PATH" of every header looked for */
    size_t nconsulted, consulted_cap;
};

void bcw__api_free(bcw_api *a)
{
    if (a == NULL)
        return;
    for (size_t i = 0; i < a->nsrcs; i++) {
        free(a->srcs[i].path);
        free(a->srcs[i].header);
        free(a->srcs[i].text);
        free(a->srcs[i].names);
    }
    free(a->srcs);
    free(a->internal);
    free(a->by);
    free(a->public_dir);
    for (size_t i = 0; i < a->nconsulted; i++)
        free(a->consulted[i]);
    free(a->consulted);
    free(a);
}

/* The path of the file fn is defined in, the caller's, in *out: NULL
 * without debug info.  0 or BCW_ENOMEM. */
static int source_path(LLVMValueRef fn, char **out)
{
    *out = NULL;
    LLVMMetadataRef sp = LLVMGetSubprogram(fn);
    LLVMMetadataRef file = sp ? LLVMDIScopeGetFile(sp) : NULL;
    unsigned flen = 0, dlen = 0;
    const char *name = file ? LLVMDIFileGetFilename(file, &flen) : NULL;
    const char *dir = file ? LLVMDIFileGetDirectory(file, &dlen) : NULL;
    if (name == NULL || flen == 0)
        return 0;
    if (name[0] == '/' || dir == NULL || dlen == 0)
        *out = bcw__sprintf("%.*s", (int)flen, name);
    else
        *out = bcw__sprintf("%.*s/%.*s", (int)dlen, dir, (int)flen, name);
    return *out ? 0 : BCW_ENOMEM;
}

/* Blanks comments, string and character literals of C text in place, so
 * that a name in them is not taken for a declaration. */
static void blank_non_code(char *t)
{
    for (char *p = t; *p;) {
        if (p[0] == '/' && p[1] == '*') {
            char *end = strstr(p + 2, "*/");
            char *stop = end ? end + 2 : p + strlen(p);
            memset(p, ' ', (size_t)(stop - p));
            p = stop;
        } else if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                *p++ = ' ';
        } else if (*p == '"' || *p == '\'') {
            char q = *p;
            *p++ = ' ';
            while (*p && *p != q && *p != '\n') {
                if (*p == '\\' && p[1])
                    *p++ = ' ';
                *p++ = ' ';
            }
            if (*p == q)
                *p++ = ' ';
        } else {
            p++;
        }
    }
}

static bool ident_char(char c)
{
    return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
           (c >= 'A' && c <= 'Z');
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The identifiers of s->text (comments and literals blanked), each
 * ended with a NUL in place, sorted into s->names.  0 or BCW_ENOMEM. */
static int read_names(source *s)
{
    size_t cap = 0;
    for (char *p = s->text; *p;) {
        if (!ident_char(*p)) {
            p++;
            continue;
        }
        char *start = p;
        while (ident_char(*p))
            p++;
        bool number = *start >= '0' && *start <= '9';
        bool end = *p == '\0';
        *p = '\0';
        if (!number) {
            if (bcw__grow(&s->names, &cap, s->nnames + 1, sizeof *s->names) < 0)
                return BCW_ENOMEM;
            s->names[s->nnames++] = start;
        }
        if (!end)
            p++;
    }
    if (s->nnames > 0)
        qsort(s->names, s->nnames, sizeof *s->names, by_name);
    return 0;
}

/* Does s's header name `name` (as a whole identifier)? */
static bool names(const source *s, const char *name)
{
    return s->nnames > 0 && bsearch(&name, s->names, s->nnames,
                                    sizeof *s->names, by_name) != NULL;
}

/* Notes that `path` was looked for, with the checksum of what it holds
 * (0: it does not exist).  0 or BCW_ENOMEM. */
static int consult(bcw_api *a, const char *path, bool exists)
{
    uint64_t sum = 0;
    if (exists && bcw__hash_file(&sum, path) == BCW_ENOMEM)
        return BCW_ENOMEM;
    if (bcw__grow(&a->consulted, &a->consulted_cap, a->nconsulted + 1,
                  sizeof *a->consulted) < 0)
        return BCW_ENOMEM;
    char *line = bcw__sprintf("%016llx %s", (unsigned long long)sum, path);
    if (line == NULL)
        return BCW_ENOMEM;
    a->consulted[a->nconsulted++] = line;
    return 0;
}

/* The first header of stem `stem` in folder `dir`'s usual places: its
 * path, the caller's, in *out (NULL when there is none).  Every place
 * looked at is consulted.  0 or BCW_ENOMEM. */
static int find_header(bcw_api *a, const char *dir, const char *stem,
                       char **out)
{
    *out = NULL;
    static const char *const places[] = {
        "%s/%s.h",           "%s/include/%s.h",      "%s/../include/%s.h",
        "%s/include/*/%s.h", "%s/../include/*/%s.h", "%s/*/%s.h"};
    for (size_t i = 0; i < sizeof places / sizeof *places; i++) {
        char *pattern = bcw__sprintf(places[i], dir, stem);
        if (pattern == NULL)
            return BCW_ENOMEM;
        glob_t g;
        int rc = glob(pattern, 0, NULL, &g);
        char *found =
            rc == 0 && g.gl_pathc > 0 ? bcw__strdup(g.gl_pathv[0]) : NULL;
        bool failed = rc == 0 && g.gl_pathc > 0 && found == NULL;
        if (rc == 0)
            globfree(&g);
        /* a pattern without '*' stands for itself when nothing is there */
        int err = failed ? BCW_ENOMEM
                         : consult(a, found ? found : pattern, found != NULL);
        free(pattern);
        if (err < 0 || found != NULL) {
            *out = found;
            return err;
        }
    }
    return 0;
}

/* The source entry of `path` (taken by it), added with its header when
 * new; NULL when out of memory. */
static source *source_of(bcw_api *a, char *path)
{
    for (size_t i = 0; i < a->nsrcs; i++)
        if (strcmp(a->srcs[i].path, path) == 0) {
            free(path);
            return &a->srcs[i];
        }
    if (bcw__grow(&a->srcs, &a->srcs_cap, a->nsrcs + 1, sizeof *a->srcs) < 0) {
        free(path);
        return NULL;
    }
    source *s = &a->srcs[a->nsrcs++];
    memset(s, 0, sizeof *s);
    s->path = path;
    size_t n = strlen(path);
    char *slash = strrchr(path, '/');
    if (n < 3 || strcmp(path + n - 2, ".c") != 0 || slash == NULL)
        return s; /* not a C source file: a header's own inline functions */
    char *dir = bcw__sprintf("%.*s", (int)(slash - path), path);
    char *stem =
        bcw__sprintf("%.*s", (int)(path + n - 2 - slash - 1), slash + 1);
    int err = dir && stem ? find_header(a, dir, stem, &s->header) : BCW_ENOMEM;
    free(dir);
    free(stem);
    size_t len;
    if (err == 0 && s->header &&
        (err = bcw__read_file(&s->text, &len, s->header, HEADER_LIMIT)) == 0) {
        blank_non_code(s->text);
        err = read_names(s);
    }
    /* a header that cannot be read applies to nothing */
    return err == BCW_ENOMEM ? NULL : s;
}

/* The source entry of the file fn is defined in, in *out (NULL without
 * debug info).  0 or BCW_ENOMEM. */
static int source_of_fn(bcw_api *a, LLVMValueRef fn, source **out)
{
    char *path;
    *out = NULL;
    if (source_path(fn, &path) < 0)
        return BCW_ENOMEM;
    if (path != NULL && (*out = source_of(a, path)) == NULL)
        return BCW_ENOMEM;
    return 0;
}

/* Does the header of another source than s name `name`: the library's
 * public header, cmark.h of cmark.c, declaring a function of node.c
 * that node.h, for the library's own files, leaves out?  A private
 * header does not count. */
static bool named_elsewhere(const bcw_api *a, const source *s,
                            const char *name)
{
    for (size_t i = 0; i < a->nsrcs; i++)
        if (&a->srcs[i] != s && a->srcs[i].text != NULL &&
            !a->srcs[i].private_ && names(&a->srcs[i], name))
            return true;
    return false;
}

/* The length of the folder part of path (up to its last '/'). */
static size_t dir_len(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash != NULL ? (size_t)(slash - path) : 0;
}

static bool same_dir(const char *a, const char *b)
{
    size_t n = dir_len(a);
    return n == dir_len(b) && strncmp(a, b, n) == 0;
}

/* The library keeps its public headers in a folder of their own
 * (yajl's src/api/, libyaml's include/) when a source's header was
 * found there, not beside it: then a header beside its source, in no
 * such folder, is the library's own (yajl_parser.h, yajl_buf.h), and
 * what only it declares is internal.  0 or BCW_ENOMEM. */
static int find_private(bcw_api *a)
{
    for (size_t i = 0; i < a->nsrcs && a->public_dir == NULL; i++) {
        const source *s = &a->srcs[i];
        if (s->applies && !same_dir(s->header, s->path) &&
            (a->public_dir = bcw__sprintf("%.*s", (int)dir_len(s->header),
                                          s->header)) == NULL)
            return BCW_ENOMEM;
    }
    for (size_t i = 0; a->public_dir != NULL && i < a->nsrcs; i++) {
        source *s = &a->srcs[i];
        bool public_there = false;
        for (size_t k = 0; s->applies && k < a->nsrcs; k++)
            public_there |= a->srcs[k].applies &&
                            !same_dir(a->srcs[k].header, a->srcs[k].path) &&
                            same_dir(a->srcs[k].header, s->header);
        s->private_ = s->applies && same_dir(s->header, s->path) &&
                      !public_there;
    }
    return 0;
}

int bcw__api_open(bcw_api **out, LLVMModuleRef mod)
{
    bcw_api *a = bcw__calloc(1, sizeof *a);
    *out = a;
    if (a == NULL)
        return BCW_ENOMEM;
    /* a header applies to its source when it names at least one of the
     * source's functions: one of the same stem but about something else
     * leaves every function API; one it leaves out is internal unless
     * another source's header names it */
    source *s;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && find_private(a) < 0)
            return BCW_ENOMEM;
        for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn;
             fn = LLVMGetNextFunction(fn)) {
            if (!bcw__external_definition(fn))
                continue;
            if (source_of_fn(a, fn, &s) < 0)
                return BCW_ENOMEM;
            if (s == NULL || s->text == NULL)
                continue;
            bool named = names(s, bcw__value_name(fn));
            if (pass == 0) {
                s->applies |= named;
                continue;
            }
            if (!s->applies || (named && !s->private_) ||
                named_elsewhere(a, s, bcw__value_name(fn)))
                continue;
            if (bcw__grow(&a->internal, &a->internal_cap, a->ninternal + 1,
                          sizeof *a->internal) < 0 ||
                bcw__grow(&a->by, &a->by_cap, a->ninternal + 1, sizeof *a->by) <
                    0)
                return BCW_ENOMEM;
            a->internal[a->ninternal] = fn;
            a->by[a->ninternal++] = s->header;
        }
    }
    return 0;
}

char *bcw__api_left_out(const bcw_api *a, LLVMValueRef fn, bool *left)
{
    *left = false;
    for (size_t i = 0; a != NULL && i < a->ninternal; i++) {
        if (a->internal[i] != fn)
            continue;
        *left = true;
        const char *h = a->by[i];
        bool priv = false;
        for (size_t k = 0; k < a->nsrcs; k++)
            priv |= a->srcs[k].private_ && a->srcs[k].header == h;
        return priv ? bcw__sprintf("is declared only in %s, a header beside "
                                   "its source, while the library's public "
                                   "headers are in %s: an internal function",
                                   h, a->public_dir)
                    : bcw__sprintf("is not declared in %s, the header beside "
                                   "its source: an internal function",
                                   h);
    }
    return NULL;
}

void bcw__api_record(bcw_api *a, bcw_model *m)
{
    m->headers = a->consulted;
    m->nheaders = (unsigned)a->nconsulted;
    a->consulted = NULL;
    a->nconsulted = a->consulted_cap = 0;
}

int bcw__api_current(const bcw_model *m)
{
    for (unsigned i = 0; i < m->nheaders; i++) {
        const char *line = m->headers[i];
        if (strlen(line) < 18 || line[16] != ' ')
            return 0;
        const char *path = line + 17;
        uint64_t sum = 0;
        if (access(path, F_OK) == 0 && bcw__hash_file(&sum, path) < 0)
            return 0;
        char want[17];
        snprintf(want, sizeof want, "%016llx", (unsigned long long)sum);
        if (memcmp(line, want, 16) != 0)
            return 0;
    }
    return 1;
}
