/* test-sweep.c — threadlab --sweep's table is well-formed in every format.
 *
 * Runs a short real sweep (n = 256, 1 and 2 threads, 0.3 s per setting)
 * into a memory stream and checks the rows and keys. */
#define _GNU_SOURCE
#include "tl-test.h"

#include "sweep.h"

#include <errno.h>
#include <string.h>

static char *run(enum sweep_format fmt, int *rc)
{
	struct sweep_opts o;
	sweep_opts_default(&o);
	o.size = 256;
	o.threads[0] = 1;
	o.threads[1] = 2;
	o.nthreads = 2;
	o.seconds = 0.3;
	o.warmup = 0.1;
	o.format = fmt;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	*rc = sweep_run(&o, f);
	fclose(f);
	printf("# %s", buf);
	return buf;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void test_json(void **state)
{
	(void)state;
	int rc;
	char *s = run(SWEEP_JSON, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(s, "\"env\": {"));
	assert_non_null(strstr(s, "\"OMP_NUM_THREADS\""));
	assert_non_null(strstr(s, "\"kernel\""));
	const char *keys[] = {"\"streams\": ",	"\"threads\": ",       "\"gflops\": ",
			      "\"speedup\": ",	"\"efficiency\": ",    "\"ceiling_pct\": ",
			      "\"wait_pct\": ", "\"throttled_pct\": ", "\"results_equal\": "};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_int_equal(count(s, keys[i]), 2);
	assert_int_equal(count(s, "{"), count(s, "}"));
	assert_int_equal(count(s, "["), count(s, "]"));
	assert_non_null(strstr(s, "\"threads\": 2"));
	free(s);
}

static void test_csv_and_text(void **state)
{
	(void)state;
	int rc;
	char *s = run(SWEEP_CSV, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(s, "\nstreams,threads,gflops,speedup,efficiency,ceiling_pct,"
				  "wait_pct,throttled_pct,results_equal\n"));
	assert_non_null(strstr(s, "\n1,1,"));
	assert_non_null(strstr(s, "\n1,2,"));
	assert_non_null(strstr(s, "# cpu: "));
	free(s);
	s = run(SWEEP_TEXT, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(s, "GFLOP/s"));
	assert_non_null(strstr(s, "openblas: "));
	free(s);
}

static void test_bad_options(void **state)
{
	(void)state;
	struct sweep_opts o;
	sweep_opts_default(&o);
	o.threads[0] = 0;
	o.nthreads = 1;
	assert_int_equal(sweep_run(&o, stdout), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bad_options),
	    cmocka_unit_test(test_json),
	    cmocka_unit_test(test_csv_and_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
