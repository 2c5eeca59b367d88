/* fuzz_file.h - what the harnesses share: the input written to a file
 * of the harness's own (bcwalk's readers take paths), in $TMPDIR; the
 * examples' files (run.sh names their folder in $BCW_FUZZ_EXAMPLES);
 * a subcommand of the bcwalk command run in process. */
#ifndef FUZZ_FILE_H
#define FUZZ_FILE_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hash.h"

/* $TMPDIR/fuzz-<pid>-<name>, the same path each call. */
static inline const char *fuzz_path(const char *name)
{
    static char path[4][512];
    static unsigned next;
    const char *tmp = getenv("TMPDIR");
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/fuzz-%ld-%s", tmp ? tmp : "/tmp",
             (long)getpid(), name);
    return p;
}

/* The n bytes at data written to path. */
static inline void fuzz_write(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

/* bcw__hash with seed 0: the checksum of the models, oracles and
 * learned models (bcw__pack_seal's). */
static inline uint64_t fuzz_hash(const void *data, size_t n)
{
    return bcw__hash(data, n, 0);
}

/* The n bytes at data written to fuzz_path("input"), sealed again when
 * they end as bcwalk's sealed files do ("checksum", then 8 bytes): the
 * checksum, sum of the bytes before it, made right, so that a mutation
 * gets past it into the reader. */
static inline const char *fuzz_sealed(const uint8_t *data, size_t n,
                                      uint64_t (*sum)(const void *, size_t))
{
    static const char tail[] = "\xa8"
                               "checksum\xcf";
    const size_t at = sizeof tail - 1 + 8;
    uint8_t *copy = malloc(n ? n : 1);
    if (copy == NULL)
        abort();
    memcpy(copy, data, n);
    if (n >= at && memcmp(copy + n - at, tail, sizeof tail - 1) == 0) {
        uint64_t h = sum(copy, n - 8);
        for (size_t i = 0; i < 8; i++)
            copy[n - 1 - i] = (uint8_t)(h >> (8 * i));
    }
    const char *path = fuzz_path("input");
    fuzz_write(path, copy, n);
    free(copy);
    return path;
}

/* fuzz_sealed for the files bcw__pack_seal seals. */
static inline const char *fuzz_file(const uint8_t *data, size_t n)
{
    return fuzz_sealed(data, n, fuzz_hash);
}

/* $BCW_FUZZ_EXAMPLES/name: an example's file (its bitcode, its test
 * program's). */
static inline const char *fuzz_example(const char *name)
{
    static char path[4][512];
    static unsigned next;
    const char *dir = getenv("BCW_FUZZ_EXAMPLES");
    if (dir == NULL) {
        fprintf(stderr, "fuzz: BCW_FUZZ_EXAMPLES names no folder of "
                        "examples (fuzz/run.sh sets it)\n");
        abort();
    }
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    return p;
}

/* Runs the subcommand cmd (cli.h) with the arguments that follow, up to
 * a NULL: what it prints goes where the harness's output goes (run.sh
 * closes it); its exit status. */
static inline int fuzz_command(int (*cmd)(int, char **), const char *arg0, ...)
{
    char *argv[32];
    int argc = 0;
    va_list ap;
    va_start(ap, arg0);
    for (const char *a = arg0; a != NULL && argc < 31; a = va_arg(ap, char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    return cmd(argc, argv);
}

#endif
