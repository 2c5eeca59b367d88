#!/usr/bin/env python3
"""Writes a C file with N units of 10 functions each (a constructor, a
destructor, mutators, observers with branches, a helper call chain), the
analyzer benchmark's generated module."""
import sys

TEMPLATE = """
typedef struct u{i} {{ int *items; int count, cap; long total; struct u{i} *next; }} u{i};
static int u{i}_grow(u{i} *s) {{ if (s->count < s->cap) return 0; s->cap = s->cap * 2 + 1;
  int *n = realloc(s->items, (size_t)s->cap * sizeof *n); if (!n) return -1; s->items = n; return 0; }}
u{i} *u{i}_new(void) {{ u{i} *s = calloc(1, sizeof *s); return s; }}
void u{i}_free(u{i} *s) {{ free(s->items); free(s); }}
int u{i}_push(u{i} *s, int x) {{ if (u{i}_grow(s)) return -1; s->items[s->count++] = x; s->total += x; return 0; }}
int u{i}_pop(u{i} *s) {{ if (s->count == 0) abort(); s->total -= s->items[--s->count]; return s->items[s->count]; }}
void u{i}_clear(u{i} *s) {{ s->count = 0; s->total = 0; }}
int u{i}_size(const u{i} *s) {{ return s->count; }}
bool u{i}_is_empty(const u{i} *s) {{ return s->count == 0; }}
long u{i}_sum(const u{i} *s) {{ long t = 0; for (int k = 0; k < s->count; k++) t += s->items[k]; return t; }}
int u{i}_get(const u{i} *s, int k, int *out) {{ if (k < 0 || k >= s->count) return -1; *out = s->items[k]; return 0; }}
"""

def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    print("#include <stdbool.h>\n#include <stdlib.h>")
    for i in range(n):
        print(TEMPLATE.format(i=i))

if __name__ == "__main__":
    main()
