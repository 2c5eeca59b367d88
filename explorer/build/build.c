/* build.c - builds and caches worker executables (build.h).  A build
 * happens in a private temporary folder that is renamed into place, so a
 * concurrent or killed build never leaves a half-written worker; a
 * checksum tells a whole entry from a damaged one, which is rebuilt. */
#define _GNU_SOURCE
#include "build.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc.h"
#include "bcwalk/explore.h"
#include "bcwalk/version.h"
#include "file.h"
#include "hash.h"
#include "native.h"

extern char **environ;

#define BUILDING "building its native code"

int bcw__build_clang(const char *const argv[], const char *log)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 2, log, O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int rc =
        posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return bcw__error(BCW_ERROR, "cannot run %s: %s", argv[0],
                          strerror(rc));
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return bcw__error(BCW_ERROR, "waitpid: %s", strerror(errno));
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

#define MAX_UNDEFINED 8 /* symbols named, then "..." */

/* Adds the symbol of a linker's "undefined reference to `sym'" line to
 * the comma-separated list in b, once; *n counts them. */
static void add_undefined(bcw_buf *b, unsigned *n_named, const char *line)
{
    const char *at = strstr(line, "undefined reference to `");
    if (at == NULL)
        return;
    at += strlen("undefined reference to `");
    size_t n = strcspn(at, "'\n");
    char name[256];
    if (n == 0 || n >= sizeof name)
        return;
    memcpy(name, at, n);
    name[n] = '\0';
    const char *p = b->data != NULL ? b->data : "";
    for (const char *q = strstr(p, name); q != NULL; q = strstr(q + 1, name))
        if ((q == p || q[-1] == ' ') && (q[n] == ',' || q[n] == '\0'))
            return;
    if (++*n_named <= MAX_UNDEFINED)
        bcw__buf_printf(b, "%s%s", b->len > 0 ? ", " : "", name);
    else if (*n_named == MAX_UNDEFINED + 1)
        bcw__buf_printf(b, ", ...");
}

/* Did the clang whose stderr is `log` crash: then into buf (n bytes)
 * "clang crashed", and the pass it crashed in, from its stack dump. */
static bool crashed(const char *log, char *buf, size_t n)
{
    char line[512];
    bool crash = false;
    char pass[128] = "";
    FILE *f = fopen(log, "re");
    if (f == NULL)
        return false;
    while (fgets(line, sizeof line, f) != NULL) {
        crash |= strstr(line, "Stack dump:") != NULL;
        const char *p = strstr(line, "llvm::"), *end;
        if (pass[0] == '\0' && p != NULL &&
            (end = strstr(p, "Pass::run(")) != NULL &&
            (size_t)(end - p) < sizeof pass - 10)
            snprintf(pass, sizeof pass, "%.*sPass", (int)(end - p - 6), p + 6);
    }
    fclose(f);
    if (crash)
        snprintf(buf, n, "clang crashed%s%s", pass[0] ? " in " : "", pass);
    return crash;
}

/* Does a line of the file `log` contain `text`? */
static bool log_mentions(const char *log, const char *text)
{
    char line[512];
    bool found = false;
    FILE *f = fopen(log, "re");
    while (f != NULL && !found && fgets(line, sizeof line, f) != NULL)
        found = strstr(line, text) != NULL;
    if (f != NULL)
        fclose(f);
    return found;
}

int bcw__build_failed(const char *file, const char *doing, const char *log)
{
    return bcw__build_failed_hint(file, doing,
                                  "give the files defining them with --link "
                                  "A.bc,B.bc, or link the library's files "
                                  "into one with llvm-link",
                                  log);
}

