/* fuzz_undo.c - the peer of bcwalk test --reference (bench_reference.py):
 * a libFuzzer harness running one operation sequence on two builds of
 * examples/undo.c, the build under test and the correct one with its
 * functions renamed ref_* (fuzz_undo_ref.c), trapping on the first
 * difference.  Each input byte picks an operation, a push takes the next
 * byte as its value; pop and top run only where the reference holds an
 * entry (they abort on an empty history). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct undo undo;

undo *undo_new(void);
void undo_free(undo *u);
void undo_push(undo *u, int x);
void undo_clear(undo *u);
int undo_pop(undo *u);
int undo_top(undo *u);
int undo_size(undo *u);
long undo_dropped(undo *u);
bool undo_is_empty(undo *u);
bool undo_is_full(undo *u);

undo *ref_undo_new(void);
void ref_undo_free(undo *u);
void ref_undo_push(undo *u, int x);
void ref_undo_clear(undo *u);
int ref_undo_pop(undo *u);
int ref_undo_top(undo *u);
int ref_undo_size(undo *u);
long ref_undo_dropped(undo *u);
bool ref_undo_is_empty(undo *u);
bool ref_undo_is_full(undo *u);

static void same(long a, long b)
{
    if (a != b)
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    undo *u = undo_new(), *r = ref_undo_new();
    for (size_t i = 0; i < n; i++) {
        switch (data[i] % 8) {
        case 0: {
            int x = i + 1 < n ? data[++i] : 0;
            undo_push(u, x);
            ref_undo_push(r, x);
            break;
        }
        case 1:
            if (ref_undo_size(r) > 0)
                same(undo_pop(u), ref_undo_pop(r));
            break;
        case 2:
            if (ref_undo_size(r) > 0)
                same(undo_top(u), ref_undo_top(r));
            break;
        case 3:
            same(undo_size(u), ref_undo_size(r));
            break;
        case 4:
            same(undo_dropped(u), ref_undo_dropped(r));
            break;
        case 5:
            same(undo_is_empty(u), ref_undo_is_empty(r));
            break;
        case 6:
            undo_clear(u);
            ref_undo_clear(r);
            break;
        default:
            same(undo_is_full(u), ref_undo_is_full(r));
            break;
        }
    }
    undo_free(u);
    ref_undo_free(r);
    return 0;
}
