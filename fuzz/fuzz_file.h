/* fuzz_file.h - what the harnesses share: the input written to a file
 * of the harness's own (bcwalk's readers take paths), in $TMPDIR. */
#ifndef FUZZ_FILE_H
#define FUZZ_FILE_H

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

/* The n bytes at data written to fuzz_path("input"), sealed again when
 * they end as bcwalk's sealed files do ("checksum", then 8 bytes): the
 * checksum made right for the bytes before it, so that a mutation gets
 * past it into the reader (bcw__pack_seal's). */
static inline const char *fuzz_file(const uint8_t *data, size_t n)
{
    static const char tail[] = "\xa8"
                               "checksum\xcf";
    const size_t at = sizeof tail - 1 + 8;
    uint8_t *copy = malloc(n ? n : 1);
    if (copy == NULL)
        abort();
    memcpy(copy, data, n);
    if (n >= at && memcmp(copy + n - at, tail, sizeof tail - 1) == 0) {
        uint64_t sum = bcw__hash(copy, n - 8, 0);
        for (size_t i = 0; i < 8; i++)
            copy[n - 1 - i] = (uint8_t)(sum >> (8 * i));
    }
    const char *path = fuzz_path("input");
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(copy, 1, n, f) != n || fclose(f) != 0)
        abort();
    free(copy);
    return path;
}

#endif
