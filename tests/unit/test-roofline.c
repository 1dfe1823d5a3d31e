/* test-roofline.c — monitor/roofline.c's arithmetic with exact values, the
 * triad's sizing from a cache tree, the panel's chart and caption
 * (tui/dash-roof.c) drawn off-screen. */
#include "tl-test.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dash-roof.h"
#include "lab.h"
#include "lab-triad.h"
#include "roofline.h"

static void test_intensity(void **state)
{
	(void)state;
	/* GEMM: 2 n^3 FLOPs over 3 n^2 e bytes. */
	assert_near(roofline_intensity(SETTINGS_GEMM, 768, 4), 128.0, 1e-12);
	assert_near(roofline_intensity(SETTINGS_GEMM, 1024, 8), 2048.0 / 24.0, 1e-12);
	assert_near(roofline_intensity(SETTINGS_GEMM, 256, 4), 512.0 / 12.0, 1e-12);
	/* triad: 2 FLOPs over 3 elements, 24 bytes in double. */
	assert_near(roofline_intensity(SETTINGS_TRIAD, 0, 8), 2.0 / 24.0, 1e-15);
	assert_near(roofline_intensity(SETTINGS_TRIAD, 4096, 4), 2.0 / 12.0, 1e-15);
	assert_true(roofline_intensity(SETTINGS_GEMM, 0, 8) <= 0);
	assert_true(roofline_intensity(SETTINGS_TRIAD, 0, 0) <= 0);
}

static void test_bounds(void **state)
{
	(void)state;
	struct roofline r;
	/* 50 GFLOP/s a thread x 2 CPUs = 100, the machine's roof whatever
	 * the threads; 10 GB/s. */
	roofline_make(&r, SETTINGS_TRIAD, 0, 8, 50, 2, 10, 0.8);
	assert_near(r.compute_roof, 100, 1e-12);
	assert_near(r.memory_roof, 10, 1e-12);
	assert_near(r.ridge, 10, 1e-12);
	assert_near(r.attainable, 10.0 / 12.0, 1e-12);
	assert_near(r.gbs, 0.8 * 12, 1e-12);
	assert_int_equal(r.bound, ROOFLINE_MEMORY);
	assert_string_equal(roofline_bound_name(r.bound), "memory");

	/* one thread's GEMM on 2 CPUs: the roof is still the machine's (a
	 * roof that moved with the thread count disagreed with the header's
	 * ceiling, and its ridge moved with it) */
	roofline_make(&r, SETTINGS_GEMM, 1024, 8, 50, 2, 10, 45);
	assert_near(r.compute_roof, 100, 1e-12);
	assert_near(r.ridge, 10, 1e-12);
	assert_near(r.attainable, 100, 1e-12);
	assert_near(r.gbs, 45 / (2048.0 / 24.0), 1e-12);
	assert_int_equal(r.bound, ROOFLINE_COMPUTE);

	/* At the ridge exactly (n = 15, 1-byte elements: 10 FLOP/B): compute. */
	roofline_make(&r, SETTINGS_GEMM, 15, 1, 25, 4, 10, -1);
	assert_near(r.intensity, 10, 1e-12);
	assert_near(r.compute_roof, 100, 1e-12);
	assert_int_equal(r.bound, ROOFLINE_COMPUTE);
	assert_true(r.gflops < 0 && r.gbs < 0);

	/* A roof not measured: no ridge, no bound. */
	roofline_make(&r, SETTINGS_TRIAD, 0, 8, 50, 2, 0, 1);
	assert_int_equal(r.bound, ROOFLINE_UNKNOWN);
	assert_true(r.ridge == 0 && r.attainable == 0);
	roofline_make(&r, SETTINGS_GEMM, 512, 4, 0, 2, 10, 1);
	assert_int_equal(r.bound, ROOFLINE_UNKNOWN);
	assert_string_equal(roofline_bound_name(r.bound), "unknown");
}

/* A cache tree as sysfs has it; the largest size wins. */
static void test_triad_sizing(void **state)
{
	(void)state;
	assert_int_equal(lab_triad_cache_parse("480M\n"), 480ull << 20);
	assert_int_equal(lab_triad_cache_parse("4096K"), 4096ull << 10);
	assert_int_equal(lab_triad_cache_parse("32768"), 32768);
	assert_int_equal(lab_triad_cache_parse("x"), 0);
	char dir[] = "/tmp/tl-roofline-XXXXXX";
	assert_non_null(mkdtemp(dir));
	const char *idx[] = {"index0", "index2", "index3"};
	const char *size[] = {"48K\n", "2048K\n", "105M\n"};
	char p[256];
	snprintf(p, sizeof(p), "%s/cache", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/cache/%s", dir, idx[i]);
		assert_int_equal(mkdir(p, 0700), 0);
		snprintf(p, sizeof(p), "%s/cache/%s/size", dir, idx[i]);
		FILE *f = fopen(p, "w");
		assert_non_null(f);
		fputs(size[i], f);
		fclose(f);
	}
	assert_int_equal(lab_triad_largest_cache(dir), 105ull << 20);
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/cache/%s/size", dir, idx[i]);
		unlink(p);
		snprintf(p, sizeof(p), "%s/cache/%s", dir, idx[i]);
		rmdir(p);
	}
	snprintf(p, sizeof(p), "%s/cache", dir);
	rmdir(p);
	rmdir(dir);
	assert_int_equal(lab_triad_largest_cache(dir), 0);
	/* This machine's: at least the floor, twice its largest cache. */
	unsigned long long big = lab_triad_largest_cache("/sys/devices/system/cpu/cpu0");
	uint32_t n = settings_triad_length(SETTINGS_DOUBLE);
	assert_true((unsigned long long)n * 8 >= (unsigned long long)LAB_TRIAD_MIN_MIB << 20);
	assert_true((unsigned long long)n * 8 + 512 >= 2 * big);
	assert_int_equal(n % 64, 0);
	printf("# largest cache %llu KiB: triad arrays of %u doubles (%.0f MiB)\n", big >> 10, n,
	       n * 8.0 / 1048576.0);
}

