/* slist.c - a singly linked list whose handle lives in the caller's
 * cell (entry *head = NULL means empty), the way many C lists work:
 * list_push(&head, v), list_length(head). */
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

typedef struct entry {
    int value;
    struct entry *next;
} entry;

/* Prepends v; -1 when out of memory. */
int list_push(entry **head, int v)
{
    entry *e = malloc(sizeof *e);
    if (e == NULL)
        return -1;
    e->value = v;
    e->next = *head;
    *head = e;
    return 0;
}

/* Removes the first value into *out; -1 when the list is empty. */
int list_pop(entry **head, int *out)
{
    entry *e = *head;
    if (e == NULL)
        return -1;
    *out = e->value;
    *head = e->next;
    free(e);
    return 0;
}

size_t list_length(const entry *head)
{
    size_t n = 0;
    for (; head != NULL; head = head->next)
        n++;
    return n;
}

bool list_contains(const entry *head, int v)
{
    for (; head != NULL; head = head->next)
        if (head->value == v)
            return true;
    return false;
}

void list_free(entry **head)
{
    while (*head != NULL) {
        entry *e = *head;
        *head = e->next;
        free(e);
    }
}
