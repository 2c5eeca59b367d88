/* web.c - a container that owns its nodes and hands them out: web_add
 * returns the node it keeps, web_take lets one go and hands it to the
 * caller, who frees it with node_free.  Two misuses no caller makes,
 * which bcwalk made before the runtime watched lifetimes: node_free of a
 * node the web still holds (web_free then frees it again: a double free
 * that is the walk's doing, not the library's), and web_sum_from from a
 * node the web let go (its slot is empty: a crash, the walk's doing).
 * The runtime sees both: the first call frees a block the web still
 * reaches without being given the web, the second is given the web and
 * a node the web reached when it was given out but reaches no more.
 * web_close frees the web where the analysis cannot see it: the runtime
 * does, and ends the sequence there, with no web_free after it. */
#include <stdint.h>
#include <stdlib.h>

#define WEB_CAP 4

typedef struct node {
    int value;
    unsigned slot;
} node;

typedef struct web {
    node *slots[WEB_CAP];
    unsigned count;
} web;

web *web_new(void)
{
    return calloc(1, sizeof(web));
}

/* A new node of value v in the first empty slot; NULL when full. */
node *web_add(web *w, int v)
{
    for (unsigned i = 0; i < WEB_CAP; i++)
        if (w->slots[i] == NULL) {
            node *n = malloc(sizeof *n);
            if (n == NULL)
                return NULL;
            n->value = v;
            n->slot = i;
            w->slots[i] = n;
            w->count++;
            return n;
        }
    return NULL;
}

/* Lets the node in the last full slot go and hands it over (the caller
 * frees it with node_free); NULL when the web is empty. */
node *web_take(web *w)
{
    for (unsigned i = WEB_CAP; i-- > 0;)
        if (w->slots[i] != NULL) {
            node *n = w->slots[i];
            w->slots[i] = NULL;
            w->count--;
            return n;
        }
    return NULL;
}

/* The sum of the values from n's slot on.  n must be one of w's. */
int web_sum_from(const web *w, const node *n)
{
    int sum = w->slots[n->slot]->value;
    for (unsigned i = n->slot + 1; i < WEB_CAP; i++)
        if (w->slots[i] != NULL)
            sum += w->slots[i]->value;
    return sum;
}

unsigned web_count(const web *w)
{
    return w->count;
}

int node_value(const node *n)
{
    return n->value;
}

/* Frees a node web_take handed over. */
void node_free(node *n)
{
    free(n);
}

/* Frees the nodes and the web, as web_free does, through an address
 * kept as an integer (as a table of handles by address would): the
 * analysis does not follow it, the runtime sees the web freed. */
void web_close(web *w)
{
    uintptr_t at = (uintptr_t)w;
    for (unsigned i = 0; i < WEB_CAP; i++)
        free(w->slots[i]);
    free((void *)at);
}

void web_free(web *w)
{
    for (unsigned i = 0; i < WEB_CAP; i++)
        free(w->slots[i]);
    free(w);
}
