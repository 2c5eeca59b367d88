/* fuzz_mutant_ringq.c - the libFuzzer column of bench_mutants.py for
 * examples/ringq.c: one operation sequence on the mutant and on the
 * correct build (included here with its functions renamed ref_*),
 * trapping on the first difference.  Each input byte picks an operation,
 * a put takes the next byte as its value; every operation is defined in
 * every state (put on a full queue and get on an empty one return -1).
 * FUZZ_TRACE=1 prints the operations to stderr, each line after "| ". */
#define ringq_new ref_ringq_new
#define ringq_free ref_ringq_free
#define ringq_put ref_ringq_put
#define ringq_get ref_ringq_get
#define ringq_length ref_ringq_length
#include "ringq.c"
#undef ringq_new
#undef ringq_free
#undef ringq_put
#undef ringq_get
#undef ringq_length

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

ringq *ringq_new(void);
void ringq_free(ringq *q);
int ringq_put(ringq *q, int x);
int ringq_get(ringq *q, int *out);
unsigned ringq_length(const ringq *q);

#include "fuzz_mutant.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    ringq *q = ringq_new(), *r = ref_ringq_new();
    for (size_t i = 0; i < n; i++) {
        switch (data[i] % 3) {
        case 0: {
            int x = i + 1 < n ? data[++i] : 0;
            if (tracing)
                fprintf(stderr, "| ringq_put(%d)\n", x);
            same("ringq_put", ringq_put(q, x), ref_ringq_put(r, x));
            break;
        }
        case 1: {
            int out = -7, ref_out = -7;
            same("ringq_get", ringq_get(q, &out), ref_ringq_get(r, &ref_out));
            same("ringq_get *out", out, ref_out);
            break;
        }
        default:
            same("ringq_length", ringq_length(q), ref_ringq_length(r));
            break;
        }
    }
    ringq_free(q);
    ref_ringq_free(r);
    return 0;
}
