/* twofree.c - a box with two destructors, the second with a seeded
 * fault: box_destroy_all frees the item it holds twice.  A walk ends its
 * sequences with each destructor in turn, so the fault is caught, and
 * the report names the destructor that halted. */
#include <stdlib.h>

typedef struct box {
    int *item;
} box;

box *box_new(void)
{
    return calloc(1, sizeof(box));
}

/* Puts a fresh item in the box; 0, or -1 when out of memory. */
int box_fill(box *b, int v)
{
    int *item = malloc(sizeof *item);
    if (item == NULL)
        return -1;
    *item = v;
    free(b->item);
    b->item = item;
    return 0;
}

int box_get(const box *b)
{
    return b->item ? *b->item : -1;
}

void box_free(box *b)
{
    free(b->item);
    free(b);
}

/* The fault: the item is freed twice. */
void box_destroy_all(box *b)
{
    free(b->item);
    if (b->item != NULL)
        free(b->item);
    free(b);
}
