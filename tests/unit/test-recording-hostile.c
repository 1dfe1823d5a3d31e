/* test-recording-hostile.c — recordings that are torn, cut, malformed,
 * absurd or of hostile size (monitor/recording.c): what reads is read, the
 * rest refused or skipped with its file, line and field named, and no
 * more memory held than the limits allow. */
#include "tl-test.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <zstd.h>

#include "recording-impl.h"
#include "recording-parse.h"
#include "recording-header.h"
#include "session.h"

#include "recording-fake.h"
#include "xalloc.h"

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
	const char *src[] = {recording_fake_path("t.jsonl"), recording_fake_path("t.jsonl.zst")};
	for (int k = 0; k < 2; k++) {
		recording_fake_write(src[k], 4);
		assert_int_equal(truncate(src[k], file_size(src[k]) - 20), 0);
		struct recording *rec = recording_open(src[k], err, sizeof(err));
		if (!rec)
			fail_msg("%s", err);
		assert_int_equal(recording_count(rec), 3);
		printf("# %s: %s\n", src[k], recording_note(rec));
		assert_true(recording_note(rec)[0] != '\0');
		struct recording_sample s;
		recording_parse_sample_init(&s);
		assert_int_equal(recording_read(rec, 2, &s, err, sizeof(err)), 0);
		recording_parse_sample_free(&s);
		recording_close(rec);
	}
}

/* A zstd file of one frame (as `zstd file` makes it, its size declared;
 * or streamed, its size unknown) cut short: the lines of the blocks
 * before the cut read, with a note (the frame cannot be found whole). */
static void test_zstd_one_frame_cut(void **state)
{
	(void)state;
	char err[512];
	const char *plain = recording_fake_path("one.jsonl"), *z = recording_fake_path("one.zst");
	recording_fake_write(plain, 600); /* several of zstd's 128 KiB blocks */
	FILE *f = fopen(plain, "r");
	assert_non_null(f);
	size_t n = (size_t)file_size(plain);
	char *text = xmalloc(n);
	assert_int_equal(fread(text, 1, n, f), n);
	fclose(f);
	printf("# %zu KiB plain\n", n >> 10);
	assert_true(n > 3 * ZSTD_BLOCKSIZE_MAX);
	size_t cap = ZSTD_compressBound(n);
	char *zbuf = xmalloc(cap);
	for (int streamed = 0; streamed < 2; streamed++) {
		size_t zn;
		if (!streamed) {
			zn = ZSTD_compress(zbuf, cap, text, n, 1);
		} else {
			ZSTD_CCtx *c = ZSTD_createCCtx();
			ZSTD_inBuffer in = {text, n, 0};
			ZSTD_outBuffer out = {zbuf, cap, 0};
			zn = ZSTD_compressStream2(c, &out, &in, ZSTD_e_end);
			assert_int_equal(zn, 0); /* all flushed */
			zn = out.pos;
			ZSTD_freeCCtx(c);
		}
		assert_false(ZSTD_isError(zn));
		f = fopen(z, "w");
		assert_non_null(f);
		assert_int_equal(fwrite(zbuf, 1, zn * 7 / 10, f), zn * 7 / 10);
		fclose(f);
		struct recording *rec = recording_open(z, err, sizeof(err));
		if (!rec)
			fail_msg("%s", err);
		size_t got = recording_count(rec);
		printf("# %s frame cut at 70%%: %zu of 600 samples; %s\n",
		       streamed ? "a streamed" : "one declared", got, recording_note(rec));
		assert_true(got >= 100 && got < 600);
		assert_non_null(strstr(recording_note(rec), "cut in a zstd frame"));
		struct recording_sample s;
		recording_parse_sample_init(&s);
		assert_int_equal(recording_read(rec, got - 1, &s, err, sizeof(err)), 0);
		recording_parse_sample_free(&s);
		recording_close(rec);
	}
	free(zbuf);
	free(text);
}

/* Under an address-space limit (ulimit -v) shorter than the file, a plain
 * recording cannot be mapped: it is read by line instead, every sample
 * readable, the 200 MiB line in its middle skipped by its length. */
