/* test-recording.c — recordings written (output/record.c) and read back
 * (monitor/recording.c): the same samples, plain and zstd, names that are
 * not UTF-8, run-queue latency; a replayed session that steps, seeks and
 * rebuilds its lab view.  Bad and hostile recordings:
 * test-recording-hostile.c. */
#include "tl-test.h"

#include "pressure.h"

#include <math.h>

#include "diagnosis-out.h"
#include "json-out.h"
#include "recording-diag.h"
#include "recording-impl.h"
#include "recording-json.h"
#include "recording-parse.h"
#include "session.h"
#include "session-replay.h"
#include "session-lab.h"

#include "recording-fake.h"

/* What is written reads back as the same sample: written again, the JSON
 * is the same, byte for byte. */
static void check_round_trip(const char *path, int n)
{
	char err[512];
	struct recording *rec = recording_open(path, err, sizeof(err));
	if (!rec)
		fail_msg("%s", err);
	assert_int_equal(recording_count(rec), (size_t)n);
	const struct recording_header *h = recording_header(rec);
	assert_true(h->present);
	assert_string_equal(h->mode, "lab");
	assert_int_equal(h->pid, 99);
	assert_string_equal(h->command_line, "threadlab --batch");
	assert_true(h->nvars > 5);
	struct recording_sample s;
	recording_parse_sample_init(&s);
	for (int i = 0; i < n; i++) {
		struct recording_fake f;
		recording_fake_make(&f, i);
		char *want = recording_fake_json(&f.snap, &f.rates, &f.w);
		assert_int_equal(recording_read(rec, (size_t)i, &s, err, sizeof(err)), 0);
		assert_true(s.has_workload);
		char *got = recording_fake_json(&s.snap, &s.rates, &s.work);
		assert_string_equal(got, want);
		free(want);
		free(got);
	}
	/* Random access: the last, then the first again. */
	assert_int_equal(recording_read(rec, (size_t)n - 1, &s, err, sizeof(err)), 0);
	assert_true(fabs(s.work.gflops - (100 + n - 1)) < 1e-9);
	assert_int_equal(recording_read(rec, 0, &s, err, sizeof(err)), 0);
	assert_true(fabs(s.work.gflops - 100) < 1e-9);
	assert_int_equal(recording_read(rec, (size_t)n, &s, err, sizeof(err)), -ERANGE);
	assert_int_equal(s.status.anchor_pid, 99);
	assert_string_equal(s.rates.threads[1].name, "say \"hi\"\n\x1b[31m\xc2\x9b");
	recording_parse_sample_free(&s);
	assert_string_equal(recording_note(rec), "");
	recording_close(rec);
}

static void test_round_trip_plain(void **state)
{
	(void)state;
	recording_fake_write(recording_fake_path("a.jsonl"), 5);
	check_round_trip(recording_fake_path("a.jsonl"), 5);
}

static void test_round_trip_zstd(void **state)
{
	(void)state;
	recording_fake_write(recording_fake_path("a.jsonl.zst"), 5);
	FILE *f = fopen(recording_fake_path("a.jsonl.zst"), "rb");
	unsigned char magic[4] = {0};
	assert_int_equal(fread(magic, 1, 4, f), 4);
	fclose(f);
	assert_int_equal(magic[0], 0x28); /* a zstd frame, not text */
	check_round_trip(recording_fake_path("a.jsonl.zst"), 5);
}

/* Bytes that are not UTF-8 were written as \udcXX and read back as the
 * same bytes; a real NUL, a C1 character and an escaped backslash followed
 * by "udc80" stay what they were. */
static void test_invalid_utf8_name(void **state)
{
	(void)state;
	struct recording_fake f;
	recording_fake_make(&f, 0);
	f.t[0].name_len = 3;
	memcpy(f.t[0].name, "a\xffz", 3);
	static const char odd[] = "\x80\0\xc2\x80\\udc80\xc3";
	f.t[1].name_len = sizeof(odd) - 1;
	memcpy(f.t[1].name, odd, sizeof(odd) - 1);
	char *js = recording_fake_json(&f.snap, &f.rates, &f.w);
	assert_non_null(strstr(js, "a\\udcffz"));
	struct recording_sample s;
	char err[256];
	recording_parse_sample_init(&s);
	assert_int_equal(recording_parse_sample(js, strlen(js), &s, err, sizeof(err)), 0);
	assert_int_equal(s.rates.threads[0].name_len, 3);
	assert_memory_equal(s.rates.threads[0].name, "a\xffz", 3);
	assert_int_equal(s.rates.threads[1].name_len, sizeof(odd) - 1);
	assert_memory_equal(s.rates.threads[1].name, odd, sizeof(odd) - 1);
	char *again = recording_fake_json(&s.snap, &s.rates, &s.work);
	assert_string_equal(again, js);
	free(again);
	free(js);
	recording_parse_sample_free(&s);
}

