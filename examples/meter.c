/* meter.c - a unit to measure coverage by: a helper only a fifth
 * reading reaches (grow), a switch on a mode, a negated condition and
 * an `&&` (whose arms a report must tell apart), and a function of the
 * library no walk of the unit reaches (meter_unused).
 * tests/e2e/reports.py. */
#include <stdlib.h>

typedef struct meter {
    int *v;
    int n, cap;
    int scale;
} meter;

meter *meter_new(void)
{
    meter *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->cap = 4;
    m->scale = 1;
    m->v = malloc((size_t)m->cap * sizeof *m->v);
    if (m->v == NULL) {
        free(m);
        return NULL;
    }
    return m;
}

void meter_free(meter *m)
{
    if (m == NULL)
        return;
    free(m->v);
    free(m);
}

/* Doubles the room for readings: only a fifth reading needs it. */
static int grow(meter *m)
{
    int *v = realloc(m->v, (size_t)m->cap * 2 * sizeof *v);
    if (v == NULL)
        return -1;
    m->v = v;
    m->cap *= 2;
    return 0;
}

void meter_add(meter *m, int x)
{
    if (m->n == m->cap && grow(m) < 0)
        return;
    m->v[m->n++] = x;
}

/* Sets the scale readings are summed with: 0 units, 1 tens, 2
 * hundreds; any other mode is refused. */
int meter_mode(meter *m, int mode)
{
    switch (mode) {
    case 0:
        m->scale = 1;
        break;
    case 1:
        m->scale = 10;
        break;
    case 2:
        m->scale = 100;
        break;
    default:
        return -1;
    }
    return 0;
}

int meter_total(const meter *m)
{
    int t = 0;
    for (int i = 0; i < m->n; i++)
        t += m->v[i] * m->scale;
    return t;
}

/* Part of the library, not of the unit's code: no function of the unit
 * calls it. */
int meter_unused(int x)
{
    return x * 2;
}
