/* test-recording.c — recordings written (output/record.c) and read back
 * (monitor/recording.c): the same samples, plain and zstd; torn and cut
 * files; every kind of bad input with the file and line named; a replayed
 * session that steps, seeks and rebuilds its lab view. */
#include "tl-test.h"

#include "pressure.h"

#include <math.h>
#include <sys/stat.h>
#include <zstd.h>

#include "record.h"
#include "recording.h"
#include "report.h"
#include "session.h"

static char dir[] = "/tmp/tl-test-recording-XXXXXX";

static int group_setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int group_teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *path_in(const char *name)
{
	static char p[4][256];
	static int k;
	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

/* A lab sample with two threads (one with a hostile name) and a workload. */
struct fake {
	struct snapshot snap;
	struct snapshot_rates rates;
	struct thread_rate t[3];
	struct workload_report w;
};

static void fake_make(struct fake *f, int i)
{
	memset(f, 0, sizeof(*f));
	snapshot_init(&f->snap);
	f->snap.wall = 1764576000.0 + i * 0.5 + 0.123;
	f->snap.budget.online = 2;
	f->snap.budget.affinity = 2;
	f->snap.budget.cpuset = 2;
	f->snap.budget.quota.cpus = 1.5;
	f->snap.budget.quota.controller = true;
	f->snap.budget.effective = 1.5;
	f->snap.budget.binding = BUDGET_QUOTA;
	f->snap.budget.loc.version = 1;
	snprintf(f->snap.budget.loc.path, sizeof(f->snap.budget.loc.path), "/threadlab-1");
	snprintf(f->snap.stat_dir, sizeof(f->snap.stat_dir), "sys/fs/cgroup/cpu/threadlab-1");
	f->snap.has_cpustat = f->snap.cpustat.has_periods = true;
	f->snap.cpustat.nr_periods = 100 + (uint64_t)i;
	f->snap.cpustat.nr_throttled = 40;
	f->snap.cpustat.throttled_s = 1.25;
	f->snap.psi_cgroup.available = false;
	f->snap.psi_system.available = true;
	f->snap.psi_system.some_avg10 = 12.5;
	f->snap.cpus.n = 2;
	f->snap.cpus.id[1] = 1;
	f->snap.cpus.busy_pct[0] = 99.5;
	f->snap.cpus.busy_pct[1] = 50;
	f->rates.dt = 0.5;
	f->rates.throttle.valid = true;
	f->rates.throttle.throttled_pct = 48.2;
	f->rates.throttle.throttled_s_per_s = 0.5;
	f->rates.runnable = 2;
	const char *names[] = {"gemm0", "say \"hi\"\n\x1b[31m\xc2\x9b", "tl-anchor"};
	for (int k = 0; k < 3; k++) {
		struct thread_rate *t = &f->t[k];
		t->pid = 100;
		t->tid = 100 + k;
		t->name_len = strlen(names[k]);
		memcpy(t->name, names[k], t->name_len);
		t->state = k == 2 ? 'S' : 'R';
		t->cpu = k % 2;
		t->cpu_pct = 75.25 + i;
		t->user_pct = 70;
		t->sys_pct = 5.25 + i;
		t->wait_pct = 24.5;
		t->vcsw_per_s = 3.5;
		t->ivcsw_per_s = 20;
	}
	f->rates.threads = f->t;
	f->rates.nthreads = 3;
	struct workload_report *w = &f->w;
	w->threads = 2;
	w->streams = 1;
	w->size = 256;
	w->precision = "single";
	w->cpus = 1.5;
	w->interval = 0.5;
	w->gflops = 100 + i;
	w->steady_gflops = i >= 2 ? 101.5 : -1;
	w->steady_seconds = i >= 2 ? 1.0 : 0;
	w->single_thread_gflops = 60;
	w->ideal_gflops = 90;
	w->ceiling_gflops = 90;
	w->results_checked = w->results_equal = true;
	w->epoch_results_checked = true;
	w->epoch_results_equal = false;
	w->epoch_max_diff = 1.5e-6;
	w->max_diff = 1.5e-6;
	w->useful_cpus = 1.4;
	w->cpu_cpus = 1.5;
	w->nstreams = 1;
	w->stream[0].pid = 100;
	w->stream[0].state = "running";
	w->stream[0].wanted = true;
	w->stream[0].threads = 2;
	w->stream[0].pool = 2;
	w->stream[0].gflops = 100;
	w->blas_config = "OpenBLAS 0.3.21 Zen";
	w->blas_core = "Zen";
	w->blas_variant = "pthreads";
	w->pids[0] = 99;
	w->pids[1] = 100;
	w->npids = 2;
	w->anchor_pid = 99;
}

static char *sample_json(const struct snapshot *s, const struct snapshot_rates *r,
			 const struct workload_report *w)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	report_sample(f, FORMAT_JSON, s, r, w, NULL, false);
	fclose(f);
	return buf;
}

