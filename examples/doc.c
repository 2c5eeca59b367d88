/* doc.c - a document that takes a font made only by a variadic
 * constructor: no walk can call font_load(name, ...), so doc_set_font's
 * font is zeroed storage, which bcwalk fabricated.  doc_set_font reads
 * the font's glyph table, NULL in zeroed storage, and crashes: a halt
 * after a fabricated argument is *suspect*, counted apart and never
 * reported as the library's failure, while doc_scale(d, -1) aborts on
 * arguments bcwalk made properly and is the library's. */
#include <stdarg.h>
#include <stdlib.h>

typedef struct font {
    const unsigned char *glyphs;
    int size;
} font;

typedef struct doc {
    int width, glyph, scale;
} doc;

static const unsigned char default_glyphs[] = {8, 9, 10};

font *font_load(const char *name, ...)
{
    va_list ap;
    va_start(ap, name);
    int size = va_arg(ap, int);
    va_end(ap);
    font *f = malloc(sizeof *f);
    if (f == NULL)
        return NULL;
    f->glyphs = default_glyphs;
    f->size = size;
    return f;
}

int font_size(const font *f)
{
    return f->size;
}

doc *doc_new(void)
{
    doc *d = calloc(1, sizeof *d);
    if (d != NULL)
        d->scale = 1;
    return d;
}

void doc_set_font(doc *d, const font *f)
{
    d->glyph = f->glyphs[0];
}

int doc_scale(doc *d, int by)
{
    if (by < 0)
        abort();
    d->scale = by;
    return d->scale;
}

int doc_width(const doc *d)
{
    return d->width * d->scale;
}

void doc_free(doc *d)
{
    free(d);
}
