/* test-procinfo.c — MemAvailable, the CPU model and Tgid, from buffers and
 * from a fixture root (tests/fixtures/pi-machine). */
#include "tl-test.h"

#include "procinfo.h"
#include "sysroot.h"

static void test_meminfo_parse(void **state)
{
	(void)state;
	unsigned long long a = 0;
	assert_int_equal(procinfo_meminfo_parse("MemTotal: 10 kB\nMemAvailable:    2048 kB\n", &a),
			 0);
	assert_true(a == 2048ull * 1024);
	assert_int_equal(procinfo_meminfo_parse("MemTotal: 10 kB\n", &a), -EINVAL);
	assert_int_equal(procinfo_meminfo_parse("MemAvailable: lots kB\n", &a), -EINVAL);
	assert_int_equal(procinfo_meminfo_parse("MemAvailable: 12 MB\n", &a), -EINVAL);
	assert_int_equal(procinfo_meminfo_parse("MemAvailable: 99999999999999999999 kB\n", &a),
			 -EINVAL);
	assert_int_equal(procinfo_meminfo_parse("", &a), -EINVAL);
}

static void test_cpuinfo_model(void **state)
{
	(void)state;
	char out[64];
	assert_int_equal(procinfo_cpuinfo_model("processor\t: 0\nmodel name\t: Intel(R) Xeon(R)\n",
						out, sizeof(out)),
			 strlen("Intel(R) Xeon(R)"));
	assert_string_equal(out, "Intel(R) Xeon(R)");
	/* arm64 kernels have no "model name"; older ones say "Processor". */
	procinfo_cpuinfo_model("Processor\t: AArch64 Processor rev 4\nBogoMIPS: 38\n", out,
			       sizeof(out));
	assert_string_equal(out, "AArch64 Processor rev 4");
	assert_int_equal(procinfo_cpuinfo_model("flags: fpu\n", out, sizeof(out)), 0);
	assert_string_equal(out, "");
	/* "model" alone is another field (a number): not taken for the name. */
	procinfo_cpuinfo_model("model\t\t: 1\nmodel name\t: X\n", out, sizeof(out));
	assert_string_equal(out, "X");
	/* Cut to the buffer, still terminated. */
	procinfo_cpuinfo_model("model name: ABCDEFGHIJ\n", out, 5);
	assert_string_equal(out, "ABCD");
}

static void test_fixture_root(void **state)
{
	(void)state;
	char dir[4200], model[128];
	struct sysroot r;
	snprintf(dir, sizeof(dir), "%s/pi-machine", tl_fixtures());
	assert_int_equal(sysroot_open(&r, dir), 0);
	assert_true(procinfo_mem_available(&r) == 20480000ull * 1024);
	procinfo_cpu_model(&r, model, sizeof(model));
	assert_string_equal(model, "AMD EPYC 7B13 64-Core Processor");
	assert_int_equal(procinfo_tgid(&r, 300), 300);
	assert_int_equal(procinfo_tgid(&r, 301), 300); /* a thread of 300 */
	assert_int_equal(procinfo_tgid(&r, 302), -ESRCH);
	sysroot_close(&r);

	/* A root without the files: unknown, not an error. */
	snprintf(dir, sizeof(dir), "%s/pp-tree", tl_fixtures());
	assert_int_equal(sysroot_open(&r, dir), 0);
	assert_true(procinfo_mem_available(&r) == 0);
	procinfo_cpu_model(&r, model, sizeof(model));
	assert_string_equal(model, "");
	sysroot_close(&r);
}

static void test_live_self(void **state)
{
	(void)state;
	struct sysroot r;
	assert_int_equal(sysroot_open(&r, "/"), 0);
	assert_int_equal(procinfo_tgid(&r, getpid()), getpid());
	assert_true(procinfo_mem_available(&r) > 0);
	sysroot_close(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_meminfo_parse),
	    cmocka_unit_test(test_cpuinfo_model),
	    cmocka_unit_test(test_fixture_root),
	    cmocka_unit_test(test_live_self),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