/* Run-queue latency written and read back: the collector's path and its
 * dropped count, each thread's summary and histogram (so its process's
 * quantiles can be made again), JSON the same the second time; a sample
 * of the /proc path has none; a histogram that is not pairs is refused. */
static void test_latency_round_trip(void **state)
{
	(void)state;
	struct recording_fake f;
	struct lat_hist h[1];
	recording_fake_make(&f, 0);
	latency_hist_clear(&h[0]);
	for (int i = 0; i < 40; i++)
		latency_hist_add_ns(&h[0], 2000000 + (uint64_t)i * 100000);
	latency_hist_add_ns(&h[0], 30000000);
	f.rates.lat_on = true;
	f.rates.lat = h;
	f.rates.nlat = 1;
	f.rates.lat_dropped = 7;
	f.rates.lat_capacity = 64;
	f.t[0].lat_ref = 1;
	latency_summarize(&h[0], &f.t[0].latency);
	char *js = recording_fake_json(&f.snap, &f.rates, &f.w);
	assert_non_null(strstr(js, "\"collector\":{\"path\":\"bpf\",\"latency_dropped\":7,"));
	struct recording_sample s;
	char err[256];
	recording_parse_sample_init(&s);
	assert_int_equal(recording_parse_sample(js, strlen(js), &s, err, sizeof(err)), 0);
	assert_true(s.rates.lat_on);
	assert_int_equal(s.rates.lat_dropped, 7);
	assert_int_equal(s.rates.nlat, 1);
	const struct thread_rate *t = &s.rates.threads[0];
	assert_int_equal(t->latency.events, 41);
	assert_true(fabs(t->latency.p99_s - f.t[0].latency.p99_s) < 1e-6);
	assert_int_equal(s.rates.lat[t->lat_ref - 1].events, 41);
	assert_memory_equal(s.rates.lat[0].count, h[0].count, sizeof(h[0].count));
	assert_int_equal(s.rates.threads[1].latency.events, 0);
	char *again = recording_fake_json(&s.snap, &s.rates, &s.work);
	assert_string_equal(again, js);
	free(again);
	free(js);
	recording_fake_make(&f, 1);
	js = recording_fake_json(&f.snap, &f.rates, &f.w);
	assert_non_null(strstr(js, "\"latency\":null"));
	assert_int_equal(recording_parse_sample(js, strlen(js), &s, err, sizeof(err)), 0);
	assert_false(s.rates.lat_on);
	free(js);
	const char *bad = "{\"time\":\"2026-12-01T00:00:00.000Z\",\"budget\":{},\"cgroup\":{},"
			  "\"threads\":[{\"pid\":1,\"tid\":1,\"latency\":{\"events\":1,"
			  "\"hist\":[[1024]]}}]}";
	assert_int_equal(recording_parse_sample(bad, strlen(bad), &s, err, sizeof(err)), -EINVAL);
	printf("# %s\n", err);
	recording_parse_sample_free(&s);
}

/* A diagnosis's reasons and the environment's values are foreign bytes
 * (a thread's name, another process's variable): bytes that are not UTF-8
 * come back from a recording as they went in; a reason was once cut at
 * the first of them. */
static void test_diag_raw_bytes(void **state)
{
	(void)state;
	struct diagnosis *d = calloc(2, sizeof(*d));
	assert_non_null(d);
	static const char reason[] = "longest tail in \xc3\xa9t\xff! (pid 7): p99 6.7 ms";
	snprintf(d->reasons[0], DIAG_TEXT, "%s", reason);
	d->nreasons = 1;
	snprintf(d->headline, sizeof(d->headline), "fine: x\xfey");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	struct json_out j;
	json_out_init(&j, f, 0);
	diagnosis_out_json(&j, d);
	fclose(f);
	assert_non_null(strstr(buf, "\\udcff"));
	char err[256];
	json_object *o = recording_json_parse(buf, len, err, sizeof(err));
	assert_non_null(o);
	struct recording_json p = {err, sizeof(err), false};
	recording_diag_parse(&p, o, &d[1]);
	json_object_put(o);
	assert_false(p.bad);
	assert_int_equal(d[1].nreasons, 1);
	assert_string_equal(d[1].reasons[0], reason);
	assert_string_equal(d[1].headline, "fine: x\xfey");
	free(buf);
	free(d);
}

/* A replayed session: ticks step through the samples, the end says so, a
 * seek shows the sample asked for with the chart rebuilt up to it. */
