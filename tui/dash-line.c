/* dash-line.c — a row of fields fitted to a width (see dash-line.h for the
 * shorten / drop / cut order). */
#include "config.h"

#include "dash-line.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dash_line_init(struct dash_line *l, const char *sep)
{
	l->sep = sep;
	l->n = 0;
	l->used = 0;
	l->buf[0] = '\0';
}

/* Stores printf output in l->buf; returns its offset or DASH_LINE_NONE. */
static size_t dash_line_store(struct dash_line *l, const char *fmt, va_list ap)
{
	size_t room = sizeof(l->buf) - l->used;
	int n = vsnprintf(l->buf + l->used, room, fmt, ap);
	if (n < 0 || (size_t)n >= room) {
		l->buf[l->used] = '\0';
		return DASH_LINE_NONE;
	}
	size_t at = l->used;
	l->used += (size_t)n + 1;
	return at;
}

void dash_line_add(struct dash_line *l, int prio, const char *fmt, ...)
{
	va_list ap;

	if (l->n >= DASH_LINE_FIELDS)
		return;
	va_start(ap, fmt);
	size_t at = dash_line_store(l, fmt, ap);
	va_end(ap);
	if (at == DASH_LINE_NONE)
		return;
	struct dash_line_field *f = &l->f[l->n++];
	f->text = at;
	f->brief = DASH_LINE_NONE;
	f->prio = prio;
}

void dash_line_brief(struct dash_line *l, const char *fmt, ...)
{
	va_list ap;

	if (l->n == 0)
		return;
	va_start(ap, fmt);
	size_t at = dash_line_store(l, fmt, ap);
	va_end(ap);
	l->f[l->n - 1].brief = at;
}

enum { DASH_FORM_FULL, DASH_FORM_BRIEF, DASH_FORM_DROPPED };

static int dash_line_prio(const struct dash_line_field *f)
{
	return f->prio & 0xff;
}

static bool dash_line_keep(const struct dash_line_field *f)
{
	return dash_line_prio(f) == 0 || (f->prio & DASH_LINE_KEEP);
}

static const char *dash_line_text(const struct dash_line *l, size_t i, const int *form)
{
	const struct dash_line_field *f = &l->f[i];
	return l->buf + (form[i] == DASH_FORM_BRIEF ? f->brief : f->text);
}

/* Joins the fields in their forms into out; returns the columns. */
static int dash_line_join(const struct dash_line *l, const int *form, char *out, size_t cap)
{
	size_t o = 0;
	bool first = true;

	out[0] = '\0';
	for (size_t i = 0; i < l->n; i++) {
		if (form[i] == DASH_FORM_DROPPED)
			continue;
		const char *sep = first ? "" : (l->f[i].prio & DASH_LINE_GLUE) ? " " : l->sep;
		int n = snprintf(out + o, cap - o, "%s%s", sep, dash_line_text(l, i, form));
		if (n < 0 || (size_t)n >= cap - o) {
			o = cap - 1;
			break;
		}
		o += (size_t)n;
		first = false;
	}
	out[o] = '\0';
	return dash_fit_width(out);
}

size_t dash_line_render(const struct dash_line *l, char *out, size_t cap, int width)
{
	int form[DASH_LINE_FIELDS] = {0};
	char tmp[DASH_LINE_BYTES + DASH_LINE_FIELDS * 8];
	int maxp = 0;

	if (cap == 0)
		return 0;
	for (size_t i = 0; i < l->n; i++)
		maxp = dash_line_prio(&l->f[i]) > maxp ? dash_line_prio(&l->f[i]) : maxp;
	bool fits = width <= 0 || dash_line_join(l, form, tmp, sizeof(tmp)) <= width;
	/* 1-2. from the least important priority: shorten its fields, then
	 * drop them (the rightmost first) */
	for (int p = maxp; p >= 0 && !fits; p--) {
		for (size_t i = 0; i < l->n; i++)
			if (dash_line_prio(&l->f[i]) == p && l->f[i].brief != DASH_LINE_NONE)
				form[i] = DASH_FORM_BRIEF;
		fits = dash_line_join(l, form, tmp, sizeof(tmp)) <= width;
		for (size_t i = l->n; i-- > 0 && !fits;) {
			if (dash_line_prio(&l->f[i]) != p || dash_line_keep(&l->f[i]))
				continue;
			form[i] = DASH_FORM_DROPPED;
			fits = dash_line_join(l, form, tmp, sizeof(tmp)) <= width;
		}
	}
	/* Take back the full forms that fit after all, most important first. */
	for (int p = 0; fits && p <= maxp; p++) {
		int was[DASH_LINE_FIELDS];
		memcpy(was, form, sizeof(was));
		for (size_t i = 0; i < l->n; i++)
			if (dash_line_prio(&l->f[i]) == p && form[i] == DASH_FORM_BRIEF)
				form[i] = DASH_FORM_FULL;
		if (dash_line_join(l, form, tmp, sizeof(tmp)) > width)
			memcpy(form, was, sizeof(was));
	}
	dash_line_join(l, form, tmp, sizeof(tmp));
	/* 3. cut at a word */
	if (width > 0)
		return dash_fit_words(out, cap, tmp, width);
	return dash_fit(out, cap, tmp, DASH_LINE_BYTES, false, false);
}
