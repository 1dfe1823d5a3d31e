/* tour-impl.h — what the tour's caption files share (tour-caption.c,
 * tour-models.c): a caption being written. */
#ifndef THREADLAB_TOUR_IMPL_H
#define THREADLAB_TOUR_IMPL_H

#include <stddef.h>

/* A caption buffer: cap bytes at p, len used (always NUL-terminated). */
struct tour_text {
	char *p;
	size_t cap, len;
};

#endif
