/* cov_report.c - a walk's coverage summarized, printed and written as an
 * lcov tracefile (cov_report.h), from the build's map and the walk's
 * hits. */
#include "cov_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "file.h"
#include "text.h"

#define LCOV_LIMIT ((size_t)1 << 30) /* an lcov file's bytes, at most */

/* --- the summary -------------------------------------------------- */

/* The hit of flag f (BCW_COV_NEVER for no flag). */
static uint8_t hit_of(const bcw_cov_map *m, const uint8_t *hits, uint32_t f)
{
    return f < m->nflags ? hits[f] : BCW_COV_NEVER;
}

/* The shorter of two hits. */
static uint8_t first_of(uint8_t a, uint8_t b)
{
    return a == BCW_COV_NEVER ? b : b == BCW_COV_NEVER || a < b ? a : b;
}

/* Calls `each` for every line of the unit's functions with code, once
 * per file and line, with the shortest hit of its blocks. */
static void each_line(const bcw_cov_map *m, const uint8_t *hits,
                      void (*each)(void *, const bcw_cov_line *, uint8_t),
                      void *ctx)
{
    for (uint32_t i = 0; i < m->nlines;) {
        const bcw_cov_line *l = &m->lines[i];
        bool unit = false;
        uint8_t at = BCW_COV_NEVER;
        uint32_t k = i;
        for (; k < m->nlines && m->lines[k].file == l->file &&
               m->lines[k].line == l->line;
             k++)
            if (m->fns[m->lines[k].fn].unit) {
                unit = true;
                at = first_of(at, hits[m->lines[k].flag]);
            }
        if (unit)
            each(ctx, l, at);
        i = k;
    }
}

/* Counts a thing first hit at `at` into total, hit and by_len. */
static void count(bcw_cov_summary *s, enum bcw_cov_kind kind, uint8_t at)
{
    s->total.n[kind]++;
    if (at == BCW_COV_NEVER)
        return;
    s->hit.n[kind]++;
    for (unsigned k = at - 1u; k < s->nlens; k++)
        s->by_len[k].n[kind]++;
}

static void count_line(void *ctx, const bcw_cov_line *l, uint8_t at)
{
    (void)l;
    count(ctx, BCW_COV_LINES, at);
}

/* The longest hit length + 1 among the unit's things. */
static unsigned lens_of(const bcw_cov_map *m, const uint8_t *hits)
{
    uint8_t top = 0;
    for (uint32_t i = 0; i < m->nlines; i++)
        if (m->fns[m->lines[i].fn].unit && hits[m->lines[i].flag] > top)
            top = hits[m->lines[i].flag];
    for (uint32_t i = 0; i < m->nbranches; i++)
        if (m->fns[m->branches[i].fn].unit && hits[m->branches[i].flag] > top)
            top = hits[m->branches[i].flag];
    for (uint32_t i = 0; i < m->nfns; i++)
        if (m->fns[i].unit && hit_of(m, hits, m->fns[i].flag) > top)
            top = hit_of(m, hits, m->fns[i].flag);
    return top;
}

int bcw__cov_summarize(const bcw_cov_map *m, const uint8_t *hits,
                       unsigned depth, bcw_cov_summary *s)
{
    memset(s, 0, sizeof *s);
    s->nlens = lens_of(m, hits);
    if (s->nlens < depth + 1)
        s->nlens = depth + 1;
    if (s->nlens > 0 &&
        (s->by_len = bcw__calloc(s->nlens, sizeof *s->by_len)) == NULL)
        return BCW_ENOMEM;
    each_line(m, hits, count_line, s);
    for (uint32_t i = 0; i < m->nbranches; i++)
        if (m->fns[m->branches[i].fn].unit)
            count(s, BCW_COV_BRANCHES, hits[m->branches[i].flag]);
    for (uint32_t i = 0; i < m->nfns; i++)
        if (m->fns[i].unit)
            count(s, BCW_COV_FUNCTIONS, hit_of(m, hits, m->fns[i].flag));
    return 0;
}

void bcw__cov_summary_free(bcw_cov_summary *s)
{
    free(s->by_len);
    memset(s, 0, sizeof *s);
}

/* --- lcov ----------------------------------------------------------- */

typedef struct lcov {
    bcw_buf *out;
    uint32_t file;
    uint64_t found, hit;
} lcov;

static void da_line(void *ctx, const bcw_cov_line *l, uint8_t at)
{
    lcov *c = ctx;
    if (l->file != c->file)
        return;
    bcw__buf_printf(c->out, "DA:%u,%d\n", (unsigned)l->line,
                    at != BCW_COV_NEVER);
    c->found++;
    c->hit += at != BCW_COV_NEVER;
}