static void write_recording(const char *path, int n)
{
	char err[256];
	char *argv[] = {(char *)"threadlab", (char *)"--batch", NULL};
	struct env_record e;
	struct sysroot root;
	assert_int_equal(sysroot_open(&root, "/"), 0);
	environment_fill(&e, &root, NULL, NULL);
	sysroot_close(&root);
	struct recording_header h;
	recording_header_fill(&h, &e, "lab", 99, "lab", true, 0.5);
	struct record *r = record_start(path, 2, argv, &h, err, sizeof(err));
	assert_non_null(r);
	for (int i = 0; i < n; i++) {
		struct fake f;
		fake_make(&f, i);
		assert_int_equal(record_sample(r, &f.snap, &f.rates, &f.w, NULL), 0);
	}
	assert_int_equal(record_lines(r), (unsigned long)n + 1);
	assert_int_equal(record_close(r), 0);
}

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
	recording_sample_init(&s);
	for (int i = 0; i < n; i++) {
		struct fake f;
		fake_make(&f, i);
		char *want = sample_json(&f.snap, &f.rates, &f.w);
		assert_int_equal(recording_read(rec, (size_t)i, &s, err, sizeof(err)), 0);
		assert_true(s.has_workload);
		char *got = sample_json(&s.snap, &s.rates, &s.work);
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
	recording_sample_free(&s);
	assert_string_equal(recording_note(rec), "");
	recording_close(rec);
}

static void test_round_trip_plain(void **state)
{
	(void)state;
	write_recording(path_in("a.jsonl"), 5);
	check_round_trip(path_in("a.jsonl"), 5);
}

static void test_round_trip_zstd(void **state)
{
	(void)state;
	write_recording(path_in("a.jsonl.zst"), 5);
	FILE *f = fopen(path_in("a.jsonl.zst"), "rb");
	unsigned char magic[4] = {0};
	assert_int_equal(fread(magic, 1, 4, f), 4);
	fclose(f);
	assert_int_equal(magic[0], 0x28); /* a zstd frame, not text */
	check_round_trip(path_in("a.jsonl.zst"), 5);
}

static long file_size(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 ? (long)st.st_size : -1;
}

/* A file cut in its last line (plain) or last frame (zstd): the samples
 * before the cut read, and a note says what was left out. */
static void test_torn_files(void **state)
{
	(void)state;
	char err[512];
	const char *src[] = {path_in("t.jsonl"), path_in("t.jsonl.zst")};
	for (int k = 0; k < 2; k++) {
		write_recording(src[k], 4);
		assert_int_equal(truncate(src[k], file_size(src[k]) - 20), 0);
		struct recording *rec = recording_open(src[k], err, sizeof(err));
		if (!rec)
			fail_msg("%s", err);
		assert_int_equal(recording_count(rec), 3);
		printf("# %s: %s\n", src[k], recording_note(rec));
		assert_true(recording_note(rec)[0] != '\0');
		struct recording_sample s;
		recording_sample_init(&s);
		assert_int_equal(recording_read(rec, 2, &s, err, sizeof(err)), 0);
		recording_sample_free(&s);
		recording_close(rec);
	}
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Bad inputs: NULL with a message naming the file (and the line). */
static void expect_refused(const char *path, const char *needle)
{
	char err[512] = "";
	struct recording *rec = recording_open(path, err, sizeof(err));
	printf("# %s\n", err);
	assert_null(rec);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, needle));
}

