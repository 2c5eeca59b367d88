/* fuzz_oracle.c - libFuzzer harness of the oracle reader
 * (bcw_oracle_load, core/oracle.c): any bytes are an oracle or a
 * one-line BCW_EINPUT, never a crash, a hang or a leak; one that loads
 * is dumped and saved again, and its save loads again.  The bytes go
 * through a file, as bcwalk reads them. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bcwalk/error.h"
#include "bcwalk/oracle.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    const char *path = fuzz_file(data, n);
    bcw_oracle *o = NULL;
    int err = bcw_oracle_load(&o, path);
    if (err != 0 && (o != NULL || err != BCW_EINPUT))
        abort(); /* refused: nothing loaded, and the input's fault */
    if (o == NULL)
        return 0;
    FILE *devnull = fopen("/dev/null", "w");
    if (devnull == NULL || bcw_oracle_dump(o, devnull) != 0)
        abort();
    fclose(devnull);
    bcw_oracle *again = NULL;
    if (bcw_oracle_save(o, fuzz_path("again")) != 0 ||
        bcw_oracle_load(&again, fuzz_path("again")) != 0 ||
        bcw_oracle_count(again) != bcw_oracle_count(o))
        abort();
    bcw_oracle_free(again);
    bcw_oracle_free(o);
    return 0;
}