int bcw__build_failed_hint(const char *file, const char *doing,
                           const char *hint, const char *log)
{
    char line[512] = "", first[512] = "";
    bcw_buf undefined;
    bcw__buf_init(&undefined, 4096);
    unsigned named = 0;
    FILE *f = fopen(log, "re");
    if (f != NULL) {
        while (fgets(line, sizeof line, f) != NULL) {
            if (first[0] == '\0' && strstr(line, "error") != NULL)
                memcpy(first, line, sizeof first);
            add_undefined(&undefined, &named, line);
        }
        fclose(f);
    }
    first[strcspn(first, "\n")] = '\0';
    crashed(log, first, sizeof first);
    int err =
        undefined.len > 0
            ? bcw__error(BCW_EINPUT,
                         "%s: %s failed: functions it calls are defined in no "
                         "file of it: %s (%s; full log: %s)",
                         file, doing, undefined.data, hint, log)
            : bcw__error(BCW_ERROR, "%s: %s failed: %s (full log: %s)", file,
                         doing, first[0] ? first : "clang failed", log);
    bcw__buf_free(&undefined);
    return err;
}

/* The note of a cached build made without optimisation into *note:
 * `dir`/note's text, or NULL when there is none.  0 or BCW_ENOMEM. */
static int read_note(const char *dir, char **note)
{
    char *path = bcw__sprintf("%s/note", dir);
    size_t len = 0;
    if (path == NULL)
        return BCW_ENOMEM;
    int err =
        access(path, R_OK) == 0 ? bcw__read_file(note, &len, path, 4096) : 0;
    free(path);
    if (err < 0 && err != BCW_ENOMEM) {
        bcw__error_clear(); /* an unreadable note is no note */
        err = 0;
    }
    return err;
}

/* Adds `text` to the build's note: *note, and the file `path` that
 * keeps it for every later use of the build.  0 or a negative error. */
static int add_note(char **note, const char *path, const char *text)
{
    char *all = *note ? bcw__sprintf("%s; %s", *note, text) : bcw__strdup(text);
    if (all == NULL)
        return BCW_ENOMEM;
    int err = bcw__write_file_atomic(path, all, strlen(all));
    if (err < 0) {
        free(all);
        return err;
    }
    free(*note);
    *note = all;
    return 0;
}

/* Is the cache entry in `dir` whole: an executable worker whose bytes
 * and note (and coverage map, with `cover`) match the checksum file
 * written with them?  A truncated or changed worker or note, a missing
 * file, or an entry of a bcwalk that wrote none is not.  1 or 0, or
 * BCW_ENOMEM. */
static int entry_whole(const char *dir, bool cover)
{
    char *worker = bcw__sprintf("%s/worker", dir);
    char *note = bcw__sprintf("%s/note", dir);
    char *map = bcw__sprintf("%s/coverage", dir);
    char *sum = bcw__sprintf("%s/checksum", dir);
    int whole = worker != NULL && note != NULL && map != NULL && sum != NULL
                    ? 0
                    : BCW_ENOMEM;
    if (whole == 0 && access(worker, X_OK) == 0)
        whole = bcw__sum_check(sum, (const char *[]){worker, note, map},
                               cover ? 3 : 2);
    free(worker);
    free(note);
    free(map);
    free(sum);
    return whole;
}

/* Removes folder `dir` and the files in it (or `dir`, a file). */
static void remove_entry(const char *dir)
{
    if (unlink(dir) == 0)
        return;
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            unlinkat(dirfd(d), e->d_name, 0);
    closedir(d);
    rmdir(dir);
}

/* Puts the entry built in `tmpdir` in the place of the damaged one in
 * `dir`: exchanged in one step, so that a concurrent bcwalk starting
 * workers from `dir` always finds one there, which leaves the damaged
 * entry in `tmpdir`; on a file system that cannot exchange (NFS) it is
 * removed first.  0 or BCW_ERROR. */
static int replace_entry(const char *tmpdir, const char *dir)
{
    if (renameat2(AT_FDCWD, tmpdir, AT_FDCWD, dir, RENAME_EXCHANGE) == 0)
        return 0;
    if (errno == EINVAL) {
        remove_entry(dir);
        if (rename(tmpdir, dir) == 0)
            return 0;
    }
    return bcw__error(BCW_ERROR, "rename %s to %s: %s", tmpdir, dir,
                      strerror(errno));
}

