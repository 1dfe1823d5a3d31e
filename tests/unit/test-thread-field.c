/* test-thread-field.c — the table of a thread's fields
 * (monitor/thread-field.h) drives every face: each field written to JSON
 * reads back from a recording as the value written; the CSV header and
 * every row carry the table's columns, in its order; the text report's
 * head line is the table's headers; the dashboard's threads table has a
 * column per field with a dashboard head, in the table's places, each
 * sortable field's head its sort title; and the OpenMetrics exposition
 * has a family per field with a metric, a series per thread and field. */
#include "tl-test.h"

#include <math.h>

#include "dash-format.h"
#include "metrics.h"
#include "recording-impl.h"
#include "recording-parse.h"
#include "report.h"
#include "thread-field-impl.h"

#include "recording-fake.h"

/* A sample whose thread 0 has a value of its own in every INT and RATE
 * field (k + 1 for the k-th, a half above for a rate: exact at any
 * decimals), so that a field
 * read back from another field's key cannot pass. */
static void make(struct recording_fake *f)
{
	recording_fake_make(f, 0);
	for (size_t k = 0; k < THREAD_FIELD_N; k++) {
		const struct thread_field *x = &thread_field_table[k];
		double v = (double)(k + 1) + (x->kind == THREAD_FIELD_KIND_RATE ? 0.5 : 0);
		thread_field_set(x, &f->t[0], v);
	}
}

/* noinline: inlined, gcc 12 takes the memstream's buffer for a dangling
 * pointer to a local. */
__attribute__((noinline)) static char *sample(enum format fmt, const struct recording_fake *f,
					      bool header)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&buf, &len);
	struct model_sample m;
	model_sample_init(&m);
	model_sample_fill(&m, &f->snap, &f->rates, true);
	report_sample(o, fmt, &m, &f->w, NULL, header);
	model_sample_free(&m);
	fclose(o);
	return buf;
}

/* An INT or RATE field's value in a thread's rates: where the recording
 * reader sets it (rate_offset), the writers read it from the row. */
static double rate_value(const struct thread_field *x, const struct thread_rate *t)
{
	const char *base = (const char *)t + x->rate_offset;
	int i;
	double d;
	if (x->kind == THREAD_FIELD_KIND_INT) {
		memcpy(&i, base, sizeof(i));
		return i;
	}
	memcpy(&d, base, sizeof(d));
	return d;
}

static void test_json_reads_back(void **state)
{
	(void)state;
	struct recording_fake f;
	make(&f);
	char *json = sample(FORMAT_JSON, &f, false);
	struct recording_sample s;
	recording_parse_sample_init(&s);
	char err[256];
	assert_int_equal(recording_parse_sample(json, strlen(json), &s, err, sizeof(err)), 0);
	assert_int_equal(s.rates.nthreads, 3);
	const struct thread_rate *t = &s.rates.threads[0];
	int numeric = 0;
	for (size_t k = 0; k < THREAD_FIELD_N; k++) {
		const struct thread_field *x = &thread_field_table[k];
		char key[64];
		snprintf(key, sizeof(key), "\"%s\":", x->key);
		if (!strstr(json, key))
			fail_msg("JSON has no key %s: %s", x->key, json);
		if (x->kind != THREAD_FIELD_KIND_INT && x->kind != THREAD_FIELD_KIND_RATE)
			continue;
		double want = rate_value(x, &f.t[0]), got = rate_value(x, t);
		if (fabs(got - want) > 1e-9)
			fail_msg("%s: wrote %g, read back %g", x->key, want, got);
		numeric++;
	}
	assert_true(numeric >= 9);
	assert_int_equal(t->name_len, f.t[0].name_len);
	assert_memory_equal(t->name, f.t[0].name, t->name_len);
	assert_int_equal(t->state, f.t[0].state);
	recording_parse_sample_free(&s);
	free(json);
}

/* The CSV columns of a line, into v (each a malloc'd copy); returns the
 * count.  The header and these rows quote nothing but thread 0's name,
 * which the fake sample keeps plain. */
static size_t columns(const char *line, char **v, size_t cap)
{
	size_t n = 0;
	const char *p = line;
	while (n < cap) {
		size_t l = strcspn(p, ",\n");
		v[n++] = strndup(p, l);
		if (p[l] != ',')
			break;
		p += l + 1;
	}
	return n;
}