static void test_bad_inputs(void **state)
{
	(void)state;
	expect_refused(path_in("missing.jsonl"), "No such file");
	put(path_in("empty.jsonl"), "");
	expect_refused(path_in("empty.jsonl"), "not a threadlab recording");
	put(path_in("text.jsonl"), "hello world\n");
	expect_refused(path_in("text.jsonl"), ":1: not a threadlab recording");
	put(path_in("other.jsonl"), "{\"a\": 1}\n");
	expect_refused(path_in("other.jsonl"), ":1: not a threadlab recording");
	put(path_in("newer.jsonl"), "{\"threadlab_recording\": 99}\n{}\n");
	expect_refused(path_in("newer.jsonl"), "newer");
	put(path_in("badhead.jsonl"), "{\"threadlab_recording\": 1, \"online_cpus\": \"two\"}\n");
	expect_refused(path_in("badhead.jsonl"), "online_cpus");
	put(path_in("nosample.jsonl"), "{\"threadlab_recording\": 1}\n");
	expect_refused(path_in("nosample.jsonl"), "without samples");
	expect_refused(dir, "not a regular file");
	put(path_in("notzstd.zst"), "\x28\xb5\x2f\xfd garbage");
	char err[512];
	struct recording *rec = recording_open(path_in("notzstd.zst"), err, sizeof(err));
	assert_null(rec);
	printf("# %s\n", err);
}

/* A bad line in the middle reads as an error naming its line; the lines
 * around it read. */
static void test_bad_line_in_the_middle(void **state)
{
	(void)state;
	char err[512], line[64];
	write_recording(path_in("m.jsonl"), 3);
	FILE *f = fopen(path_in("m.jsonl"), "a");
	fputs("{\"time\": 5}\n", f); /* wrong type */
	fclose(f);
	struct recording *rec = recording_open(path_in("m.jsonl"), err, sizeof(err));
	assert_non_null(rec);
	assert_int_equal(recording_count(rec), 4);
	struct recording_sample s;
	recording_sample_init(&s);
	assert_int_equal(recording_read(rec, 3, &s, err, sizeof(err)), -EINVAL);
	printf("# %s\n", err);
	snprintf(line, sizeof(line), "m.jsonl:%d:", 5);
	assert_non_null(strstr(err, line));
	assert_non_null(strstr(err, "time"));
	assert_int_equal(recording_read(rec, 2, &s, err, sizeof(err)), 0);
	recording_sample_free(&s);
	recording_close(rec);
	/* Wrong types everywhere else too. */
	const char *bad[] = {
	    "{\"time\":\"2026-12-01T00:00:00.000Z\",\"budget\":[],\"cgroup\":{},\"threads\":[]}",
	    "{\"time\":\"2026-12-01T00:00:00.000Z\",\"budget\":{},\"cgroup\":{},\"threads\":[1]}",
	    "{\"time\":\"2026-12-01T00:00:00.000Z\",\"budget\":{\"online\":1.5},\"cgroup\":{},"
	    "\"threads\":[]}",
	    "{\"time\":\"yesterday\",\"budget\":{},\"cgroup\":{},\"threads\":[]}",
	    "{\"time\":\"2026-12-01T00:00:00.000Z\",\"budget\":{},\"cgroup\":{},\"threads\":[],"
	    "\"workload\":{\"per_stream\":{}}}",
	    "[1,2]",
	    "{\"time\":\"2026-12-01T00:00:00.000Z\"} trailing",
	};
	recording_sample_init(&s);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = recording_parse_sample(bad[i], strlen(bad[i]), &s, err, sizeof(err));
		printf("# %s -> %s\n", bad[i], err);
		assert_int_equal(rc, -EINVAL);
	}
	const char *good = "{\"time\":\"2026-12-01T00:00:00.000Z\",\"budget\":{},\"cgroup\":{},"
			   "\"threads\":[]}";
	assert_int_equal(recording_parse_sample(good, strlen(good), &s, err, sizeof(err)), 0);
	recording_sample_free(&s);
}

/* Numbers no writer writes are refused where they enter, each naming its
 * field: 1e308 (and 1e999, which json-c reads as +Inf), a negative CPU %,
 * an interval of -1, a count past INT_MAX, a header interval of 0. */
