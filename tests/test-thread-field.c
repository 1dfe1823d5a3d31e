/* test-thread-field.c — the table of a thread's fields
 * (monitor/thread-field.h) drives every format: each field written to
 * JSON reads back from a recording as the value written; the CSV header
 * and every row carry the table's columns, in its order; the text
 * report's head line is the table's headers. */
#include "tl-test.h"

#include <math.h>

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
	recording_sample_init(&s);
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
	recording_sample_free(&s);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_json_reads_back),
	    cmocka_unit_test(test_csv_columns),
	    cmocka_unit_test(test_text_head),
	};
	return cmocka_run_group_tests(tests, recording_fake_setup, recording_fake_teardown);
}
