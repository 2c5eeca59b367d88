/* fuzz_mutant_counter.c - the libFuzzer column of bench_mutants.py for
 * examples/counter.c: one operation sequence on the mutant and on the
 * correct build (included here with its functions renamed ref_*),
 * trapping on the first difference.  Each input byte picks an operation,
 * a step takes the next byte, signed, as its increment.  Both builds'
 * call counts (a static global each) run on across inputs, in step.
 * FUZZ_TRACE=1 prints the operations to stderr, each line after "| ". */
#define counter_init ref_counter_init
#define counter_step ref_counter_step
#define counter_read ref_counter_read
#define counter_peek ref_counter_peek
#define counter_reset ref_counter_reset
#define counter_value ref_counter_value
#include "counter.c"
#undef counter_init
#undef counter_step
#undef counter_read
#undef counter_peek
#undef counter_reset
#undef counter_value

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void counter_init(counter *c);
bool counter_step(counter *c, int by);
int counter_read(const counter *c, long *out);
long counter_peek(const counter *c);
void counter_reset(counter *c);

#include "fuzz_mutant.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    counter c, r;
    counter_init(&c);
    ref_counter_init(&r);
    for (size_t i = 0; i < n; i++) {
        switch (data[i] % 4) {
        case 0: {
            int by = i + 1 < n ? (int8_t)data[++i] : 0;
            if (tracing)
                fprintf(stderr, "| counter_step(%d)\n", by);
            same("counter_step", counter_step(&c, by),
                 ref_counter_step(&r, by));
            break;
        }
        case 1: {
            long out = -7, ref_out = -7;
            same("counter_read", counter_read(&c, &out),
                 ref_counter_read(&r, &ref_out));
            same("counter_read *out", out, ref_out);
            break;
        }
        case 2:
            same("counter_peek", counter_peek(&c), ref_counter_peek(&r));
            break;
        default:
            if (tracing)
                fprintf(stderr, "| counter_reset()\n");
            counter_reset(&c);
            ref_counter_reset(&r);
            break;
        }
    }
    return 0;
}
