/* test-dash-layout.c — the dashboard's panel layout (dash-layout.h): every
 * panel inside the screen, the rows each mode and size gives, the notice
 * below the minimum size; without a terminal. */
#include "config.h"

#include "tl-test.h"

#include "dash-layout.h"

static void rect_inside(const struct dash_rect *r, int rows, int cols)
{
	if (r->h == 0)
		return;
	assert_true(r->y >= 0 && r->x >= 0);
	assert_true(r->y + r->h <= rows);
	assert_true(r->x + r->w <= cols);
}

static void test_layout(void **state)
{
	(void)state;
	struct dash_layout l;
	dash_layout_compute(24, 80, true, 2, &l);
	assert_false(l.too_small);
	const struct dash_rect *all[] = {&l.header,	&l.budget, &l.pressure,
					 &l.throughput, &l.chart,  &l.cpus,
					 &l.threads,	&l.keys,   &l.message};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		rect_inside(all[i], 24, 80);
	assert_int_equal(l.header.y, 0);
	assert_int_equal(l.message.y, 23);
	assert_int_equal(l.keys.y, 22);
	assert_true(l.chart.h >= 4);
	assert_true(l.threads.h >= 5);
	assert_int_equal(l.threads.y + l.threads.h, l.keys.y);
	/* Attach mode: no workload panels, more thread rows. */
	struct dash_layout a;
	dash_layout_compute(24, 80, false, 2, &a);
	assert_int_equal(a.throughput.h, 0);
	assert_int_equal(a.chart.h, 0);
	assert_true(a.threads.h > l.threads.h);
	/* More room: a bigger chart, more thread rows, CPU bars beside the chart. */
	struct dash_layout b;
	dash_layout_compute(50, 160, true, 16, &b);
	assert_true(b.threads.h > l.threads.h);
	assert_true(b.chart.h > l.chart.h);
	assert_int_equal(b.cpus.y, b.chart.y);
	assert_true(b.cpus.x >= b.chart.x + b.chart.w);
	const struct dash_rect *ball[] = {&b.chart, &b.cpus, &b.threads};
	for (size_t i = 0; i < 3; i++)
		rect_inside(ball[i], 50, 160);
	/* Many CPUs at 80 columns: several bars per row, bounded height. */
	dash_layout_compute(24, 80, false, 64, &a);
	assert_true(a.cpu_cols >= 3);
	assert_true(a.cpus.h <= 4);
	/* Below the minimum: only the notice. */
	dash_layout_compute(23, 80, true, 2, &l);
	assert_true(l.too_small);
	dash_layout_compute(24, 79, true, 2, &l);
	assert_true(l.too_small);
	dash_layout_compute(1, 1, true, 2, &l);
	assert_true(l.too_small);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_layout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
