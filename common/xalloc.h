/* xalloc.h — allocation that cannot fail (common/: every layer links it).
 *
 * threadlab has no useful way to continue without memory, so every
 * allocation goes through these wrappers: on failure they print one line to
 * stderr and exit with status 3 (see threadlab(1), EXIT STATUS). */
#ifndef THREADLAB_XALLOC_H
#define THREADLAB_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
/* Grows an array to hold at least need elements of size; *cap is updated. */
void *xreallocarray_grow(void *p, size_t *cap, size_t need, size_t size);
char *xstrdup(const char *s);
/* Like asprintf; the result is owned by the caller (free). */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