/* The chart at the panel's 80 x 24 size (18 rows of plot): the point sits
 * on the memory slope for the triad and under the flat roof for GEMM. */
static void test_plot(void **state)
{
	(void)state;
	enum { ROWS = 18, COLS = 80 };
	static char g[ROWS * (COLS + 1)];
	struct roofline r;
	roofline_make(&r, SETTINGS_TRIAD, 0, 8, 50, 2, 10, 10.0 / 12.0);
	assert_int_equal(dash_roof_plot(g, ROWS, COLS, &r), 0);
	int xs = 0, xrow = -1, xcol = -1;
	bool slope = false, flat = false, ridge = false, mem = false, comp = false;
	for (int y = 0; y < ROWS; y++) {
		const char *line = g + y * (COLS + 1);
		assert_int_equal(strlen(line), COLS);
		for (int x = 0; x < COLS; x++) {
			if (line[x] == 'X')
				xs++, xrow = y, xcol = x;
			slope |= line[x] == '/';
			flat |= line[x] == '-' && y < ROWS - 2;
			ridge |= line[x] == '^' && y == ROWS - 2;
		}
		mem |= strstr(line, "memory 10.0 GB/s") != NULL;
		comp |= strstr(line, "compute 100.0 GFLOP/s") != NULL;
	}
	assert_int_equal(xs, 1);
	assert_true(slope && flat && ridge && mem && comp);
	/* The point is at the attainable rate: the slope passes through it, so
	 * a '/' is next to it on its row or the rows beside. */
	bool touching = false;
	for (int y = xrow - 1; y <= xrow + 1; y++)
		for (int x = xcol - 2; x <= xcol + 2; x++)
			if (y >= 0 && y < ROWS && x >= 0 && x < COLS &&
			    g[y * (COLS + 1) + x] == '/')
				touching = true;
	assert_true(touching);
	int triad_col = xcol;

	roofline_make(&r, SETTINGS_GEMM, 1024, 8, 50, 2, 10, 80);
	assert_int_equal(dash_roof_plot(g, ROWS, COLS, &r), 0);
	xs = 0;
	for (int y = 0; y < ROWS; y++)
		for (int x = 0; x < COLS; x++)
			if (g[y * (COLS + 1) + x] == 'X')
				xs++, xrow = y, xcol = x;
	assert_int_equal(xs, 1);
	assert_true(xcol > triad_col + 40); /* 85 FLOP/B against 1/12: 10 octaves right */
	/* Below the flat roof (80 of 100 GFLOP/s: the same row or one under). */
	bool roof_above = false;
	for (int y = xrow - 1; y <= xrow; y++)
		roof_above |= y >= 0 && g[y * (COLS + 1) + xcol + 1] == '-';
	assert_true(roof_above);
	assert_int_equal(dash_roof_plot(g, 5, COLS, &r), -EINVAL);
}

static void test_caption(void **state)
{
	(void)state;
	char c[512];
	struct roofline r;
	roofline_make(&r, SETTINGS_TRIAD, 0, 8, 50, 2, 10, 0.75);
	dash_roof_caption(c, sizeof(c), "triad", 768, &r);
	assert_non_null(strstr(c, "triad: 0.0833 FLOP/B, below the ridge at 10: memory-bound"));
	assert_non_null(strstr(c, "9.0 GB/s of the 10.0 GB/s"));
	roofline_make(&r, SETTINGS_GEMM, 1024, 8, 50, 2, 10, 80);
	dash_roof_caption(c, sizeof(c), "gemm", 1024, &r);
	assert_non_null(
	    strstr(c, "GEMM n=1024: 85.3 FLOP/B, above the ridge at 10: compute-bound"));
	assert_non_null(strstr(c, "80.0 of the 100.0 GFLOP/s the CPUs can (the 1-thread rate x the CPUs)"));
	roofline_make(&r, SETTINGS_GEMM, 1024, 8, 50, 2, 0, 80);
	dash_roof_caption(c, sizeof(c), "gemm", 1024, &r);
	assert_non_null(strstr(c, "memory roof is not measured yet"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_intensity),	 cmocka_unit_test(test_bounds),
	    cmocka_unit_test(test_triad_sizing), cmocka_unit_test(test_plot),
	    cmocka_unit_test(test_caption),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
