/* jval.c - a JSON-like value whose object and array are views of it, in
 * the shape of kgabis/parson: jv_object_get_array(obj, name) comes first
 * in the file and takes an object, which is no unit but a view a value
 * hands out (jv_get_object), so the array it returns is a view too, not
 * a unit of its own with no constructor; jv_get_array hands it out as
 * well.  Both are handles of the value (tests/e2e/handles.py). */
#include <stdlib.h>
#include <string.h>

typedef struct jv_array {
    int items[8];
    int count;
} jv_array;

typedef struct jv_object {
    const char *name; /* its one member's name */
    jv_array *member;
} jv_object;

typedef struct jv {
    int is_array;
    jv_object obj;
    jv_array arr;
} jv;

/* The object's member called `name` as an array, or NULL. */
jv_array *jv_object_get_array(jv_object *o, const char *name)
{
    return o->name != NULL && strcmp(o->name, name) == 0 ? o->member : NULL;
}

int jv_array_count(const jv_array *a)
{
    return a->count;
}

/* Appends n: 0, or -1 when the array is full. */
int jv_array_append(jv_array *a, int n)
{
    if (a->count == 8)
        return -1;
    a->items[a->count++] = n;
    return 0;
}

jv *jv_new_array(void)
{
    jv *v = calloc(1, sizeof *v);
    if (v != NULL)
        v->is_array = 1;
    return v;
}

/* An object whose one member, "items", is an array. */
jv *jv_new_object(void)
{
    jv *v = calloc(1, sizeof *v);
    if (v != NULL) {
        v->obj.name = "items";
        v->obj.member = &v->arr;
    }
    return v;
}

jv_array *jv_get_array(jv *v)
{
    return v->is_array ? &v->arr : NULL;
}

jv_object *jv_get_object(jv *v)
{
    return v->is_array ? NULL : &v->obj;
}

void jv_free(jv *v)
{
    free(v);
}