static void test_csv_columns(void **state)
{
	(void)state;
	struct recording_fake f;
	make(&f);
	f.rates.nthreads = 1; /* thread 0: a plain name */
	char *csv = sample(FORMAT_CSV, &f, true);
	char *head[64], *row[64];
	size_t nh = columns(csv, head, 64);
	size_t nr = columns(strchr(csv, '\n') + 1, row, 64);
	assert_int_equal(nr, nh);
	/* The table's columns, in its order: those before the sample's
	 * columns from "pid" on, the others after "verdict". */
	size_t i = 0;
	while (i < nh && strcmp(head[i], "pid") != 0)
		i++;
	for (int last = 0; last < 2; last++) {
		if (last) {
			while (i < nh && strcmp(head[i], "verdict") != 0)
				i++;
			i++;
		}
		for (size_t k = 0; k < THREAD_FIELD_N; k++) {
			const struct thread_field *x = &thread_field_table[k];
			if (x->csv_last != (last == 1))
				continue;
			char *names = strdup(x->csv), *save = NULL;
			for (char *c = strtok_r(names, ",", &save); c;
			     c = strtok_r(NULL, ",", &save)) {
				assert_true(i < nh);
				assert_string_equal(head[i], c);
				if (x->kind == THREAD_FIELD_KIND_INT ||
				    x->kind == THREAD_FIELD_KIND_RATE) {
					double got = strtod(row[i], NULL);
					assert_true(fabs(got - rate_value(x, &f.t[0])) < 1e-9);
				}
				i++;
			}
			free(names);
		}
	}
	assert_int_equal(i, nh);
	for (size_t k = 0; k < nh; k++)
		free(head[k]);
	for (size_t k = 0; k < nr; k++)
		free(row[k]);
	free(csv);
}

static void test_text_head(void **state)
{
	(void)state;
	struct recording_fake f;
	make(&f);
	char *text = sample(FORMAT_TEXT, &f, false);
	char *line = strstr(text, "  PID");
	assert_non_null(line);
	line = strndup(line, strcspn(line, "\n"));
	/* Every header word in the table's order, latency's left out
	 * without the BPF collector. */
	char *save = NULL, *w = strtok_r(line, " ", &save);
	for (size_t k = 0; k < THREAD_FIELD_N; k++) {
		const struct thread_field *x = &thread_field_table[k];
		if (x->kind == THREAD_FIELD_KIND_LATENCY)
			continue;
		assert_non_null(w);
		assert_string_equal(w, x->header);
		w = strtok_r(NULL, " ", &save);
	}
	assert_null(w);
	free(line);
	free(text);
}

/* The words of s (space-separated), into v; returns the count. */
static size_t words(const char *s, char v[][32], size_t cap)
{
	size_t n = 0;
	while (*s && n < cap) {
		s += strspn(s, " ");
		size_t l = strcspn(s, " ");
		if (!l)
			break;
		snprintf(v[n++], 32, "%.*s", (int)l, s);
		s += l;
	}
	return n;
}

