/* item.c - items that own other items, as cJSON's and json-c's do:
 * item_add hands the child over (item_free frees it with its parent),
 * item_detach gives the first child back to the caller, item_replace
 * (json_pointer_set(&root, "", value)) frees the item the caller's
 * handle points to and makes it point to another: bcwalk passes the
 * address of its handle (&target) and goes on with the replacement.  A
 * parameter of the unit's own type other than the target gets an instance of
 * its own (item_new), so a child is really added, and bcwalk never frees what
 * the item now owns.  The target passed as its own child is a category of
 * its own where the code compares the two (item_add, item_adopt,
 * item_same), and only there (item_replace does not: the walk never
 * gives it the target): the cycle item_add's partial check lets
 * through (item_free and item_count recurse until the stack overflows)
 * is listed apart as aliasing, not as the library's failure, unless the
 * call given the target twice changes nothing (item_same) and the halt
 * is another's (item_first_value on a leaf); so is the leak of
 * item_adopt(target, target) (tests/e2e/instances.py). */
#include <stdlib.h>

typedef struct item {
    struct item *child, *next;
    int value;
} item;

item *item_new(int value)
{
    item *it = calloc(1, sizeof *it);
    if (it != NULL)
        it->value = value;
    return it;
}

void item_free(item *it)
{
    while (it != NULL) {
        item *next = it->next;
        item_free(it->child);
        free(it);
        it = next;
    }
}

/* appends `child`, which the parent then owns; 0 when there is none.
 * The parent as its own child is refused once it has children: a leaf
 * given itself becomes a cycle */
int item_add(item *parent, item *child)
{
    if (child == NULL || (child == parent && parent->child != NULL))
        return 0;
    item **at = &parent->child;
    while (*at != NULL)
        at = &(*at)->next;
    *at = child;
    return 1;
}

/* a new child of `value` appended; 0 when there is no memory */
int item_push(item *parent, int value)
{
    return item_add(parent, item_new(value));
}

/* the first child, the caller's again */
item *item_detach(item *parent)
{
    item *first = parent->child;
    if (first != NULL) {
        parent->child = first->next;
        first->next = NULL;
    }
    return first;
}

/* the first child, still the parent's; NULL for a leaf */
item *item_first(const item *parent)
{
    return parent->child;
}

/* unlinks `child`, one of parent's (cJSON_DetachItemViaPointer): the
 * caller's again; NULL when it is not there.  It looks for child among
 * parent's (compares it with the pointers it loads from parent): the
 * walk gives it a child the parent holds (item_first's), not a new item */
item *item_take(item *parent, item *child)
{
    item **at = &parent->child;
    while (*at != NULL && *at != child)
        at = &(*at)->next;
    if (*at == NULL)
        return NULL;
    *at = child->next;
    child->next = NULL;
    return child;
}

/* *root freed, `with` in its place; 0 when there is none */
int item_replace(item **root, item *with)
{
    if (with == NULL)
        return 0;
    item_free(*root);
    *root = with;
    return 1;
}

/* moves `from`'s children after `parent`'s own (a list spliced onto
 * another): `from` keeps none.  The parent as `from` is let through
 * unless it is childless: its children become a cycle nothing holds, a
 * leak, listed apart as aliasing */
void item_adopt(item *parent, item *from)
{
    if (from == parent && parent->child == NULL)
        return;
    item **at = &parent->child;
    while (*at != NULL)
        at = &(*at)->next;
    *at = from->child;
    from->child = NULL;
}

int item_value(const item *it)
{
    return it->value;
}

/* do a and b hold the same value?  An observer: the target passed as
 * b changes nothing, so a later halt is no aliasing one */
int item_same(const item *a, const item *b)
{
    return a == b || a->value == b->value;
}

/* the first child's value: an item with a child only (a leaf crashes,
 * the library's own precondition) */
int item_first_value(const item *it)
{
    return it->child->value;
}

/* the items under `it`, itself included */
int item_count(const item *it)
{
    int n = 1;
    for (const item *c = it->child; c != NULL; c = c->next)
        n += item_count(c);
    return n;
}
