/* heap-huge.c — fresh memory on transparent huge pages while threadlab
 * starts (heap-huge.h).
 *
 * glibc's allocator is shown one large block, freed: as it does by itself
 * after such a free, it then serves blocks up to that size from its heap
 * and keeps up to twice that free (its dynamic thresholds, which stay
 * raised; mallopt would fix them for good, and every later large block of
 * a tick would be mapped and faulted afresh).  A second block, from the
 * heap now, is marked for transparent huge pages and freed, so what comes
 * next lands on huge pages; at the end the mark is taken off again (no
 * huge page is made there later) and what is free at the heap's top is
 * given back.  Nothing of it where the kernel has no transparent huge
 * pages (madvise fails; where they are set to never it succeeds and does
 * nothing), or under a sanitizer's allocator, which would only hold both
 * blocks in its quarantine.  Measured: docs/figures.md, "Loading the programs" and "The
 * first sample". */
#include "config.h"

#include "heap-huge.h"

#include <stdlib.h> /* (first: it says whether this is glibc) */

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
#include <malloc.h>
#include <stdint.h>
#include <sys/mman.h>

#define HEAP_HUGE_SHOWN (24u << 20)
#define HEAP_HUGE_PAGE (2u << 20)

static unsigned heap_huge_depth;
static uintptr_t heap_huge_from, heap_huge_to; /* the range marked (none: equal) */

void heap_huge_begin(void)
{
	if (heap_huge_depth++ > 0)
		return;
	heap_huge_from = heap_huge_to = 0;
	void *volatile shown = malloc(HEAP_HUGE_SHOWN); /* (a pair the compiler may not drop) */
	free(shown);
	size_t n = HEAP_HUGE_SHOWN - HEAP_HUGE_PAGE; /* below the threshold it set */
	char *p = malloc(n);
	if (!p)
		return;
	uintptr_t from = ((uintptr_t)p + HEAP_HUGE_PAGE - 1) & ~(uintptr_t)(HEAP_HUGE_PAGE - 1);
	uintptr_t to = ((uintptr_t)p + n) & ~(uintptr_t)(HEAP_HUGE_PAGE - 1);
	if (to > from && madvise((void *)from, to - from, MADV_HUGEPAGE) == 0) {
		heap_huge_from = from;
		heap_huge_to = to;
	}
	free(p);
}

void heap_huge_end(void)
{
	if (heap_huge_depth == 0 || --heap_huge_depth > 0)
		return;
	if (heap_huge_to > heap_huge_from) /* (ENOMEM where the heap shrank below it) */
		(void)madvise((void *)heap_huge_from, heap_huge_to - heap_huge_from,
			      MADV_NOHUGEPAGE);
	heap_huge_from = heap_huge_to = 0;
	malloc_trim(0);
}
#else
void heap_huge_begin(void)
{
}

void heap_huge_end(void)
{
}
#endif