/* Files in the order of their paths. */
static int cmp_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One SF record: file k's functions, branches and lines. */
static void lcov_file(const bcw_cov_map *m, const uint8_t *hits, uint32_t k,
                      const char *test, bcw_buf *out)
{
    bool any = false;
    for (uint32_t i = 0; i < m->nlines && !any; i++)
        any = m->lines[i].file == k && m->fns[m->lines[i].fn].unit;
    if (!any || m->files[k][0] == '\0')
        return;
    bcw__buf_printf(out, "TN:%s\nSF:%s\n", test, m->files[k]);
    unsigned fnf = 0, fnh = 0;
    for (uint32_t i = 0; i < m->nfns; i++) {
        const bcw_cov_fn *f = &m->fns[i];
        if (f->unit && f->file == k && f->line > 0)
            bcw__buf_printf(out, "FN:%u,%s\n", (unsigned)f->line, f->name);
    }
    for (uint32_t i = 0; i < m->nfns; i++) {
        const bcw_cov_fn *f = &m->fns[i];
        if (!f->unit || f->file != k || f->line == 0)
            continue;
        bool hit = hit_of(m, hits, f->flag) != BCW_COV_NEVER;
        bcw__buf_printf(out, "FNDA:%d,%s\n", hit, f->name);
        fnf++;
        fnh += hit;
    }
    bcw__buf_printf(out, "FNF:%u\nFNH:%u\n", fnf, fnh);
    /* lcov's block: the conditional's number in the file */
    unsigned brf = 0, brh = 0, block = 0;
    bool first = true;
    for (uint32_t i = 0; i < m->nbranches; i++) {
        const bcw_cov_branch *b = &m->branches[i];
        if (b->file != k || !m->fns[b->fn].unit)
            continue;
        if (b->arm == 0 && !first)
            block++;
        first = false;
        bool reached = hits[b->block] != BCW_COV_NEVER;
        bool taken = hits[b->flag] != BCW_COV_NEVER;
        if (reached)
            bcw__buf_printf(out, "BRDA:%u,%u,%u,%d\n", (unsigned)b->line, block,
                            (unsigned)b->arm, taken);
        else
            bcw__buf_printf(out, "BRDA:%u,%u,%u,-\n", (unsigned)b->line, block,
                            (unsigned)b->arm);
        brf++;
        brh += taken;
    }
    bcw__buf_printf(out, "BRF:%u\nBRH:%u\n", brf, brh);
    lcov c = {out, k, 0, 0};
    each_line(m, hits, da_line, &c);
    bcw__buf_printf(out, "LF:%llu\nLH:%llu\nend_of_record\n",
                    (unsigned long long)c.found, (unsigned long long)c.hit);
}

int bcw__cov_lcov(const bcw_cov_map *m, const uint8_t *hits, const char *test,
                  const char *path)
{
    const char **order = bcw__calloc(m->nfiles ? m->nfiles : 1, sizeof *order);
    if (order == NULL)
        return BCW_ENOMEM;
    for (uint32_t i = 0; i < m->nfiles; i++)
        order[i] = m->files[i];
    qsort(order, m->nfiles, sizeof *order, cmp_path);
    bcw_buf out;
    bcw__buf_init(&out, LCOV_LIMIT);
    for (uint32_t i = 0; i < m->nfiles; i++)
        for (uint32_t k = 0; k < m->nfiles; k++)
            if (m->files[k] == order[i])
                lcov_file(m, hits, k, test, &out);
    free(order);
    int err =
        out.err != 0
            ? out.err
            : bcw__write_file_atomic(path, out.data ? out.data : "", out.len);
    bcw__buf_free(&out);
    return err;
}

/* --- the report ----------------------------------------------------- */

#define TEXT_LISTED 20 /* the text report's lists stop after as many */

static double pct(uint64_t hit, uint64_t total)
{
    return total > 0 ? 100.0 * (double)hit / (double)total : 0.0;
}

#define ARM_TEXT 4200 /* a file's path, and room for the rest */

/* An arm as the reports name it: where its conditional is, then where
 * the arm goes ("list.c:58:9 to 59:5"), or its case ("case 3",
 * "default"); no column where the code has none. */
