/* fuzz_mutant_bstack.c - the libFuzzer column of bench_mutants.py for
 * examples/bstack.c: one operation sequence on the mutant and on the
 * correct build (included here with its functions renamed ref_*),
 * trapping on the first difference.  Each input byte picks an operation,
 * a push takes the next byte as its value; pop and top run only where
 * the reference holds an entry (they abort on an empty stack).
 * FUZZ_TRACE=1 prints the operations to stderr, each line after "| ". */
#define bstack_new ref_bstack_new
#define bstack_free ref_bstack_free
#define bstack_push ref_bstack_push
#define bstack_pop ref_bstack_pop
#define bstack_top ref_bstack_top
#define bstack_size ref_bstack_size
#define bstack_is_empty ref_bstack_is_empty
#define bstack_is_full ref_bstack_is_full
#include "bstack.c"
#undef bstack_new
#undef bstack_free
#undef bstack_push
#undef bstack_pop
#undef bstack_top
#undef bstack_size
#undef bstack_is_empty
#undef bstack_is_full

#include <stdint.h>
#include <stdio.h>

bstack *bstack_new(void);
void bstack_free(bstack *s);
void bstack_push(bstack *s, int x);
void bstack_pop(bstack *s);
int bstack_top(const bstack *s);
int bstack_size(const bstack *s);
bool bstack_is_empty(const bstack *s);
bool bstack_is_full(const bstack *s);

#include "fuzz_mutant.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    bstack *s = bstack_new(), *r = ref_bstack_new();
    for (size_t i = 0; i < n; i++) {
        switch (data[i] % 6) {
        case 0: {
            int x = i + 1 < n ? data[++i] : 0;
            trace("bstack_push", x);
            bstack_push(s, x);
            ref_bstack_push(r, x);
            break;
        }
        case 1:
            if (ref_bstack_size(r) > 0) {
                trace("bstack_pop", 0);
                bstack_pop(s);
                ref_bstack_pop(r);
            }
            break;
        case 2:
            if (ref_bstack_size(r) > 0)
                same("bstack_top", bstack_top(s), ref_bstack_top(r));
            break;
        case 3:
            same("bstack_size", bstack_size(s), ref_bstack_size(r));
            break;
        case 4:
            same("bstack_is_empty", bstack_is_empty(s), ref_bstack_is_empty(r));
            break;
        default:
            same("bstack_is_full", bstack_is_full(s), ref_bstack_is_full(r));
            break;
        }
    }
    bstack_free(s);
    ref_bstack_free(r);
    return 0;
}