static void test_plain_past_ulimit_v(void **state)
{
	(void)state;
#if defined(__SANITIZE_ADDRESS__)
	TL_SKIP("an ASan build cannot run under an address-space limit (the package's build runs it)");
#endif
	const char *path = recording_fake_path("big.jsonl");
	recording_fake_write(path, 3);
	/* the last sample again, after 200 MiB of a hole (NUL bytes, one line) */
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char last[65536] = "", line[65536];
	while (fgets(line, sizeof(line), f))
		snprintf(last, sizeof(last), "%s", line);
	fclose(f);
	long size = file_size(path);
	assert_int_equal(truncate(path, size + (200l << 20)), 0);
	f = fopen(path, "a");
	assert_non_null(f);
	fprintf(f, "\n%s", last);
	fclose(f);
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		/* room for the program, not for a map of the file */
		long vm_kb = 0;
		FILE *st = fopen("/proc/self/status", "r");
		while (st && fgets(line, sizeof(line), st))
			if (sscanf(line, "VmSize: %ld kB", &vm_kb) == 1)
				break;
		if (st)
			fclose(st);
		struct rlimit rl = {(rlim_t)(vm_kb + 64 * 1024) * 1024, (rlim_t)(vm_kb + 64 * 1024) * 1024};
		if (vm_kb == 0 || setrlimit(RLIMIT_AS, &rl) < 0)
			_exit(3);
		char err[512];
		struct recording *rec = recording_open(path, err, sizeof(err));
		if (!rec) {
			printf("# %s\n", err);
			fflush(stdout);
			_exit(1);
		}
		size_t n = recording_count(rec);
		struct recording_sample s;
		recording_parse_sample_init(&s);
		int first = recording_read(rec, 0, &s, err, sizeof(err));
		int big = recording_read(rec, n - 2, &s, err, sizeof(err));
		printf("# under ulimit -v %ld kB: %zu lines; the long one: %s\n", vm_kb + 65536, n,
		       err);
		int end = recording_read(rec, n - 1, &s, err, sizeof(err));
		recording_parse_sample_free(&s);
		recording_close(rec);
		fflush(stdout);
		_exit(n == 5 && first == 0 && big < 0 && end == 0 ? 0 : 2);
	}
	int st = 0;
	assert_int_equal(waitpid(c, &st, 0), c);
	unlink(path);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
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
	expect_refused(recording_fake_path("missing.jsonl"), "No such file");
	put(recording_fake_path("empty.jsonl"), "");
	expect_refused(recording_fake_path("empty.jsonl"), "empty: not a threadlab recording");
	/* Not empty, but no line ends: says so, with its size. */
	put(recording_fake_path("cut.jsonl"), "{\"threadlab_recording\": 1, \"onl");
	expect_refused(recording_fake_path("cut.jsonl"), "no complete line in its 31 bytes");
	put(recording_fake_path("text.jsonl"), "hello world\n");
	expect_refused(recording_fake_path("text.jsonl"), ":1: not a threadlab recording");
	put(recording_fake_path("other.jsonl"), "{\"a\": 1}\n");
	expect_refused(recording_fake_path("other.jsonl"), ":1: not a threadlab recording");
	put(recording_fake_path("newer.jsonl"), "{\"threadlab_recording\": 99}\n{}\n");
	expect_refused(recording_fake_path("newer.jsonl"), "newer");
	put(recording_fake_path("badhead.jsonl"),
	    "{\"threadlab_recording\": 1, \"online_cpus\": \"two\"}\n");
	expect_refused(recording_fake_path("badhead.jsonl"), "online_cpus");
	put(recording_fake_path("nosample.jsonl"), "{\"threadlab_recording\": 1}\n");
	expect_refused(recording_fake_path("nosample.jsonl"), "without samples");
	expect_refused(recording_fake_dir, "not a regular file");
	put(recording_fake_path("notzstd.zst"), "\x28\xb5\x2f\xfd garbage");
	char err[512];
	struct recording *rec =
	    recording_open(recording_fake_path("notzstd.zst"), err, sizeof(err));
	assert_null(rec);
	printf("# %s\n", err);
}

/* A bad line in the middle reads as an error naming its line; the lines
 * around it read. */
