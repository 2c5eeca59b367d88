/* fuzz_mutant_slots.c - the libFuzzer column of bench_mutants.py for
 * examples/slots.c: one operation sequence on the mutant and on the
 * correct build (included here with its functions renamed ref_*),
 * trapping on the first difference.  The first input byte, signed, is
 * slots_open's n (negative, 0 .. 64 and past 64 all occur); when either
 * build returns NULL, that is compared and the input ends.  Then each
 * byte picks an operation, and slot numbers are the next bytes, signed
 * (-128 .. 127, around the pool's 0 .. n).  Both pools are closed at the
 * end.  The reference never shifts by 64 or more (its slot numbers stay
 * below n <= 64, slots_count masks them), so fuzzed against itself it
 * never traps.  FUZZ_TRACE=1 prints the operations to stderr, each line
 * after "| ". */
#define slots_open ref_slots_open
#define slots_close ref_slots_close
#define slots_take ref_slots_take
#define slots_give ref_slots_give
#define slots_free ref_slots_free
#define slots_taken ref_slots_taken
#define slots_count ref_slots_count
#include "slots.c"
#undef slots_open
#undef slots_close
#undef slots_take
#undef slots_give
#undef slots_free
#undef slots_taken
#undef slots_count

#include <stdint.h>
#include <stdio.h>

slots *slots_open(int n);
void slots_close(slots *s);
int slots_take(slots *s);
bool slots_give(slots *s, int i);
int slots_free(const slots *s);
int slots_taken(const slots *s, int i);
int slots_count(const slots *s, int from, int to);

#include "fuzz_mutant.h"

/* The next byte of the input, signed; 0 past its end. */
static int next(const uint8_t *data, size_t n, size_t *i)
{
    return *i + 1 < n ? (int8_t)data[++*i] : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    if (n == 0)
        return 0;
    int size = (int8_t)data[0];
    trace("slots_open", size);
    slots *s = slots_open(size), *r = ref_slots_open(size);
    same("slots_open == NULL", s == NULL, r == NULL);
    if (s == NULL || r == NULL) {
        /* only both NULL gets here: same() trapped otherwise */
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        switch (data[i] % 5) {
        case 0:
            same("slots_take", slots_take(s), ref_slots_take(r));
            break;
        case 1: {
            int k = next(data, n, &i);
            trace("slots_give", k);
            same("slots_give", slots_give(s, k), ref_slots_give(r, k));
            break;
        }
        case 2:
            same("slots_free", slots_free(s), ref_slots_free(r));
            break;
        case 3: {
            int k = next(data, n, &i);
            trace("slots_taken", k);
            same("slots_taken", slots_taken(s, k), ref_slots_taken(r, k));
            break;
        }
        default: {
            int from = next(data, n, &i), to = next(data, n, &i);
            if (tracing)
                fprintf(stderr, "| slots_count(%d, %d)\n", from, to);
            same("slots_count", slots_count(s, from, to),
                 ref_slots_count(r, from, to));
            break;
        }
        }
    }
    trace("slots_close", 0);
    slots_close(s);
    ref_slots_close(r);
    return 0;
}
