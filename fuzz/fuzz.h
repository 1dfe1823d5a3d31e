/* fuzz.h — what every libFuzzer target (fuzz/fuzz-*.c) shares.
 *
 * Each target feeds one parser or reader of foreign text (what /proc, a
 * cgroup file, a recording or an HTTP client can hand threadlab) with
 * arbitrary bytes; ASan and UBSan turn any overrun or undefined behaviour
 * into a crash.  Built only by ./configure --enable-fuzzing CC=clang. */
#ifndef THREADLAB_FUZZ_H
#define THREADLAB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (the parsers' contract), owned by
 * the caller: free() it. */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Splits s at its first newline: s keeps the first line (with its
 * newline), the return value is the rest (maybe ""). */
static inline char *fuzz_split(char *s, char *second, size_t cap)
{
	char *nl = strchr(s, '\n');
	second[0] = '\0';
	if (nl) {
		size_t n = strlen(nl + 1);
		if (n >= cap)
			n = cap - 1;
		memcpy(second, nl + 1, n);
		second[n] = '\0';
		nl[1] = '\0';
	}
	return second;
}

#endif