static void test_absurd_numbers(void **state)
{
	(void)state;
	char err[512], line[512];
	static const char *const bad[][2] = {
	    {"\"threads\":[{\"cpu_pct\":1e308}]", "cpu_pct"},
	    {"\"threads\":[{\"cpu_pct\":1e999}]", "cpu_pct"},
	    {"\"threads\":[{\"wait_pct\":-5}]", "wait_pct"},
	    {"\"threads\":[], \"interval\": -1", "interval"},
	    {"\"threads\":[], \"interval\": 1e9", "interval"},
	    {"\"threads\":[], \"cpus\": [50, 1e300]", "cpus[]"},
	    {"\"threads\":[], \"runnable\": 99999999999", "runnable"},
	    {"\"threads\":[], \"workload\":{\"gflops\":1e300}", "gflops"},
	};
	struct recording_sample s;
	recording_sample_init(&s);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line),
			 "{\"time\":\"2026-12-01T00:00:00.000Z\",\"budget\":{},\"cgroup\":{},%s}",
			 bad[i][0]);
		int rc = recording_parse_sample(line, strlen(line), &s, err, sizeof(err));
		printf("# %s -> %s\n", bad[i][0], err);
		assert_int_equal(rc, -EINVAL);
		assert_non_null(strstr(err, "out of range"));
		assert_non_null(strstr(err, bad[i][1]));
	}
	snprintf(line, sizeof(line),
		 "{\"time\":\"2026-12-01T00:00:00.000Z\",\"budget\":{},\"cgroup\":{},"
		 "\"threads\":[{\"cpu_pct\":99.5}],\"interval\":0.5}");
	assert_int_equal(recording_parse_sample(line, strlen(line), &s, err, sizeof(err)), 0);
	assert_true(s.rates.threads[0].cpu_pct == 99.5);
	recording_sample_free(&s);
	struct recording_header h;
	const char *head0 = "{\"threadlab_recording\": 1, \"interval\": 0}";
	assert_int_equal(recording_parse_header(head0, strlen(head0), &h, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "interval"));
	/* In a file: the bad sample is skipped and named, the others read. */
	write_recording(path_in("absurd.jsonl"), 2);
	FILE *f = fopen(path_in("absurd.jsonl"), "a");
	fputs("{\"time\":\"2026-12-01T00:00:00.000Z\",\"budget\":{\"effective\":1e308},"
	      "\"cgroup\":{},\"threads\":[]}\n",
	      f);
	fclose(f);
	struct recording *rec = recording_open(path_in("absurd.jsonl"), err, sizeof(err));
	assert_non_null(rec);
	recording_sample_init(&s);
	assert_int_equal(recording_read(rec, 2, &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "effective"));
	assert_int_equal(recording_read(rec, 1, &s, err, sizeof(err)), 0);
	recording_sample_free(&s);
	recording_close(rec);
}

/* A line past RECORDING_LINE_MAX is indexed but not parsed: read, it is
 * named with its size and skipped; the samples around it read. */
static void test_huge_line(void **state)
{
	(void)state;
	char err[512];
	const char *path = path_in("huge.jsonl");
	write_recording(path, 2);
	FILE *f = fopen(path, "a");
	assert_non_null(f);
	size_t big = RECORDING_LINE_MAX + (1 << 20);
	fputs("{\"time\":\"2026-12-01T00:00:00.000Z\",\"pad\":\"", f);
	for (size_t i = 0; i < big; i += 4096) {
		static char block[4096];
		memset(block, 'x', sizeof(block));
		fwrite(block, 1, sizeof(block), f);
	}
	fputs("\"}\n", f);
	fclose(f);
	struct recording *rec = recording_open(path, err, sizeof(err));
	assert_non_null(rec);
	assert_int_equal(recording_count(rec), 3);
	struct recording_sample s;
	recording_sample_init(&s);
	assert_int_equal(recording_read(rec, 2, &s, err, sizeof(err)), -EINVAL);
	printf("# %s\n", err);
	assert_non_null(strstr(err, "huge.jsonl:4:"));
	assert_non_null(strstr(err, "65 MiB"));
	assert_int_equal(recording_read(rec, 1, &s, err, sizeof(err)), 0);
	recording_sample_free(&s);
	recording_close(rec);
	unlink(path);
}

/* A small .zst whose frame inflates past RECORDING_FRAME_MAX: the file is
 * read up to it, with a note, and no more than that is ever held. */
