/* clist.c - a list whose head lives in the caller's cell (CEntry *list =
 * NULL is the empty list) and whose adders return the new entry:
 * clist_prepend(&list, v), clist_append(&list, v), clist_sort(&list,
 * cmp), clist_length(list).  The adders read the cell before they write
 * it, so bcwalk takes them for methods growing the list, not for
 * constructors filling a T **out. */
#include <stddef.h>
#include <stdlib.h>

typedef struct centry {
    void *data;
    struct centry *next;
} CEntry;

typedef int (*clist_compare)(void *a, void *b);
typedef int (*clist_equal)(void *a, void *b);

/* Adds data before the first entry; the new entry, or NULL when out of
 * memory. */
CEntry *clist_prepend(CEntry **list, void *data)
{
    CEntry *e = malloc(sizeof *e);
    if (e == NULL)
        return NULL;
    e->data = data;
    e->next = *list;
    *list = e;
    return e;
}

/* Adds data after the last entry; the new entry, or NULL when out of
 * memory. */
CEntry *clist_append(CEntry **list, void *data)
{
    CEntry *e = malloc(sizeof *e);
    if (e == NULL)
        return NULL;
    e->data = data;
    e->next = NULL;
    CEntry **end = list;
    while (*end != NULL)
        end = &(*end)->next;
    *end = e;
    return e;
}

/* Sorts the list by cmp, stable: insertion into a new list. */
void clist_sort(CEntry **list, clist_compare cmp)
{
    CEntry *sorted = NULL;
    for (CEntry *e = *list, *next; e != NULL; e = next) {
        next = e->next;
        CEntry **at = &sorted;
        while (*at != NULL && cmp((*at)->data, e->data) <= 0)
            at = &(*at)->next;
        e->next = *at;
        *at = e;
    }
    *list = sorted;
}

/* Removes and frees every entry whose data eq says is data; how many. */
unsigned clist_remove_data(CEntry **list, clist_equal eq, void *data)
{
    unsigned n = 0;
    CEntry **at = list;
    while (*at != NULL) {
        CEntry *e = *at;
        if (eq(e->data, data)) {
            *at = e->next;
            free(e);
            n++;
        } else {
            at = &e->next;
        }
    }
    return n;
}

/* The entry at index n, or NULL past the end. */
CEntry *clist_nth(CEntry *list, unsigned n)
{
    while (list != NULL && n-- > 0)
        list = list->next;
    return list;
}

/* The first entry's data: the list must not be empty (unchecked). */
void *clist_first_data(CEntry *list)
{
    return list->data;
}

unsigned clist_length(CEntry *list)
{
    unsigned n = 0;
    for (; list != NULL; list = list->next)
        n++;
    return n;
}

void clist_free(CEntry *list)
{
    while (list != NULL) {
        CEntry *next = list->next;
        free(list);
        list = next;
    }
}