static void arm_text(char *buf, size_t size, const bcw_cov_map *m,
                     const bcw_cov_branch *b)
{
    int n = b->col > 0 ? snprintf(buf, size, "%s:%u:%u", m->files[b->file],
                                  (unsigned)b->line, (unsigned)b->col)
                       : snprintf(buf, size, "%s:%u", m->files[b->file],
                                  (unsigned)b->line);
    size_t at = n > 0 && (size_t)n < size ? (size_t)n : size - 1;
    if (b->kind == BCW_ARM_CASE)
        snprintf(buf + at, size - at, " case %lld", (long long)b->value);
    else if (b->kind == BCW_ARM_DEFAULT)
        snprintf(buf + at, size - at, " default");
    else if (b->to_line == 0)
        snprintf(buf + at, size - at, " arm %u", (unsigned)b->arm);
    else if (b->to_col == 0)
        snprintf(buf + at, size - at, " to %u", (unsigned)b->to_line);
    else
        snprintf(buf + at, size - at, " to %u:%u", (unsigned)b->to_line,
                 (unsigned)b->to_col);
}

static const char *const arm_kinds[] = {"branch", "case", "default"};

/* Is arm b one reached and not taken? */
static bool untaken(const bcw_cov_map *m, const uint8_t *hits,
                    const bcw_cov_branch *b)
{
    return m->fns[b->fn].unit && hits[b->block] != BCW_COV_NEVER &&
           hits[b->flag] == BCW_COV_NEVER;
}

static bool unreached(const bcw_cov_map *m, const uint8_t *hits,
                      const bcw_cov_fn *f)
{
    return f->unit && hit_of(m, hits, f->flag) == BCW_COV_NEVER;
}

static void print_text(FILE *f, const bcw_cov_map *m, const uint8_t *hits,
                       const bcw_cov_summary *s)
{
    const uint64_t *t = s->total.n, *h = s->hit.n;
    fprintf(f,
            "Covered %llu of %llu lines (%.1f%%), %llu of %llu branch arms "
            "(%.1f%%) and %llu of %llu functions of the unit's code\n",
            (unsigned long long)h[BCW_COV_LINES],
            (unsigned long long)t[BCW_COV_LINES],
            pct(h[BCW_COV_LINES], t[BCW_COV_LINES]),
            (unsigned long long)h[BCW_COV_BRANCHES],
            (unsigned long long)t[BCW_COV_BRANCHES],
            pct(h[BCW_COV_BRANCHES], t[BCW_COV_BRANCHES]),
            (unsigned long long)h[BCW_COV_FUNCTIONS],
            (unsigned long long)t[BCW_COV_FUNCTIONS]);
    fprintf(f, "Coverage by length (reached by the sequences up to it):\n");
    for (unsigned k = 0; k < s->nlens; k++) {
        const uint64_t *n = s->by_len[k].n;
        bool same =
            k > 0 && memcmp(n, s->by_len[k - 1].n, sizeof s->by_len[k].n) == 0;
        /* a run of lengths with no gain is one line ("3-16"; long covers
         * of the state walk make them) */
        unsigned last = k;
        while (same && last + 1 < s->nlens &&
               memcmp(n, s->by_len[last + 1].n, sizeof s->by_len[k].n) == 0)
            last++;
        char lens[32];
        if (last > k + 1)
            snprintf(lens, sizeof lens, "%u-%u", k, last);
        else
            snprintf(lens, sizeof lens, "%u", k);
        if (last == k + 1)
            last = k; /* two lengths: a line each */
        fprintf(f, "  %s: %llu lines, %llu arms, %llu functions%s\n", lens,
                (unsigned long long)n[BCW_COV_LINES],
                (unsigned long long)n[BCW_COV_BRANCHES],
                (unsigned long long)n[BCW_COV_FUNCTIONS],
                same ? " (no gain)" : "");
        k = last;
    }
    unsigned listed = 0;
    for (uint32_t i = 0; i < m->nfns; i++) {
        const bcw_cov_fn *fn = &m->fns[i];
        if (!unreached(m, hits, fn) || listed++ >= TEXT_LISTED)
            continue;
        fprintf(f, "%s %s", listed == 1 ? "Never reached:" : ",", fn->name);
        if (fn->line > 0)
            fprintf(f, " (%s:%u)", m->files[fn->file], (unsigned)fn->line);
    }
    if (listed > TEXT_LISTED)
        fprintf(f, ", and %u more\n", listed - TEXT_LISTED);
    else if (listed > 0)
        fputc('\n', f);
    listed = 0;
    for (uint32_t i = 0; i < m->nbranches; i++) {
        const bcw_cov_branch *b = &m->branches[i];
        if (!untaken(m, hits, b) || listed++ >= TEXT_LISTED)
            continue;
        char arm[ARM_TEXT];
        arm_text(arm, sizeof arm, m, b);
        fprintf(f, "%s %s (%s)", listed == 1 ? "Never taken:" : ";", arm,
                m->fns[b->fn].name);
    }
    if (listed > TEXT_LISTED)
        fprintf(f, "; and %u more\n", listed - TEXT_LISTED);
    else if (listed > 0)
        fputc('\n', f);
    if (m->switches_skipped > 0)
        fprintf(f,
                "Note: %u switches of more than %d cases have no branch arms "
                "of their own (their blocks are covered)\n",
                (unsigned)m->switches_skipped, BCW_COV_MAX_CASES);
}

