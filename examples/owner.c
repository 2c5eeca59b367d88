/* owner.c - memory a unit hands to its caller is not a leak: tag_copy
 * returns a copy the caller frees, tag_cursor a cursor the caller owns.
 * Its destructor frees all it keeps, so a walk reports no leak, while
 * examples/faulty.c's faulty_add forgets a block and is reported. */
#include <stdlib.h>
#include <string.h>

typedef struct tag {
    char *name;
} tag;

typedef struct tag_cursor {
    const tag *of;
    size_t at;
} tag_cursor;

tag *tag_new(void)
{
    return calloc(1, sizeof(tag));
}

int tag_set(tag *t, const char *name)
{
    char *copy = strdup(name);
    if (copy == NULL)
        return -1;
    free(t->name);
    t->name = copy;
    return 0;
}

/* the caller's to free */
char *tag_copy(const tag *t)
{
    return strdup(t->name != NULL ? t->name : "");
}

/* the caller's to free */
tag_cursor *tag_cursor_new(const tag *t)
{
    tag_cursor *c = calloc(1, sizeof *c);
    if (c != NULL)
        c->of = t;
    return c;
}

void tag_free(tag *t)
{
    free(t->name);
    free(t);
}