/* One worker build: what it is built from, its cache entry, and the
 * paths of the build in a temporary folder beside the entry.  Every
 * string is its own. */
typedef struct wbuild {
    const bcw_model *model;
    const char *bitcode;
    const bcw_build_opts *o;
    bcw_cov_map *cov; /* or NULL: no coverage flags */
    char **note;      /* the caller's */
    char *runtime;
    uint64_t key;
    char *root, *dir, *worker;                              /* the entry */
    char *tmpdir, *unit, *log, *built, *notes, *map, *sums; /* the build */
} wbuild;

/* The runtime the worker links, and the entry's key: everything the
 * worker is made of. */
static int build_key(wbuild *b)
{
    int err = bcw__install_path(&b->runtime, BCW_RUNTIME_REL);
    if (err < 0)
        return err;
    const char *setup = b->o->setup;
    uint64_t key = bcw__hash(BCW_CLANG, sizeof BCW_CLANG, 0);
    key = bcw__hash(bcw_version(), strlen(bcw_version()), key);
    /* the name with its NUL: no setup ("") and one differ */
    key = bcw__hash(setup ? setup : "", setup ? strlen(setup) + 1 : 0, key);
    key = bcw__hash(&b->o->sanitize, sizeof b->o->sanitize, key);
    bool cover = b->cov != NULL;
    key = bcw__hash(&cover, sizeof cover, key);
    /* the symbol table the plan indexes: another model's (--reference)
     * is another build of the same bitcode */
    for (unsigned i = 0; i < b->model->nsyms; i++)
        key = bcw__hash(b->model->syms[i], strlen(b->model->syms[i]) + 1, key);
    /* and the signatures the build checks the bitcode's against: another
     * model's may differ (native.c's same_signature) */
    for (unsigned u = 0; u < b->model->nunits; u++)
        for (unsigned j = 0; j < b->model->units[u].nfuncs; j++) {
            const bcw_func *f = &b->model->units[u].funcs[j];
            uint8_t sig[BCW_MAX_PARAMS + 2] = {(uint8_t)f->ret.abi,
                                               (uint8_t)f->nparams};
            for (unsigned k = 0; k < f->nparams && k < BCW_MAX_PARAMS; k++)
                sig[k + 2] = (uint8_t)f->params[k].abi;
            key = bcw__hash(&f->sym, sizeof f->sym, key);
            key = bcw__hash(sig, sizeof sig, key);
        }
    err = bcw__hash_file(&key, b->bitcode);
    if (err == 0)
        err = bcw__hash_file(&key, b->runtime);
    /* the instrumentation is part of the build: a new bcwalk rebuilds */
    if (err == 0)
        err = bcw__hash_file(&key, "/proc/self/exe");
    b->key = key;
    return err;
}

/* The entry's folder and worker. */
static int entry_paths(wbuild *b)
{
    b->root = bcw__cache_root(b->o->cache_dir);
    if (b->root == NULL ||
        (b->dir = bcw__sprintf("%s/%016llx", b->root,
                               (unsigned long long)b->key)) == NULL ||
        (b->worker = bcw__sprintf("%s/worker", b->dir)) == NULL)
        return BCW_ENOMEM;
    return 0;
}

/* 1 when the entry is whole: its note and coverage map read; 0 when it
 * is to be built; or an error. */
static int cached(wbuild *b)
{
    int whole = entry_whole(b->dir, b->cov != NULL);
    if (whole <= 0)
        return whole;
    int err = read_note(b->dir, b->note);
    if (err == 0 && b->cov != NULL) {
        if ((b->map = bcw__sprintf("%s/coverage", b->dir)) == NULL)
            err = BCW_ENOMEM;
        else
            err = bcw__cov_map_load(b->cov, b->map);
    }
    return err < 0 ? err : 1;
}

