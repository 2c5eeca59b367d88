/* outctor.c - a vector of ints named as its users name it: a typedef
 * (OcVec) that differs from the struct's tag (oc_vec_s), and only a
 * constructor returning a status and the vector through OcVec **out, so
 * the struct is seen through a pointer to a pointer first. */
#include <stdlib.h>

typedef struct oc_vec_s OcVec;

struct oc_vec_s {
    size_t size;
    size_t capacity;
    int *items;
    int grow_by;
};

enum oc_stat { OC_OK, OC_ERR_ALLOC, OC_ERR_RANGE };

/* OC_OK and a new empty vector in *out, or OC_ERR_ALLOC. */
enum oc_stat oc_vec_new(OcVec **out)
{
    OcVec *v = malloc(sizeof *v);
    if (v == NULL)
        return OC_ERR_ALLOC;
    v->items = malloc(4 * sizeof *v->items);
    if (v->items == NULL) {
        free(v);
        return OC_ERR_ALLOC;
    }
    v->size = 0;
    v->capacity = 4;
    v->grow_by = 2;
    *out = v;
    return OC_OK;
}

void oc_vec_destroy(OcVec *v)
{
    free(v->items);
    free(v);
}

enum oc_stat oc_vec_add(OcVec *v, int x)
{
    if (v->size == v->capacity) {
        size_t cap = v->capacity * (size_t)v->grow_by;
        int *items = realloc(v->items, cap * sizeof *items);
        if (items == NULL)
            return OC_ERR_ALLOC;
        v->items = items;
        v->capacity = cap;
    }
    v->items[v->size++] = x;
    return OC_OK;
}

/* OC_OK and the item at index in *out, or OC_ERR_RANGE. */
enum oc_stat oc_vec_get_at(const OcVec *v, size_t index, int *out)
{
    if (index >= v->size)
        return OC_ERR_RANGE;
    *out = v->items[index];
    return OC_OK;
}

size_t oc_vec_size(const OcVec *const v)
{
    return v->size;
}
