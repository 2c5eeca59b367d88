/* fuzz_learned.c - libFuzzer harness of the learned model's reader
 * (bcw__learned_load, explorer/learn/learn_out.c): any bytes are a
 * learned model or a one-line BCW_EINPUT, never a crash, a hang or a
 * leak.  One that loads is printed (text, JSON, DOT), saved and loaded
 * again, then walked as `bcwalk explore --walk learned --from-tests` of
 * examples/fifo.c walks it, in process (exit 0, or 2 for a model of
 * another unit or one the walk cannot use).  The seeds are models
 * learned from examples/fifo_tests.c (run.sh). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bcwalk/error.h"
#include "cli.h"
#include "fuzz_file.h"
#include "learn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    const char *path = fuzz_file(data, n);
    bcw_learned l;
    int err = bcw__learned_load(&l, path);
    if (err != 0) {
        if (err != BCW_EINPUT)
            abort(); /* refused: only for the input's fault */
        return 0;
    }
    FILE *devnull = fopen("/dev/null", "w");
    if (devnull == NULL || bcw__learned_text(&l, devnull) != 0 ||
        bcw__learned_json(&l, devnull) != 0 ||
        bcw__learned_dot(&l, devnull) != 0)
        abort();
    fclose(devnull);
    bcw_learned again;
    if (bcw__learned_save(&l, fuzz_path("again")) != 0 ||
        bcw__learned_load(&again, fuzz_path("again")) != 0 ||
        again.ntests != l.ntests)
        abort();
    bcw__learned_free(&again);
    bcw__learned_free(&l);
    int rc = fuzz_command(cmd_explore, "explore", fuzz_example("fifo.bc"),
                          "--unit", "fifo", "--walk", "learned", "--from-tests",
                          path, "--depth", "2", "--format", "json", NULL);
    if (rc != EXIT_OK && rc != EXIT_USAGE)
        abort();
    return 0;
}
