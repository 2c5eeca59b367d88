/* tval.c - values whose members are reached through a handle, in
 * parson's shape: tval_members(v) gives out the member table of a value,
 * and tval_set(members, name, child) puts a value into it, the table
 * first.  The call acts on the table; `child` is another value, a new
 * one, never the target itself: tval_set does not compare the two, so
 * the target made its own member (a cycle tval_free follows forever) is
 * a caller's mistake the walk does not make. */
#include <stdlib.h>
#include <string.h>

typedef struct tval tval;

typedef struct tmembers {
    tval *owner;
    char *name;
    tval *child;
} tmembers;

struct tval {
    tmembers *members;
    tval *parent;
};

tval *tval_new(void)
{
    tval *v = calloc(1, sizeof *v);
    if (v == NULL)
        return NULL;
    v->members = calloc(1, sizeof *v->members);
    if (v->members == NULL) {
        free(v);
        return NULL;
    }
    v->members->owner = v;
    return v;
}

tmembers *tval_members(tval *v)
{
    return v->members;
}

void tval_free(tval *v);

/* 0, or -1 for a value that has a parent already */
int tval_set(tmembers *m, const char *name, tval *child)
{
    if (child == NULL || name == NULL || child->parent != NULL)
        return -1;
    char *copy = strdup(name);
    if (copy == NULL)
        return -1;
    if (m->child != NULL)
        tval_free(m->child);
    free(m->name);
    m->name = copy;
    m->child = child;
    child->parent = m->owner;
    return 0;
}

int tval_has(const tmembers *m, const char *name)
{
    return m->name != NULL && strcmp(m->name, name) == 0;
}

void tval_free(tval *v)
{
    if (v->members->child != NULL)
        tval_free(v->members->child);
    free(v->members->name);
    free(v->members);
    free(v);
}
