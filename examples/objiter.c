/* objiter.c - a map whose iterator is a one-word struct returned by
 * value, as json-c's json_object_iter_begin returns its
 * json_object_iterator: the caller keeps the copy and passes its address
 * to next, key and value.  The result is a handle, given out by a copy's
 * address; an iterator at the end (all zero) is none, so key and value
 * are never called on it (tests/e2e/handles.py). */
#include <stdlib.h>
#include <string.h>

typedef struct kv {
    struct kv *next;
    char *key;
    int value;
} kv;

typedef struct obj {
    kv *head;
    int n;
} obj;

typedef struct obj_iter {
    kv *at; /* NULL: the end */
} obj_iter;

obj *obj_new(void)
{
    return calloc(1, sizeof(obj));
}

void obj_free(obj *o)
{
    while (o->head != NULL) {
        kv *e = o->head;
        o->head = e->next;
        free(e->key);
        free(e);
    }
    free(o);
}

/* value under a copy of key, first: the count */
int obj_put(obj *o, const char *key, int value)
{
    kv *e = malloc(sizeof *e);
    if (e == NULL || (e->key = strdup(key)) == NULL) {
        free(e);
        return o->n;
    }
    e->value = value;
    e->next = o->head;
    o->head = e;
    return ++o->n;
}

obj_iter obj_iter_begin(const obj *o)
{
    obj_iter it = {o->head};
    return it;
}

obj_iter obj_iter_end(const obj *o)
{
    (void)o;
    obj_iter it = {NULL};
    return it;
}

int obj_iter_equal(const obj_iter *a, const obj_iter *b)
{
    return a->at == b->at;
}

/* the next pair; it must not be at the end */
void obj_iter_next(obj_iter *it)
{
    it->at = it->at->next;
}

const char *obj_iter_key(const obj_iter *it)
{
    return it->at->key;
}

int obj_iter_value(const obj_iter *it)
{
    return it->at->value;
}