static void test_bad_line_in_the_middle(void **state)
{
	(void)state;
	char err[512], line[64];
	recording_fake_write(recording_fake_path("m.jsonl"), 3);
	FILE *f = fopen(recording_fake_path("m.jsonl"), "a");
	fputs("{\"time\": 5}\n", f); /* wrong type */
	fclose(f);
	struct recording *rec = recording_open(recording_fake_path("m.jsonl"), err, sizeof(err));
	assert_non_null(rec);
	assert_int_equal(recording_count(rec), 4);
	struct recording_sample s;
	recording_parse_sample_init(&s);
	assert_int_equal(recording_read(rec, 3, &s, err, sizeof(err)), -EINVAL);
	printf("# %s\n", err);
	snprintf(line, sizeof(line), "m.jsonl:%d:", 5);
	assert_non_null(strstr(err, line));
	assert_non_null(strstr(err, "time"));
	assert_int_equal(recording_read(rec, 2, &s, err, sizeof(err)), 0);
	recording_parse_sample_free(&s);
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
	recording_parse_sample_init(&s);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = recording_parse_sample(bad[i], strlen(bad[i]), &s, err, sizeof(err));
		printf("# %s -> %s\n", bad[i], err);
		assert_int_equal(rc, -EINVAL);
	}
	const char *good = "{\"time\":\"2026-12-01T00:00:00.000Z\",\"budget\":{},\"cgroup\":{},"
			   "\"threads\":[]}";
	assert_int_equal(recording_parse_sample(good, strlen(good), &s, err, sizeof(err)), 0);
	recording_parse_sample_free(&s);
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
	    {"\"threads\":[], \"cgroup\":{\"nr_periods\":99999999999999999999999}", "nr_periods"},
	    {"\"threads\":[], \"cgroup\":{\"nr_throttled\":-5}", "nr_throttled"},
	    {"\"threads\":[], \"workload\":{\"per_stream\":[],\"pids\":[12, -3]}", "pids"},
	    {"\"threads\":[], \"diagnosis\":{\"verdict\":\"fine\",\"roles\":[{\"pids\":[-1]}]}",
	     "pids"},
	    {"\"threads\":[], \"diagnosis\":{\"verdict\":\"fine\",\"roles\":[{\"activity\":"
	     "{\"compute\":-7}}]}",
	     "activity"},
	};
	struct recording_sample s;
	recording_parse_sample_init(&s);
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
	recording_parse_sample_free(&s);
	struct recording_header h;
	const char *head0 = "{\"threadlab_recording\": 1, \"interval\": 0}";
	assert_int_equal(recording_header_parse(head0, strlen(head0), &h, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "interval"));
	/* In a file: the bad sample is skipped and named, the others read. */
	recording_fake_write(recording_fake_path("absurd.jsonl"), 2);
	FILE *f = fopen(recording_fake_path("absurd.jsonl"), "a");
	fputs("{\"time\":\"2026-12-01T00:00:00.000Z\",\"budget\":{\"effective\":1e308},"
	      "\"cgroup\":{},\"threads\":[]}\n",
	      f);
	fclose(f);
	struct recording *rec =
	    recording_open(recording_fake_path("absurd.jsonl"), err, sizeof(err));
	assert_non_null(rec);
	recording_parse_sample_init(&s);
	assert_int_equal(recording_read(rec, 2, &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "effective"));
	assert_int_equal(recording_read(rec, 1, &s, err, sizeof(err)), 0);
	recording_parse_sample_free(&s);
	recording_close(rec);
}

/* A line past RECORDING_LINE_MAX is indexed but not parsed: read, it is
 * named with its size and skipped; the samples around it read. */
static void test_huge_line(void **state)
{
	(void)state;
	char err[512];
	const char *path = recording_fake_path("huge.jsonl");
	recording_fake_write(path, 2);
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
	recording_parse_sample_init(&s);
	assert_int_equal(recording_read(rec, 2, &s, err, sizeof(err)), -EINVAL);
	printf("# %s\n", err);
	assert_non_null(strstr(err, "huge.jsonl:4:"));
	assert_non_null(strstr(err, "65 MiB"));
	assert_int_equal(recording_read(rec, 1, &s, err, sizeof(err)), 0);
	recording_parse_sample_free(&s);
	recording_close(rec);
	unlink(path);
}

/* A small .zst whose frame inflates past RECORDING_FRAME_MAX: the file is
 * read up to it, with a note.  The frame declares its size (ZSTD_compress
 * writes it), so it is refused from its header: opening the file takes no
 * memory to speak of (decoded up to the cap, it held 256 MiB). */
static void test_zstd_bomb(void **state)
{
	(void)state;
	char err[512];
	const char *path = recording_fake_path("bomb.jsonl.zst");
	recording_fake_write(path, 2);
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
	long before = tl_rss_kb();
	struct recording *rec = recording_open(path, err, sizeof(err));
	if (!rec)
		fail_msg("%s", err);
	long grew = tl_rss_kb() - before;
	printf("# %s; resident memory grew %ld kB\n", recording_note(rec), grew);
	assert_non_null(strstr(recording_note(rec), "zstd frame 4 inflates past 256 MiB"));
	assert_true(grew < 32 << 10);
	assert_int_equal(recording_count(rec), 2);
	struct recording_sample s;
	recording_parse_sample_init(&s);
	assert_int_equal(recording_read(rec, 1, &s, err, sizeof(err)), 0);
	recording_parse_sample_free(&s);
	recording_close(rec);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_torn_files),
	    cmocka_unit_test(test_bad_inputs),
	    cmocka_unit_test(test_bad_line_in_the_middle),
	    cmocka_unit_test(test_absurd_numbers),
	    cmocka_unit_test(test_huge_line),
	    cmocka_unit_test(test_zstd_bomb),
	    cmocka_unit_test(test_zstd_one_frame_cut),
	    cmocka_unit_test(test_plain_past_ulimit_v),
	};
	return cmocka_run_group_tests(tests, recording_fake_setup, recording_fake_teardown);
}