static void test_zstd_bomb(void **state)
{
	(void)state;
	char err[512];
	const char *path = path_in("bomb.jsonl.zst");
	write_recording(path, 2);
	size_t n = RECORDING_FRAME_MAX + (16 << 20);
	char *plain = malloc(n);
	assert_non_null(plain);
	memset(plain, ' ', n);
	plain[n - 1] = '\n';
	size_t cap = ZSTD_compressBound(n);
	char *z = malloc(cap);
	assert_non_null(z);
	size_t zn = ZSTD_compress(z, cap, plain, n, 1);
	assert_false(ZSTD_isError(zn));
	free(plain);
	printf("# %zu MiB in %zu KiB of zstd\n", n >> 20, zn >> 10);
	FILE *f = fopen(path, "ab");
	assert_int_equal(fwrite(z, 1, zn, f), zn);
	fclose(f);
	free(z);
	struct recording *rec = recording_open(path, err, sizeof(err));
	if (!rec)
		fail_msg("%s", err);
	printf("# %s\n", recording_note(rec));
	assert_non_null(strstr(recording_note(rec), "zstd frame 4 inflates past 256 MiB"));
	assert_int_equal(recording_count(rec), 2);
	struct recording_sample s;
	recording_sample_init(&s);
	assert_int_equal(recording_read(rec, 1, &s, err, sizeof(err)), 0);
	recording_sample_free(&s);
	recording_close(rec);
	unlink(path);
}

/* Bytes that are not UTF-8 were written as \udcXX and read back as the
 * same bytes; a real NUL, a C1 character and an escaped backslash followed
 * by "udc80" stay what they were. */
static void test_invalid_utf8_name(void **state)
{
	(void)state;
	struct fake f;
	fake_make(&f, 0);
	f.t[0].name_len = 3;
	memcpy(f.t[0].name, "a\xffz", 3);
	static const char odd[] = "\x80\0\xc2\x80\\udc80\xc3";
	f.t[1].name_len = sizeof(odd) - 1;
	memcpy(f.t[1].name, odd, sizeof(odd) - 1);
	char *js = sample_json(&f.snap, &f.rates, &f.w);
	assert_non_null(strstr(js, "a\\udcffz"));
	struct recording_sample s;
	char err[256];
	recording_sample_init(&s);
	assert_int_equal(recording_parse_sample(js, strlen(js), &s, err, sizeof(err)), 0);
	assert_int_equal(s.rates.threads[0].name_len, 3);
	assert_memory_equal(s.rates.threads[0].name, "a\xffz", 3);
	assert_int_equal(s.rates.threads[1].name_len, sizeof(odd) - 1);
	assert_memory_equal(s.rates.threads[1].name, odd, sizeof(odd) - 1);
	char *again = sample_json(&s.snap, &s.rates, &s.work);
	assert_string_equal(again, js);
	free(again);
	free(js);
	recording_sample_free(&s);
}

/* Run-queue latency written and read back: the collector's path and its
 * dropped count, each thread's summary and histogram (so its process's
 * quantiles can be made again), JSON the same the second time; a sample
 * of the /proc path has none; a histogram that is not pairs is refused. */
static void test_latency_round_trip(void **state)
{
	(void)state;
	struct fake f;
	struct lat_hist h[1];
	fake_make(&f, 0);
	lat_hist_clear(&h[0]);
	for (int i = 0; i < 40; i++)
		lat_hist_add_ns(&h[0], 2000000 + (uint64_t)i * 100000);
	lat_hist_add_ns(&h[0], 30000000);
	f.rates.lat_on = true;
	f.rates.lat = h;
	f.rates.nlat = 1;
	f.rates.lat_dropped = 7;
	f.rates.lat_capacity = 64;
	f.t[0].lat_ref = 1;
	lat_summarize(&h[0], &f.t[0].latency);
	char *js = sample_json(&f.snap, &f.rates, &f.w);
	assert_non_null(strstr(js, "\"collector\":{\"path\":\"bpf\",\"latency_dropped\":7,"));
	struct recording_sample s;
	char err[256];
	recording_sample_init(&s);
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
	char *again = sample_json(&s.snap, &s.rates, &s.work);
	assert_string_equal(again, js);
	free(again);
	free(js);
	fake_make(&f, 1);
	js = sample_json(&f.snap, &f.rates, &f.w);
	assert_non_null(strstr(js, "\"latency\":null"));
	assert_int_equal(recording_parse_sample(js, strlen(js), &s, err, sizeof(err)), 0);
	assert_false(s.rates.lat_on);
	free(js);
	const char *bad = "{\"time\":\"2026-12-01T00:00:00.000Z\",\"budget\":{},\"cgroup\":{},"
			  "\"threads\":[{\"pid\":1,\"tid\":1,\"latency\":{\"events\":1,"
			  "\"hist\":[[1024]]}}]}";
	assert_int_equal(recording_parse_sample(bad, strlen(bad), &s, err, sizeof(err)), -EINVAL);
	printf("# %s\n", err);
	recording_sample_free(&s);
}

