/* fuzz_model.c - libFuzzer harness of the model reader (bcw_model_load,
 * core/model_io.c): any bytes are a model or a one-line BCW_EINPUT,
 * never a crash, a hang or a leak; one that loads is printed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bcwalk/error.h"
#include "bcwalk/model.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    bcw_model *m = NULL;
    int err = bcw_model_load(&m, fuzz_file(data, n));
    if (err != 0 && (m != NULL || err != BCW_EINPUT))
        abort();
    if (m == NULL)
        return 0;
    FILE *devnull = fopen("/dev/null", "w");
    if (devnull == NULL)
        abort();
    if (bcw_model_write(m, -1, BCW_MODEL_TEXT, devnull) != 0 ||
        bcw_model_write(m, -1, BCW_MODEL_JSON, devnull) != 0)
        abort();
    fclose(devnull);
    bcw_model_free(m);
    return 0;
}
