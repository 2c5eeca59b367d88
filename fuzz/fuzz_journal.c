/* fuzz_journal.c - libFuzzer harness of the checkpoint journal's reader
 * (explorer/engine/journal.c) through `bcwalk explore --checkpoint FILE
 * --resume`, in process, on examples/bstack.c: any bytes are replayed
 * and the walk goes on, or a one-line error (exit 2), never a crash, a
 * hang or a leak.  The seeds are journals of the same walk (run.sh), its
 * coverage blocks included.
 *
 * The journal's header and each block carry a checksum, made right here
 * (docs/checkpoint.md), so that mutations reach the records; a block
 * whose length does not fit ends what is resealed, as it ends what the
 * reader reads. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz_file.h"

#define HEADER_BYTES 32
#define BLOCK_HEAD 16

static void reseal(uint8_t *j, size_t n)
{
    if (n < HEADER_BYTES || memcmp(j, "BCWJOURN", 8) != 0)
        return;
    uint64_t sum = bcw__hash(j, 24, 0);
    memcpy(j + 24, &sum, 8);
    for (size_t at = HEADER_BYTES; n - at >= BLOCK_HEAD + 8;) {
        uint64_t len;
        memcpy(&len, j + at + 8, 8);
        if (len > n - at - BLOCK_HEAD - 8)
            return;
        sum = bcw__hash(j + at, BLOCK_HEAD + len, 0);
        memcpy(j + at + BLOCK_HEAD + len, &sum, 8);
        at += BLOCK_HEAD + len + 8;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    uint8_t *copy = malloc(n ? n : 1);
    if (copy == NULL)
        abort();
    memcpy(copy, data, n);
    reseal(copy, n);
    const char *path = fuzz_path("journal");
    fuzz_write(path, copy, n);
    free(copy);
    int rc = fuzz_command(cmd_explore, "explore", fuzz_example("bstack.bc"),
                          "--unit", "bstack", "--depth", "2", "--coverage",
                          fuzz_path("lcov"), "--checkpoint", path, "--resume",
                          "--format", "json", NULL);
    if (rc != EXIT_OK && rc != EXIT_USAGE)
        abort();
    return 0;
}
