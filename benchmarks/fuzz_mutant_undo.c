/* fuzz_mutant_undo.c - the libFuzzer column of bench_mutants.py for
 * examples/undo.c: fuzz_undo.c's differential harness, one file, with
 * the invariant function undo_ok (which bcwalk walks as an observer)
 * compared too.  The correct build is included with its functions
 * renamed ref_* (fuzz_undo_ref.c); the mutant is linked beside it.  Each input
 * byte picks an operation, a push takes the next byte as its value; pop and top
 * run only where the reference holds an entry (they abort on an empty history).
 * FUZZ_TRACE=1 prints the operations to stderr (a crash input replayed as a
 * call sequence). */
#include "fuzz_undo_ref.c"
#undef undo_new
#undef undo_free
#undef undo_push
#undef undo_clear
#undef undo_ok
#undef undo_pop
#undef undo_top
#undef undo_size
#undef undo_dropped
#undef undo_is_empty
#undef undo_is_full

#include <stdint.h>
#include <stdio.h>

undo *undo_new(void);
void undo_free(undo *u);
void undo_push(undo *u, int x);
void undo_clear(undo *u);
bool undo_ok(const undo *u);
int undo_pop(undo *u);
int undo_top(const undo *u);
int undo_size(const undo *u);
long undo_dropped(const undo *u);
bool undo_is_empty(const undo *u);
bool undo_is_full(const undo *u);

#include "fuzz_mutant.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    undo *u = undo_new(), *r = ref_undo_new();
    for (size_t i = 0; i < n; i++) {
        switch (data[i] % 9) {
        case 0: {
            int x = i + 1 < n ? data[++i] : 0;
            trace("undo_push", x);
            undo_push(u, x);
            ref_undo_push(r, x);
            break;
        }
        case 1:
            if (ref_undo_size(r) > 0)
                same("undo_pop", undo_pop(u), ref_undo_pop(r));
            break;
        case 2:
            if (ref_undo_size(r) > 0)
                same("undo_top", undo_top(u), ref_undo_top(r));
            break;
        case 3:
            same("undo_size", undo_size(u), ref_undo_size(r));
            break;
        case 4:
            same("undo_dropped", undo_dropped(u), ref_undo_dropped(r));
            break;
        case 5:
            same("undo_is_empty", undo_is_empty(u), ref_undo_is_empty(r));
            break;
        case 6:
            trace("undo_clear", 0);
            undo_clear(u);
            ref_undo_clear(r);
            break;
        case 7:
            same("undo_ok", undo_ok(u), ref_undo_ok(r));
            break;
        default:
            same("undo_is_full", undo_is_full(u), ref_undo_is_full(r));
            break;
        }
    }
    undo_free(u);
    ref_undo_free(r);
    return 0;
}
