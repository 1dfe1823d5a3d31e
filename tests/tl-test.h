/* tl-test.h — what every cmocka test program includes.
 *
 * TL_SKIP prints the reason where the TAP log and the terminal show it,
 * then marks the test skipped (counted as skipped, not passed). */
#ifndef THREADLAB_TL_TEST_H
#define THREADLAB_TL_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#define TL_SKIP(...)                                                                               \
	do {                                                                                       \
		printf("# SKIP: ");                                                                \
		printf(__VA_ARGS__);                                                               \
		printf("\n");                                                                      \
		fflush(stdout);                                                                    \
		fprintf(stderr, "SKIP: ");                                                         \
		fprintf(stderr, __VA_ARGS__);                                                      \
		fprintf(stderr, "\n");                                                             \
		skip();                                                                            \
	} while (0)

/* Directory of the fixture trees: $THREADLAB_SRCDIR/tests/fixtures. */
static inline const char *tl_fixtures(void)
{
	static char buf[4096];
	const char *src = getenv("THREADLAB_SRCDIR");
	snprintf(buf, sizeof(buf), "%s/tests/fixtures", src ? src : ".");
	return buf;
}

#endif
