/* callee.c - a tank whose methods check their arguments through static
 * helpers: a range check with the bounds passed in, a check against the
 * tank's own fields, an expression of the argument passed on, a switch
 * two calls down and a recursive helper.  The branch conditions are in
 * the helpers, not in the methods (at -O0; -O2 inlines them). */
#include <stdbool.h>
#include <stdlib.h>

typedef struct tank {
    long level;
    long capacity;
    int rate;
    int mode;
} tank;

tank *tank_new(void)
{
    tank *t = calloc(1, sizeof *t);
    if (t != NULL) {
        t->capacity = 100;
        t->rate = 1;
    }
    return t;
}

void tank_free(tank *t)
{
    free(t);
}

static bool in_range(int v, int lo, int hi)
{
    return v >= lo && v <= hi;
}

/* Returns 0, or -1 unless 1 <= rate <= 10. */
int tank_set_rate(tank *t, int rate)
{
    if (!in_range(rate, 1, 10))
        return -1;
    t->rate = rate;
    return 0;
}

static bool positive(long x)
{
    return x > 0;
}

static bool fits(const tank *t, long amt)
{
    return amt <= t->capacity - t->level;
}

/* Returns 0, or -1 when the amount is not positive or would overflow. */
int tank_fill(tank *t, long amount)
{
    if (!positive(amount) || !fits(t, amount))
        return -1;
    t->level += amount;
    return 0;
}

static int too_many(int y)
{
    if (y > 10)
        return 1;
    return 0;
}

/* Drains n steps of the rate; at most 9 (n + 1 <= 10). */
void tank_drain(tank *t, int n)
{
    if (too_many(n + 1))
        return;
    t->level -= (long)n * t->rate;
    if (t->level < 0)
        t->level = 0;
}

static int mode_rate(int m)
{
    switch (m) {
    case 0:
        return 1;
    case 1:
        return 2;
    case 2:
        return 5;
    default:
        return -1;
    }
}

static int apply_mode(tank *t, int m)
{
    int r = mode_rate(m);
    if (r < 0)
        return -1;
    t->mode = m;
    t->rate = r;
    return 0;
}

/* Returns 0, or -1 for an unknown mode (0, 1 and 2 are known). */
int tank_set_mode(tank *t, int mode)
{
    return apply_mode(t, mode);
}

static int digits(int v)
{
    return v < 10 ? 1 : 1 + digits(v / 10);
}

/* How many decimal digits v has (v >= 0). */
int tank_digits(const tank *t, int v)
{
    (void)t;
    return digits(v);
}
