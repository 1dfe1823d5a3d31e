/* heap-huge.h — fresh memory on transparent huge pages while threadlab
 * starts (common/: every layer links it).
 *
 * A start touches much memory for the first time: libbpf's copies of the
 * kernel's BTF while the BPF programs load, and on a target with 10,000
 * threads some 20 MB of samples, rates and rows for the first two reads.
 * On a virtual machine a page fault costs about 10 us; on huge pages the
 * same memory takes 512 times fewer.  heap_huge_begin() readies the
 * allocator's heap for it and heap_huge_end() puts things back; nested
 * calls (the load inside a session's start) do nothing but count.  Main
 * thread only.  Nothing of it without glibc, or under a sanitizer's
 * allocator. */
#ifndef THREADLAB_HEAP_HUGE_H
#define THREADLAB_HEAP_HUGE_H

void heap_huge_begin(void);
void heap_huge_end(void);

#endif