static void print_json(FILE *f, const bcw_cov_map *m, const uint8_t *hits,
                       const bcw_cov_summary *s, const char *nl)
{
    static const char *const names[BCW_COV_KINDS] = {"lines", "branches",
                                                     "functions"};
    fputs("\"coverage\": {", f);
    for (unsigned k = 0; k < BCW_COV_KINDS; k++)
        fprintf(f, "\"%s\": {\"hit\": %llu, \"total\": %llu}, ", names[k],
                (unsigned long long)s->hit.n[k],
                (unsigned long long)s->total.n[k]);
    fputs("\"by_length\": [", f);
    for (unsigned k = 0; k < s->nlens; k++) {
        const uint64_t *n = s->by_len[k].n;
        fprintf(f,
                "%s{\"length\": %u, \"lines\": %llu, \"branches\": %llu, "
                "\"functions\": %llu}",
                k ? ", " : "", k, (unsigned long long)n[BCW_COV_LINES],
                (unsigned long long)n[BCW_COV_BRANCHES],
                (unsigned long long)n[BCW_COV_FUNCTIONS]);
    }
    fprintf(f, "],%s  \"unreached_functions\": [", nl);
    bool first = true;
    for (uint32_t i = 0; i < m->nfns; i++) {
        const bcw_cov_fn *fn = &m->fns[i];
        if (!unreached(m, hits, fn))
            continue;
        fputs(first ? "{\"name\": " : ", {\"name\": ", f);
        first = false;
        bcw__json_str(f, fn->name);
        fputs(", \"file\": ", f);
        bcw__json_str(f, fn->line > 0 ? m->files[fn->file] : "");
        fprintf(f, ", \"line\": %u}", (unsigned)fn->line);
    }
    fprintf(f, "],%s  \"untaken_branches\": [", nl);
    first = true;
    for (uint32_t i = 0; i < m->nbranches; i++) {
        const bcw_cov_branch *b = &m->branches[i];
        if (!untaken(m, hits, b))
            continue;
        fputs(first ? "{\"function\": " : ", {\"function\": ", f);
        first = false;
        bcw__json_str(f, m->fns[b->fn].name);
        fputs(", \"file\": ", f);
        bcw__json_str(f, m->files[b->file]);
        fprintf(f, ", \"line\": %u, \"column\": %u, \"arm\": \"%s\"",
                (unsigned)b->line, (unsigned)b->col, arm_kinds[b->kind]);
        if (b->kind == BCW_ARM_CASE)
            fprintf(f, ", \"value\": %lld", (long long)b->value);
        fprintf(f, ", \"to_line\": %u, \"to_column\": %u",
                (unsigned)b->to_line, (unsigned)b->to_col);
        fputc('}', f);
    }
    fprintf(f, "], \"switches_skipped\": %u},%s", (unsigned)m->switches_skipped,
            nl);
}

int bcw__cov_print(FILE *f, const bcw_cov_map *m, const uint8_t *hits,
                   unsigned depth, bool json, const char *nl)
{
    bcw_cov_summary s;
    int err = bcw__cov_summarize(m, hits, depth, &s);
    if (err < 0)
        return err;
    if (json)
        print_json(f, m, hits, &s, nl);
    else
        print_text(f, m, hits, &s);
    bcw__cov_summary_free(&s);
    return 0;
}

/* --- HTML ------------------------------------------------------------- */

typedef struct file_count {
    bcw_cov_count total, hit;
} file_count;

static void file_line(void *ctx, const bcw_cov_line *l, uint8_t at)
{
    file_count *fc = &((file_count *)ctx)[l->file];
    fc->total.n[BCW_COV_LINES]++;
    fc->hit.n[BCW_COV_LINES] += at != BCW_COV_NEVER;
}

static void html_cell(FILE *f, uint64_t hit, uint64_t total)
{
    fprintf(f, "<td>%llu / %llu</td><td>%.1f%%</td>", (unsigned long long)hit,
            (unsigned long long)total, pct(hit, total));
}

