/* twig.c - a tree node built the way LLVM 14's optimiser cannot take:
 * compiled -O0 -Xclang -disable-O0-optnone (as some projects make their
 * bitcode), twig_adopt's loop over the two children crashes clang's
 * LoopLoadElimination when bcwalk compiles the worker at -O1 with opaque
 * pointers.  bcwalk then builds the worker at -O0 and says so in the
 * report's warnings; the walk is the same (tests/e2e/outcomes.py). */
#include <stdlib.h>

typedef struct twig {
    struct twig *kids[2];
    struct twig *up;
    int height;
} twig;

twig *twig_new(void)
{
    return calloc(1, sizeof(twig));
}

void twig_free(twig *t)
{
    free(t);
}

/* takes the children and height of `from`, a fresh twig */
void twig_adopt(twig *t, twig *from)
{
    for (int i = 0; i < 2; ++i) {
        t->kids[i] = from->kids[i];
        if (t->kids[i] != NULL)
            t->kids[i]->up = t;
    }
    t->height = from->height;
}

int twig_grow(twig *t)
{
    return ++t->height;
}

int twig_height(const twig *t)
{
    return t->height;
}
