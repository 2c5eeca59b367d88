/* fuzz_results.c - libFuzzer harness of the results reader
 * (bcw_recorded_open, explorer/engine/replay.c) through `bcwalk
 * report`, in process: any bytes are a walk's report printed again, or
 * a one-line error (exit 2), never a crash, a hang or a leak.  The seeds
 * are whole walks' results and shards' (run.sh): a shard alone is its
 * part of the walk.  The checksum is made right (fuzz_sealed).  The
 * input is also merged with the other shard of a walk shared out
 * ($BCW_FUZZ_SHARD, run.sh), whose shard 0 is a seed: the layout its
 * parts claim is what `bcwalk merge` copies by (explorer/report/merge.c). */
#include <stdint.h>
#include <stdlib.h>

#include "cli.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    const char *input = fuzz_sealed(data, n, bcw__checksum);
    int rc =
        fuzz_command(cmd_report, "report", input, "--format", "json", NULL);
    if (rc != EXIT_OK && rc != EXIT_USAGE)
        abort();
    const char *other = getenv("BCW_FUZZ_SHARD");
    if (other != NULL)
        rc = fuzz_command(cmd_merge, "merge", input, other, "-o",
                          fuzz_path("merged"), NULL);
    if (rc != EXIT_OK && rc != EXIT_USAGE)
        abort();
    return 0;
}