void bcw__cov_html(FILE *f, const bcw_cov_map *m, const uint8_t *hits,
                   unsigned depth)
{
    bcw_cov_summary s;
    file_count *fc = bcw__calloc(m->nfiles ? m->nfiles : 1, sizeof *fc);
    if (fc == NULL || bcw__cov_summarize(m, hits, depth, &s) < 0) {
        free(fc);
        fputs("<p>Out of memory: no coverage table.</p>\n", f);
        return;
    }
    each_line(m, hits, file_line, fc);
    for (uint32_t i = 0; i < m->nbranches; i++) {
        const bcw_cov_branch *b = &m->branches[i];
        if (!m->fns[b->fn].unit)
            continue;
        fc[b->file].total.n[BCW_COV_BRANCHES]++;
        fc[b->file].hit.n[BCW_COV_BRANCHES] += hits[b->flag] != BCW_COV_NEVER;
    }
    for (uint32_t i = 0; i < m->nfns; i++) {
        const bcw_cov_fn *fn = &m->fns[i];
        if (!fn->unit || fn->line == 0)
            continue;
        fc[fn->file].total.n[BCW_COV_FUNCTIONS]++;
        fc[fn->file].hit.n[BCW_COV_FUNCTIONS] +=
            hit_of(m, hits, fn->flag) != BCW_COV_NEVER;
    }
    fputs("<table id=\"coverage\"><thead><tr><th class=\"l\">file</th>"
          "<th colspan=\"2\">lines</th><th colspan=\"2\">branch arms</th>"
          "<th colspan=\"2\">functions</th></tr></thead><tbody>\n",
          f);
    for (uint32_t k = 0; k < m->nfiles; k++) {
        const bcw_cov_count *t = &fc[k].total, *h = &fc[k].hit;
        if (t->n[BCW_COV_LINES] == 0 && t->n[BCW_COV_FUNCTIONS] == 0)
            continue;
        fputs("<tr><td class=\"l\">", f);
        bcw__xml_str(f, m->files[k]);
        fputs("</td>", f);
        for (unsigned c = 0; c < BCW_COV_KINDS; c++)
            html_cell(f, h->n[c], t->n[c]);
        fputs("</tr>\n", f);
    }
    fputs("<tr><th class=\"l\">all</th>", f);
    for (unsigned c = 0; c < BCW_COV_KINDS; c++)
        html_cell(f, s.hit.n[c], s.total.n[c]);
    fputs("</tr>\n</tbody></table>\n<p>By length: what the sequences up to "
          "each length reached.</p>\n<table id=\"by-length\"><thead><tr>"
          "<th>length</th><th>lines</th><th>branch arms</th><th>functions"
          "</th></tr></thead><tbody>\n",
          f);
    for (unsigned k = 0; k < s.nlens; k++) {
        const uint64_t *n = s.by_len[k].n;
        fprintf(f,
                "<tr><td>%u</td><td>%llu</td><td>%llu</td><td>%llu</td>"
                "</tr>\n",
                k, (unsigned long long)n[BCW_COV_LINES],
                (unsigned long long)n[BCW_COV_BRANCHES],
                (unsigned long long)n[BCW_COV_FUNCTIONS]);
    }
    fputs("</tbody></table>\n", f);
    bool first = true;
    for (uint32_t i = 0; i < m->nfns; i++) {
        const bcw_cov_fn *fn = &m->fns[i];
        if (!unreached(m, hits, fn))
            continue;
        fputs(first ? "<p>Never reached:</p>\n<ul id=\"unreached\">\n" : "", f);
        first = false;
        fputs("<li>", f);
        bcw__xml_str(f, fn->name);
        if (fn->line > 0) {
            fputs(" (", f);
            bcw__xml_str(f, m->files[fn->file]);
            fprintf(f, ":%u)", (unsigned)fn->line);
        }
        fputs("</li>\n", f);
    }
    fputs(first ? "" : "</ul>\n", f);
    first = true;
    for (uint32_t i = 0; i < m->nbranches; i++) {
        const bcw_cov_branch *b = &m->branches[i];
        if (!untaken(m, hits, b))
            continue;
        fputs(first ? "<p>Never taken:</p>\n<ul id=\"untaken\">\n" : "", f);
        first = false;
        char arm[ARM_TEXT];
        arm_text(arm, sizeof arm, m, b);
        fputs("<li>", f);
        bcw__xml_str(f, arm);
        fputs(" (", f);
        bcw__xml_str(f, m->fns[b->fn].name);
        fputs(")</li>\n", f);
    }
    fputs(first ? "" : "</ul>\n", f);
    bcw__cov_summary_free(&s);
    free(fc);
}
