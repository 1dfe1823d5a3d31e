/* lab-triad.c — the lab's kernels: their names and the triad's length.
 *
 * The triad must stream from memory, not from a cache: each of its two
 * arrays holds at least twice the largest cache the kernel reports for
 * CPU 0 (so the pair is four times it) and never less than
 * LAB_TRIAD_MIN_MIB, the rule STREAM gives for its arrays. */
#include "config.h"

#include "lab.h"
#include "lab-triad.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const *lab_triad_kernel_names(void)
{
	static const char *const names[] = {[CTL_GEMM] = "gemm", [CTL_TRIAD] = "triad", NULL};
	return names;
}

const char *lab_triad_kernel_name(enum ctl_kernel k)
{
	return lab_triad_kernel_names()[k == CTL_TRIAD ? CTL_TRIAD : CTL_GEMM];
}

unsigned long long lab_triad_cache_parse(const char *text)
{
	char *end;
	unsigned long long v = strtoull(text, &end, 10);
	if (end == text)
		return 0;
	switch (*end) {
	case 'K':
		return v << 10;
	case 'M':
		return v << 20;
	case 'G':
		return v << 30;
	default:
		return v;
	}
}

unsigned long long lab_triad_largest_cache(const char *cpu_dir)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/cache", cpu_dir);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	unsigned long long best = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "index", 5) != 0)
			continue;
		char file[800], buf[64];
		snprintf(file, sizeof(file), "%s/%s/size", path, e->d_name);
		FILE *f = fopen(file, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f)) {
			unsigned long long v = lab_triad_cache_parse(buf);
			if (v > best)
				best = v;
		}
		fclose(f);
	}
	closedir(d);
	return best;
}

uint32_t lab_triad_length(enum ctl_precision p)
{
	static unsigned long long cache = (unsigned long long)-1;
	if (cache == (unsigned long long)-1)
		cache = lab_triad_largest_cache("/sys/devices/system/cpu/cpu0");
	unsigned long long bytes = 2 * cache;
	if (bytes < (unsigned long long)LAB_TRIAD_MIN_MIB << 20)
		bytes = (unsigned long long)LAB_TRIAD_MIN_MIB << 20;
	unsigned long long n = bytes / (p == CTL_DOUBLE ? 8 : 4);
	if (n > 0xffffffc0ull)
		n = 0xffffffc0ull;
	return (uint32_t)(n & ~63ull);
}