static void test_replay_session(void **state)
{
	(void)state;
	char err[512];
	recording_fake_write(recording_fake_path("s.jsonl"), 6);
	struct session_config c;
	session_config_default(&c);
	c.replay = recording_fake_path("s.jsonl");
	struct session s;
	int rc = session_start(&s, &c, err, sizeof(err));
	if (rc != EXIT_OK)
		fail_msg("%s", err);
	assert_int_equal(s.kind, SESSION_LAB);
	assert_int_equal(s.replay_count, 6);
	assert_int_equal(s.replay_pos, 0);
	assert_true(s.have_rates);
	assert_int_equal(s.model.nthreads, 3);
	assert_int_equal(s.want.threads, 2);
	for (int i = 1; i < 6; i++) {
		assert_int_equal(session_tick(&s), 0);
		assert_int_equal(s.replay_pos, i);
		assert_true(fabs(s.work.gflops - (100 + i)) < 1e-9);
	}
	assert_int_equal(session_tick(&s), -ENODATA);
	assert_true(s.impl->replay_end);
	assert_true(s.view.nhistory >= 6);
	assert_int_equal(s.view.npoints, 1); /* the steady 1x2 point */
	assert_int_equal(session_replay_seek(&s, 1, -1), 1);
	assert_int_equal(s.replay_pos, 1);
	assert_int_equal(s.view.nhistory, 2);
	assert_int_equal(s.view.npoints, 0); /* no steady figure yet at sample 1 */
	assert_true(fabs(s.work.gflops - 101) < 1e-9);
	assert_int_equal(session_replay_seek(&s, 99, 1), 5); /* clamped to the end */
	assert_int_equal(s.replay_pos, 5);
	assert_int_equal(s.view.npoints, 1);
	assert_int_equal(session_lab_pending(&s), 0);
	session_stop(&s);
	/* A line that does not read (the third sample's place): stepping on
	 * from the second sample shows the fourth, back from the fourth the
	 * second (a forward step once stayed on the second for good). */
	const char *p = recording_fake_path("s.jsonl");
	FILE *in = fopen(p, "r"), *out = fopen(recording_fake_path("g.jsonl"), "w");
	assert_non_null(in);
	assert_non_null(out);
	char line[65536];
	for (int k = 0; fgets(line, sizeof(line), in); k++) {
		if (k == 3)
			fputs("{\"time\": garbage\n", out);
		fputs(line, out);
	}
	fclose(in);
	fclose(out);
	c.replay = recording_fake_path("g.jsonl");
	rc = session_start(&s, &c, err, sizeof(err));
	if (rc != EXIT_OK)
		fail_msg("%s", err);
	assert_int_equal(s.replay_count, 7);
	assert_int_equal(session_replay_seek(&s, 2, 1), 3);
	assert_true(fabs(s.work.gflops - 102) < 1e-9);
	assert_int_equal(session_replay_seek(&s, 2, -1), 1);
	assert_true(fabs(s.work.gflops - 101) < 1e-9);
	assert_int_equal(session_tick(&s), 0); /* playing skips it too */
	assert_int_equal(s.replay_pos, 3);
	session_stop(&s);
	/* A recording that does not open is a usage error with the message. */
	c.replay = recording_fake_path("none.jsonl");
	assert_int_equal(session_start(&s, &c, err, sizeof(err)), EXIT_USAGE);
	assert_non_null(strstr(err, "none.jsonl"));
	session_stop(&s);
}

/* A cgroup pressure that is not known: its note, and back from a
 * recording. */
static void test_pressure_notes(void **state)
{
	(void)state;
	assert_null(pressure_note(MODEL_PSI_WHY_NONE));
	assert_non_null(strstr(pressure_note(MODEL_PSI_WHY_V1), "v1"));
	assert_int_equal(pressure_why_of(pressure_note(MODEL_PSI_WHY_V1)), MODEL_PSI_WHY_V1);
	assert_int_equal(pressure_why_of(pressure_note(MODEL_PSI_WHY_ROOT)), MODEL_PSI_WHY_ROOT);
	assert_int_equal(pressure_why_of("no such note"), MODEL_PSI_WHY_NONE);
	assert_int_equal(pressure_why_of(NULL), MODEL_PSI_WHY_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pressure_notes),     cmocka_unit_test(test_round_trip_plain),
	    cmocka_unit_test(test_round_trip_zstd),    cmocka_unit_test(test_invalid_utf8_name),
	    cmocka_unit_test(test_latency_round_trip), cmocka_unit_test(test_replay_session),
	    cmocka_unit_test(test_diag_raw_bytes),
	};
	return cmocka_run_group_tests(tests, recording_fake_setup, recording_fake_teardown);
}