/* A replayed session: ticks step through the samples, the end says so, a
 * seek shows the sample asked for with the chart rebuilt up to it. */
static void test_replay_session(void **state)
{
	(void)state;
	char err[512];
	write_recording(path_in("s.jsonl"), 6);
	struct session_config c;
	session_config_default(&c);
	c.replay = path_in("s.jsonl");
	struct session s;
	int rc = session_start(&s, &c, err, sizeof(err));
	if (rc != EXIT_OK)
		fail_msg("%s", err);
	assert_int_equal(s.kind, SESSION_LAB);
	assert_int_equal(s.replay_count, 6);
	assert_int_equal(s.replay_pos, 0);
	assert_true(s.have_rates);
	assert_int_equal(s.rates.nthreads, 3);
	assert_int_equal(s.want.threads, 2);
	for (int i = 1; i < 6; i++) {
		assert_int_equal(session_tick(&s), 0);
		assert_int_equal(s.replay_pos, i);
		assert_true(fabs(s.work.gflops - (100 + i)) < 1e-9);
	}
	assert_int_equal(session_tick(&s), -ENODATA);
	assert_true(s.replay_end);
	assert_true(s.view.nhistory >= 6);
	assert_int_equal(s.view.npoints, 1); /* the steady 1x2 point */
	assert_int_equal(session_replay_seek(&s, 1), 0);
	assert_int_equal(s.replay_pos, 1);
	assert_int_equal(s.view.nhistory, 2);
	assert_int_equal(s.view.npoints, 0); /* no steady figure yet at sample 1 */
	assert_true(fabs(s.work.gflops - 101) < 1e-9);
	assert_int_equal(session_replay_seek(&s, 99), 0); /* clamped to the end */
	assert_int_equal(s.replay_pos, 5);
	assert_int_equal(s.view.npoints, 1);
	assert_int_equal(session_pending(&s), 0);
	session_stop(&s);
	/* A recording that does not open is a usage error with the message. */
	c.replay = path_in("none.jsonl");
	assert_int_equal(session_start(&s, &c, err, sizeof(err)), EXIT_USAGE);
	assert_non_null(strstr(err, "none.jsonl"));
	session_stop(&s);
}

/* A cgroup pressure that is not known: its note, and back from a
 * recording. */
static void test_pressure_notes(void **state)
{
	(void)state;
	assert_null(pressure_note(PSI_WHY_NONE));
	assert_non_null(strstr(pressure_note(PSI_WHY_V1), "v1"));
	assert_int_equal(pressure_why_of(pressure_note(PSI_WHY_V1)), PSI_WHY_V1);
	assert_int_equal(pressure_why_of(pressure_note(PSI_WHY_ROOT)), PSI_WHY_ROOT);
	assert_int_equal(pressure_why_of("no such note"), PSI_WHY_NONE);
	assert_int_equal(pressure_why_of(NULL), PSI_WHY_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pressure_notes),    cmocka_unit_test(test_round_trip_plain),
	    cmocka_unit_test(test_round_trip_zstd),   cmocka_unit_test(test_torn_files),
	    cmocka_unit_test(test_bad_inputs),	      cmocka_unit_test(test_bad_line_in_the_middle),
	    cmocka_unit_test(test_invalid_utf8_name), cmocka_unit_test(test_latency_round_trip),
	    cmocka_unit_test(test_absurd_numbers),
	    cmocka_unit_test(test_huge_line),	      cmocka_unit_test(test_zstd_bomb),
	    cmocka_unit_test(test_replay_session),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
