/* test-heap-huge.c — the start's huge-page window (common/heap-huge.c):
 * memory first touched inside it comes in huge pages (far fewer page
 * faults for 8 MB than 2,048), nested windows close only with the outermost, and
 * memory touched after it in small pages again (the dashboard's steady
 * state holds no more than it needs).  Where the window does nothing (a
 * sanitizer's allocator, not glibc, huge pages not on madvise) the case
 * says SKIP. */
#include "tl-test.h"

#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include "heap-huge.h"

#define BLOCK (8u << 20)

static long faults(void)
{
	struct rusage u;
	getrusage(RUSAGE_SELF, &u);
	return u.ru_minflt;
}

/* The page faults that touching a fresh BLOCK costs. */
static long touch_block(void)
{
	char *p = malloc(BLOCK);
	assert_non_null(p);
	long before = faults();
	memset(p, 1, BLOCK);
	long n = faults() - before;
	free(p);
	return n;
}

static void skip_where_off(void)
{
#if !defined(__GLIBC__) || defined(__SANITIZE_ADDRESS__)
	TL_SKIP("the window does nothing here (not glibc's allocator, or a sanitizer's)");
#endif
	char mode[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	if (f) {
		if (!fgets(mode, sizeof(mode), f))
			mode[0] = '\0';
		fclose(f);
	}
	/* (under [always] every block comes in huge pages, the window's or
	 * not: nothing to tell apart) */
	if (!strstr(mode, "[madvise]"))
		TL_SKIP("transparent huge pages are not on madvise here (%s)",
			mode[0] ? mode : "no such file");
	if (prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0) > 0)
		TL_SKIP("transparent huge pages are off for this process (PR_SET_THP_DISABLE)");
}

static void test_window(void **state)
{
	(void)state;
	skip_where_off();
	heap_huge_begin();
	heap_huge_begin(); /* (nested: the load inside a session's start) */
	heap_huge_end();
	long inside = touch_block();
	heap_huge_end();
	long after = touch_block();
	printf("# 8 MB touched: %ld page faults inside the window, %ld after it\n", inside,
	       after);
	/* (2,048 small pages; inside, the block's start before the first
	 * huge-page boundary may still come in small ones: up to 512) */
	assert_true(inside < 1024);
	assert_true(after >= 1536);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_window),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
