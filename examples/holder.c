/* holder.c - a box that owns a table, as a json-c object owns its
 * lh_table: box_table(b) gives out the box's own table (read through a
 * cast helper, json-c's JC_OBJECT_C), so it makes nothing: it is an
 * observer of the box, not a constructor of tables, and the table unit
 * is made only by tab_new (tests/e2e/roles.py). */
#include <stdlib.h>

typedef struct tab {
    int n;
    int keys[8];
} tab;

tab *tab_new(void)
{
    return calloc(1, sizeof(tab));
}

void tab_free(tab *t)
{
    free(t);
}

int tab_put(tab *t, int key)
{
    if (t->n == 8)
        return 0;
    t->keys[t->n++] = key;
    return 1;
}

int tab_size(const tab *t)
{
    return t->n;
}

typedef struct box {
    int kind;
    tab *table;
} box;

box *box_new(void)
{
    box *b = calloc(1, sizeof *b);
    if (b != NULL && (b->table = tab_new()) == NULL) {
        free(b);
        return NULL;
    }
    return b;
}

void box_free(box *b)
{
    tab_free(b->table);
    free(b);
}

static box *as_box(const box *b)
{
    return (box *)b;
}

/* the box's own table, or NULL */
tab *box_table(const box *b)
{
    if (b == NULL)
        return NULL;
    return as_box(b)->table;
}