/* The temporary folder the build happens in, and its files' paths. */
static int build_paths(wbuild *b)
{
    int err = bcw__mkdir_p(b->root);
    if (err < 0)
        return err;
    b->tmpdir = bcw__sprintf("%s/tmp.%016llx.%ld", b->root,
                             (unsigned long long)b->key, (long)getpid());
    if (b->tmpdir == NULL ||
        (b->unit = bcw__sprintf("%s/unit.bc", b->tmpdir)) == NULL ||
        (b->log = bcw__sprintf("%s/clang.log", b->tmpdir)) == NULL ||
        (b->built = bcw__sprintf("%s/worker", b->tmpdir)) == NULL ||
        (b->notes = bcw__sprintf("%s/note", b->tmpdir)) == NULL ||
        (b->map = bcw__sprintf("%s/coverage", b->tmpdir)) == NULL ||
        (b->sums = bcw__sprintf("%s/checksum", b->tmpdir)) == NULL)
        return BCW_ENOMEM;
    return bcw__mkdir_p(b->tmpdir);
}

/* The unit's bitcode instrumented for the worker, with its coverage
 * map; what --sanitize undefined could not check is noted. */
static int instrument(wbuild *b)
{
    unsigned optimised = 0;
    int err =
        bcw__native_instrument(b->model, b->bitcode, b->o->setup,
                               b->o->sanitize, &optimised, b->cov, b->unit);
    if (err == 0 && b->cov != NULL)
        err = bcw__cov_map_save(b->cov, b->map);
    if (err < 0 || optimised == 0)
        return err;
    char text[200];
    snprintf(text, sizeof text,
             "--sanitize undefined: %u optimised functions (not -O0) "
             "are checked for division and misalignment only",
             optimised);
    return add_note(b->note, b->notes, text);
}

/* clang's command line linking the instrumented unit with the runtime
 * into the worker, into argv (24 entries at most). */
static void link_argv(const wbuild *b, const char *argv[])
{
    /* -no-pie: users' bitcode is rarely -fPIC, and its dso_local globals
     * link into a position-dependent executable as they are.  -z now:
     * the fork server resolves every symbol once, not each worker it
     * forks on its first calls */
    size_t k = 0;
    unsigned sanitize = b->o->sanitize;
    argv[k++] = BCW_CLANG;
    argv[k++] = "-O1"; /* argv[1]: link_worker's retry changes it */
    argv[k++] = "-no-pie";
    argv[k++] = "-Wl,-z,now";
    argv[k++] = "-w";
#if BCW_LLVM_MAJOR < 15
    /* bcwalk writes opaque pointers (bitcode.c) */
    argv[k++] = "-mllvm";
    argv[k++] = "-opaque-pointers";
#endif
    bool asan = (sanitize & BCW_SANITIZE_ADDRESS) != 0;
#ifdef BCW_SANITIZE_WORKERS
    /* the runtime is built with ASan and UBSan: link their runtime.  The
     * unit's code stays as it is (but with --sanitize address): its
     * functions carry no sanitize_address attribute, UBSan's checks are
     * made by clang's front end */
    argv[k++] = "-fsanitize=address,undefined";
    asan = true;
#endif
    /* --sanitize address: clang instruments the functions
     * bcw__native_instrument gave AddressSanitizer's attribute, and links
     * its runtime */
    if (sanitize & BCW_SANITIZE_ADDRESS)
        argv[k++] = "-fsanitize=address";
    if (asan) {
        /* globals stay unpadded: the worker copies their section back
         * before each sequence */
        argv[k++] = "-mllvm";
        argv[k++] = "-asan-globals=0";
    }
    argv[k++] = b->unit;
    argv[k++] = b->runtime;
    argv[k++] = "-lffi";
    argv[k++] = "-lm";
    argv[k++] = "-ldl"; /* custom generators are loaded with dlopen */
    argv[k++] = "-o";
    argv[k++] = b->built;
    argv[k] = NULL;
}

/* The worker linked by clang; optimised at -O1, or at -O0 (noted) when
 * clang's optimiser crashes on the unit.  A failure names clang's
 * error and keeps its log in the cache root. */
