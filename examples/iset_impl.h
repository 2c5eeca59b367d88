/* iset_impl.h - iset's layout, shared by its two source files. */
#ifndef ISET_IMPL_H
#define ISET_IMPL_H

#include "iset.h"

#define ISET_SLOTS 8

struct iset {
    int used[ISET_SLOTS];
    int keys[ISET_SLOTS];
    int size;
};

#endif
