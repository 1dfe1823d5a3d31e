/* thread-out.c — one thread row in the formats (thread-out.h). */
#include "config.h"

#include "thread-out.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "activity.h"
#include "latency-out.h"
#include "runqlat.h"
#include "text-safe.h"
#include "thread-field.h"

/* A task state as one safe letter ('?' for anything else). */
static char thread_out_state(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ? c : '?';
}

static const char *thread_out_activity(const struct model_thread *t)
{
	return t->activity ? activity_name(t->activity) : NULL;
}

void thread_out_json(struct json_out *j, const struct model_sample *m, const struct model_thread *t)
{
	struct runqlat_hist h;
	char state[2] = {thread_out_state(t->state), '\0'};
	json_out_object(j);
	for (size_t k = 0; k < THREAD_FIELD_N; k++) {
		const struct thread_field *f = &thread_field_table[k];
		switch (f->kind) {
		case THREAD_FIELD_KIND_INT:
			json_out_kint(j, f->key, (long long)thread_field_value(f, t));
			break;
		case THREAD_FIELD_KIND_RATE:
			json_out_knum(j, f->key, thread_field_value(f, t), f->decimals);
			break;
		case THREAD_FIELD_KIND_NAME:
			json_out_kbytes(j, f->key, t->name, t->name_len);
			break;
		case THREAD_FIELD_KIND_STATE:
			json_out_kstr(j, f->key, state);
			break;
		case THREAD_FIELD_KIND_LATENCY:
			latency_out_json(j, f->key, m->lat_on, &t->latency,
					 runqlat_thread_hist(m, t, &h) ? &h : NULL);
			break;
		case THREAD_FIELD_KIND_ACTIVITY:
			json_out_kstr(j, f->key, thread_out_activity(t));
			break;
		}
	}
	json_out_end(j);
}

void thread_out_csv_names(char *buf, size_t cap, bool last)
{
	size_t o = 0;
	if (cap == 0)
		return;
	buf[0] = '\0';
	for (size_t k = 0; k < THREAD_FIELD_N; k++) {
		const struct thread_field *f = &thread_field_table[k];
		if (f->csv_last != last)
			continue;
		int n = snprintf(buf + o, cap - o, "%s%s", o ? "," : "", f->csv);
		if (n < 0 || (size_t)n >= cap - o)
			return;
		o += (size_t)n;
	}
}

void thread_out_csv(struct csv_out *c, const struct model_sample *m, const struct model_thread *t,
		    bool last)
{
	bool lat = m->lat_on && t->latency.events > 0;
	char state[2] = {thread_out_state(t->state), '\0'};
	for (size_t k = 0; k < THREAD_FIELD_N; k++) {
		const struct thread_field *f = &thread_field_table[k];
		if (f->csv_last != last)
			continue;
		switch (f->kind) {
		case THREAD_FIELD_KIND_INT:
			csv_out_int(c, (long long)thread_field_value(f, t));
			break;
		case THREAD_FIELD_KIND_RATE:
			csv_out_num(c, thread_field_value(f, t), f->decimals);
			break;
		case THREAD_FIELD_KIND_NAME:
			csv_out_bytes(c, t->name, t->name_len);
			break;
		case THREAD_FIELD_KIND_STATE:
			csv_out_str(c, state);
			break;
		case THREAD_FIELD_KIND_LATENCY:
			csv_out_num(c, lat ? t->latency.p50_s * 1e3 : (double)NAN, f->decimals);
			csv_out_num(c, lat ? t->latency.p99_s * 1e3 : (double)NAN, f->decimals);
			csv_out_num(c, lat ? t->latency.max_s * 1e3 : (double)NAN, f->decimals);
			if (m->lat_on)
				csv_out_int(c, (long long)t->latency.events);
			else
				csv_out_empty(c);
			break;
		case THREAD_FIELD_KIND_ACTIVITY:
			csv_out_str(c, thread_out_activity(t));
			break;
		}
	}
}

/* The separator before field k of the text table: two spaces before the
 * first and before the activity (a word, not a column), one otherwise. */
static const char *thread_out_sep(size_t k)
{
	return k == 0 || thread_field_table[k].kind == THREAD_FIELD_KIND_ACTIVITY ? "  " : " ";
}

void thread_out_text_head(FILE *f, bool lat_on)
{
	for (size_t k = 0; k < THREAD_FIELD_N; k++) {
		const struct thread_field *t = &thread_field_table[k];
		if (t->kind == THREAD_FIELD_KIND_LATENCY && !lat_on)
			continue;
		const char *h = t->header;
		/* one column per word of the header: the latency's three */
		while (*h) {
			size_t n = strcspn(h, " ");
			fprintf(f, "%s%*.*s", h == t->header ? thread_out_sep(k) : " ", t->width,
				(int)n, h);
			h += n + (h[n] == ' ');
		}
	}
	fputc('\n', f);
}

void thread_out_text(FILE *f, const struct model_sample *m, const struct model_thread *t)
{
	char name[4 * MODEL_NAME_MAX], ms[16];
	for (size_t k = 0; k < THREAD_FIELD_N; k++) {
		const struct thread_field *x = &thread_field_table[k];
		const char *sep = thread_out_sep(k);
		int cols = x->width < 0 ? -x->width : x->width;
		switch (x->kind) {
		case THREAD_FIELD_KIND_INT:
			fprintf(f, "%s%*d", sep, x->width, (int)thread_field_value(x, t));
			break;
		case THREAD_FIELD_KIND_RATE:
			fprintf(f, "%s%*.1f", sep, x->width, thread_field_value(x, t));
			break;
		case THREAD_FIELD_KIND_NAME: {
			/* kernel threads' names run past comm's 15 bytes: the
			 * text table's columns stay where the header put them */
			text_safe_cell(t->name, t->name_len, cols, true, name, sizeof(name));
			fprintf(f, "%s%s", sep, name);
			break;
		}
		case THREAD_FIELD_KIND_STATE:
			fprintf(f, "%s%c", sep, thread_out_state(t->state));
			break;
		case THREAD_FIELD_KIND_LATENCY:
			if (!m->lat_on)
				break;
			latency_out_ms(ms, sizeof(ms), x->width, &t->latency, t->latency.p50_s);
			fprintf(f, "%s%s", sep, ms);
			latency_out_ms(ms, sizeof(ms), x->width, &t->latency, t->latency.p99_s);
			fprintf(f, " %s", ms);
			latency_out_ms(ms, sizeof(ms), x->width, &t->latency, t->latency.max_s);
			fprintf(f, " %s", ms);
			break;
		case THREAD_FIELD_KIND_ACTIVITY: {
			const char *a = thread_out_activity(t);
			fprintf(f, "%s%s", sep, a ? a : "-");
			break;
		}
		}
	}
	fputc('\n', f);
}