static void test_dash_columns(void **state)
{
	(void)state;
	struct dash_cols c;
	/* At this width, with latency, every group of columns shows. */
	dash_format_cols_lat(240, true, true, &c);
	assert_true(c.pid && c.split && c.vcsw && c.p50 && c.lat && c.act);
	char head[1024], want[64][32], got[64][32];
	dash_format_thread_head(head, sizeof(head), &c, THREAD_FIELD_N);
	/* The table's dashboard heads, by their places, then MARK. */
	size_t n = 0;
	for (int col = 1; col <= THREAD_FIELD_N; col++) {
		int found = 0;
		for (size_t k = 0; k < THREAD_FIELD_N; k++) {
			const struct thread_field *x = &thread_field_table[k];
			if (x->dash == THREAD_FIELD_DASH_NONE || x->dash_col != col)
				continue;
			found++;
			n += words(x->dash_head, want + n, 64 - n);
		}
		assert_true(found <= 1); /* one field a place */
	}
	snprintf(want[n++], 32, "MARK");
	assert_int_equal(words(head, got, 64), n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(got[i], want[i]);
	for (size_t k = 0; k < THREAD_FIELD_N; k++) {
		const struct thread_field *x = &thread_field_table[k];
		if (x->dash == THREAD_FIELD_DASH_NONE) {
			assert_null(x->sort_title);
			continue;
		}
		assert_true(x->dash_col >= 1 && x->dash_col <= THREAD_FIELD_N);
		/* A sortable column's head is its sort title. */
		char h[16][32];
		size_t nh = words(x->dash_head, h, 16), i = 0;
		while (x->sort_title && i < nh && strcmp(h[i], x->sort_title) != 0)
			i++;
		assert_true(!x->sort_title || i < nh);
	}
	/* A row has a cell under each head; a rate shows at its head's place
	 * with the table's decimals. */
	struct model_thread r;
	memset(&r, 0, sizeof(r));
	r.pid = 100, r.tid = 101, r.state = 'R', r.cpu = 1;
	memcpy(r.name, "w1", 2), r.name_len = 2;
	r.latency.events = 10;
	r.activity = 1;
	size_t at = 0;
	for (int col = 1; col <= THREAD_FIELD_N; col++)
		for (size_t k = 0; k < THREAD_FIELD_N; k++) {
			const struct thread_field *x = &thread_field_table[k];
			if (x->dash == THREAD_FIELD_DASH_NONE || x->dash_col != col)
				continue;
			char h[16][32];
			size_t nh = words(x->dash_head, h, 16);
			for (size_t i = 0; i < nh; i++)
				want[at + i][0] = '\0';
			if (x->kind == THREAD_FIELD_KIND_RATE) {
				double v = 10.25 + (double)k;
				memcpy((char *)&r + x->offset, &v, sizeof(v));
				snprintf(want[at], 32, "%.*f", x->dash_decimals, v);
			}
			at += nh;
		}
	char row[1024];
	dash_format_thread_row(row, sizeof(row), &c, &r, LABVIEW_MARK_NONE);
	assert_int_equal(words(row, got, 64), at);
	for (size_t i = 0; i < at; i++)
		if (want[i][0])
			assert_string_equal(got[i], want[i]);
}

/* Tab cycles the sortable fields by their rank, the latency's only where
 * it is measured; Shift-Tab goes back. */
static void test_sort_cycle(void **state)
{
	(void)state;
	static const char *const with_lat[] = {"CPU%", "WAIT%", "IVCS/s", "TID", "NAME", "P99"};
	enum thread_field_id f = THREAD_FIELD_N;
	for (size_t i = 0; i < 2 * 6; i++) {
		f = thread_field_sort_next(f, +1, true);
		assert_string_equal(thread_field_table[f].sort_title, with_lat[i % 6]);
	}
	f = THREAD_FIELD_N;
	for (size_t i = 0; i < 5; i++) {
		f = thread_field_sort_next(f, -1, false);
		assert_string_equal(thread_field_table[f].sort_title, with_lat[4 - i]);
	}
	assert_int_equal(thread_field_sort_next(THREAD_FIELD_NAME, +1, false),
			 THREAD_FIELD_CPU_PCT);
	/* One rank a sortable field, 1 up to their number. */
	int seen = 0, n = 0;
	for (size_t k = 0; k < THREAD_FIELD_N; k++)
		if (thread_field_table[k].sort_title) {
			int r = thread_field_table[k].sort_rank;
			assert_true(r >= 1 && r < 32 && !(seen & 1 << r));
			seen |= 1 << r, n++;
		}
	assert_int_equal(seen, ((1 << n) - 1) << 1);
}

static void test_metric_families(void **state)
{
	(void)state;
	struct recording_fake f;
	make(&f);
	/* Live counters for each thread (a recording has none). */
	struct thread_sample ts[3];
	memset(ts, 0, sizeof(ts));
	for (size_t i = 0; i < 3; i++) {
		ts[i].pid = f.t[i].pid, ts[i].tid = f.t[i].tid;
		memcpy(ts[i].name, f.t[i].name, sizeof(ts[i].name));
		ts[i].name_len = f.t[i].name_len;
		ts[i].utime = 100 + i, ts[i].stime = 10 + i, ts[i].wait_ns = 1000000 * (i + 1);
		ts[i].vcsw = 5 + i, ts[i].ivcsw = 2 + i;
	}
	f.snap.threads.v = ts;
	f.snap.threads.n = 3;
	struct session s;
	struct session_impl impl;
	memset(&s, 0, sizeof(s));
	memset(&impl, 0, sizeof(impl));
	s.impl = &impl;
	s.kind = SESSION_ATTACH;
	s.target = f.t[0].pid;
	s.have_rates = true;
	model_sample_init(&s.model);
	model_sample_fill(&s.model, &f.snap, &f.rates, true);
	f.snap.threads.v = NULL, f.snap.threads.n = 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&buf, &len);
	struct metrics_target t = {&s, "attach"};
	struct metrics_opts mo = {.max_threads = 100, .samples = 1};
	assert_int_equal(metrics_write(o, METRICS_OPENMETRICS, &t, 1, &mo), 0);
	fclose(o);
	int families = 0;
	for (size_t k = 0; k < THREAD_FIELD_N; k++) {
		const struct thread_field *x = &thread_field_table[k];
		if (!x->metric)
			continue;
		families++;
		char want[256];
		snprintf(want, sizeof(want), "# TYPE %s counter\n", x->metric->family);
		if (!strstr(buf, want))
			fail_msg("no family %s: %s", x->metric->family, buf);
		/* a series of every thread (the model's rows) for the field */
		assert_int_equal(s.model.ncounted, 3);
		for (size_t i = 0; i < s.model.ncounted; i++) {
			snprintf(want, sizeof(want), "%s_total{pid=\"%d\",tid=\"%d\"",
				 x->metric->family, (int)s.model.threads[i].pid,
				 (int)s.model.threads[i].tid);
			int series = 0;
			for (const char *p = buf; (p = strstr(p, want)); p++) {
				const char *eol = strchr(p, '\n');
				char label[128] = "";
				if (x->metric_label)
					snprintf(label, sizeof(label), "%s=\"%s\"", x->metric_label,
						 x->metric_label_value);
				const char *l = x->metric_label ? strstr(p, label) : p;
				series += l && l < eol;
			}
			if (series != 1)
				fail_msg("%s of thread %d: %d series", x->key,
					 (int)s.model.threads[i].tid, series);
		}
	}
	assert_true(families >= 5);
	free(buf);
	model_sample_free(&s.model);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_json_reads_back), cmocka_unit_test(test_csv_columns),
	    cmocka_unit_test(test_text_head),	    cmocka_unit_test(test_dash_columns),
	    cmocka_unit_test(test_sort_cycle),	    cmocka_unit_test(test_metric_families),
	};
	return cmocka_run_group_tests(tests, recording_fake_setup, recording_fake_teardown);
}
