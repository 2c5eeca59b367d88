/* reporter.c - the reporter's entry points (report.h): the sequences a
 * walk emits and its summary, each handed to its format's printer. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include "json_report.h"
#include "jsonl_report.h"
#include "plan.h"
#include "text_report.h"

void bcw__report_begin_state(void *reporter, const char *name, int index)
{
    bcw_reporter *r = reporter;
    r->state = name;
    r->state_index = index;
    r->last_len = 0;
    r->started_state = false;
}

int bcw__report_seq(void *payload, const bcw_seq *s)
{
    bcw_reporter *r = payload;
    if (r->f == NULL)
        return 0;
    if (r->format == BCW_REPORT_TEXT && !s->predicted)
        bcw__text_report_seq(r, s);
    else if (r->format == BCW_REPORT_JSONL)
        bcw__jsonl_report_seq(r, s);
    if (ferror(r->f))
        return bcw__error(BCW_ERROR, "writing the report failed");
    return 0;
}

/* Every step's text (bcw__step_text), by plan index, made before
 * anything of the state walk's summary is printed; NULL when out of
 * memory. */
static char **step_texts(const bcw_reporter *r)
{
    char **v = bcw__calloc(r->nsteps ? r->nsteps : 1, sizeof *v);
    for (unsigned i = 0; v != NULL && i < r->nsteps; i++)
        if ((v[i] = bcw__step_text(r->unit, &r->steps[i])) == NULL) {
            bcw__strv_free(v, i);
            return NULL;
        }
    return v;
}

int bcw__report_summary(bcw_reporter *r, const bcw_summary *s)
{
    FILE *f = r->f;
    if (f == NULL)
        return 0;
    char **texts = NULL;
    if (r->states != NULL && (texts = step_texts(r)) == NULL)
        return BCW_ENOMEM;
    int err = 0;
    switch (r->format) {
    case BCW_REPORT_TEXT:
        err = bcw__text_report_summary(r, s, texts);
        break;
    case BCW_REPORT_JSON:
        err = bcw__json_report_summary(r, s, texts, false);
        break;
    case BCW_REPORT_JSONL:
        err = bcw__json_report_summary(r, s, texts, true);
        break;
    }
    bcw__strv_free(texts, r->nsteps);
    if (err < 0)
        return err;
    if (fflush(f) != 0 || ferror(f))
        return bcw__error(BCW_ERROR, "writing the report failed");
    return 0;
}