static int link_worker(wbuild *b)
{
    const char *argv[24];
    link_argv(b, argv);
    int rc = bcw__build_clang(argv, b->log);
    char why[256];
    if (rc > 0 && crashed(b->log, why, sizeof why)) {
        /* clang's optimiser crashed on the unit (LLVM 14's
         * LoopLoadElimination on -disable-O0-optnone bitcode): without
         * optimisation no such pass runs */
        argv[1] = "-O0";
        rc = bcw__build_clang(argv, b->log);
        char text[400];
        snprintf(text, sizeof text,
                 "native build: %s at -O1; the worker is built at -O0 "
                 "(slower calls)",
                 why);
        if (rc == 0)
            rc = add_note(b->note, b->notes, text);
    }
    if (rc <= 0)
        return rc;
    /* keep the log where the message says it is */
    char *kept = bcw__sprintf("%s/last-failed-build.log", b->root);
    const char *at = kept != NULL && rename(b->log, kept) == 0 ? kept : b->log;
    int err;
    if ((b->o->sanitize & BCW_SANITIZE_ADDRESS) &&
        log_mentions(at, "libclang_rt.asan"))
        err = bcw__error(BCW_ERROR,
                         "--sanitize address: clang's AddressSanitizer "
                         "runtime is not installed (Debian: "
                         "libclang-rt-%d-dev; full log: %s)",
                         BCW_LLVM_MAJOR, at);
    else
        err = bcw__build_failed(b->bitcode, BUILDING, at);
    free(kept);
    return err;
}

/* The build becomes the entry: its checksum written last, over what the
 * entry's user reads, then its folder renamed into place, or exchanged
 * with a damaged entry there; a whole one a concurrent build put there
 * first is kept. */
static int install_entry(wbuild *b)
{
    bool cover = b->cov != NULL;
    int err = bcw__sum_write(
        b->sums, (const char *[]){b->built, b->notes, b->map}, cover ? 3 : 2);
    if (err < 0 || rename(b->tmpdir, b->dir) == 0)
        return err;
    if (errno != EEXIST && errno != ENOTEMPTY && errno != ENOTDIR)
        return bcw__error(BCW_ERROR, "rename %s to %s: %s", b->tmpdir, b->dir,
                          strerror(errno));
    int whole = entry_whole(b->dir, cover);
    return whole < 0    ? whole
           : whole == 0 ? replace_entry(b->tmpdir, b->dir)
                        : 0;
}

/* Frees what b holds, removing the temporary folder of a build that
 * lost a race, or failed, or the damaged entry it replaced. */
static void wbuild_free(wbuild *b)
{
    if (b->tmpdir != NULL)
        remove_entry(b->tmpdir);
    free(b->runtime);
    free(b->root);
    free(b->dir);
    free(b->worker);
    free(b->tmpdir);
    free(b->unit);
    free(b->log);
    free(b->built);
    free(b->notes);
    free(b->sums);
    free(b->map);
}

int bcw__build_worker(char **out, char **note, bcw_cov_map *cov,
                      const bcw_model *model, const char *bitcode,
                      const bcw_build_opts *o)
{
    *out = NULL;
    *note = NULL;
    wbuild b = {
        .model = model, .bitcode = bitcode, .o = o, .cov = cov, .note = note};
    int err = build_key(&b);
    if (err == 0)
        err = entry_paths(&b);
    int hit = err == 0 ? cached(&b) : 0;
    if (hit < 0)
        err = hit;
    if (err == 0 && hit == 0) {
        if ((err = build_paths(&b)) == 0 && (err = instrument(&b)) == 0 &&
            (err = link_worker(&b)) == 0)
            err = install_entry(&b);
    }
    if (err == 0) {
        *out = b.worker;
        b.worker = NULL;
    } else {
        if (cov != NULL)
            bcw__cov_map_free(cov);
        free(*note);
        *note = NULL;
    }
    wbuild_free(&b);
    return err;
}
