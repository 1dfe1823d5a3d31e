/* maps.c — the files a process has mapped (maps.h). */
#include "config.h"

#include "maps.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

/* Skips one blank-separated field at *p (within end); false when there is
 * none. */
static bool maps_field(const char **p, const char *end, const char **start, size_t *n)
{
	while (*p < end && **p == ' ')
		(*p)++;
	*start = *p;
	while (*p < end && **p != ' ')
		(*p)++;
	*n = (size_t)(*p - *start);
	return *n > 0;
}

int maps_line_parse(const char *line, size_t len, struct maps_line *out)
{
	const char *p = line, *end = line + len, *f[5];
	size_t n[5];
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < 5; i++)
		if (!maps_field(&p, end, &f[i], &n[i]))
			return -EINVAL;
	/* address range, perms, offset, dev: the shapes the kernel prints */
	if (!memchr(f[0], '-', n[0]) || n[1] != 4 || !memchr(f[3], ':', n[3]))
		return -EINVAL;
	out->exec = f[1][2] == 'x';
	char *e;
	out->start = strtoull(f[0], &e, 16);
	if (*e != '-')
		return -EINVAL;
	out->end = strtoull(e + 1, NULL, 16);
	out->offset = strtoull(f[2], NULL, 16);
	char inode[24];
	if (n[4] >= sizeof(inode))
		return -EINVAL;
	memcpy(inode, f[4], n[4]);
	inode[n[4]] = '\0';
	out->inode = strtoul(inode, &e, 10);
	if (*e)
		return -EINVAL;
	while (p < end && *p == ' ')
		p++;
	if (p == end || *p == '[')
		return 0; /* anonymous, or a pseudo path such as [heap] */
	size_t plen = (size_t)(end - p);
	static const char del[] = " (deleted)";
	if (plen >= sizeof(del) - 1 && memcmp(end - (sizeof(del) - 1), del, sizeof(del) - 1) == 0) {
		out->deleted = true;
		plen -= sizeof(del) - 1;
	}
	size_t o = 0;
	for (size_t i = 0; i < plen && o + 1 < sizeof(out->path); i++) {
		if (p[i] == '\\' && i + 3 < plen && memcmp(p + i, "\\012", 4) == 0) {
			out->path[o++] = '\n';
			i += 3;
		} else {
			out->path[o++] = p[i];
		}
	}
	out->path[o] = '\0';
	return 0;
}

/* Calls fn for each line with a file, or (once) for the first line of
 * each file; returns the count handed over, or -EINVAL. */
static int maps_walk(const char *buf, size_t len, bool once,
		     void (*fn)(const struct maps_line *l, void *arg), void *arg)
{
	/* Mappings of one file are adjacent: comparing with the last few is
	 * enough to hand each over once, without a set. */
	char seen[4][MAPS_PATH_MAX];
	int nseen = 0, count = 0;
	struct maps_line l;
	for (const char *p = buf, *end = buf + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (n > 0) {
			if (maps_line_parse(p, n, &l) < 0)
				return -EINVAL;
			bool dup = !l.path[0];
			for (int i = 0; once && i < nseen && i < 4 && !dup; i++)
				dup = strcmp(seen[i], l.path) == 0;
			if (!dup) {
				if (once)
					snprintf(seen[nseen++ % 4], MAPS_PATH_MAX, "%s", l.path);
				count++;
				fn(&l, arg);
			}
		}
		p += n + 1;
	}
	return count;
}

int maps_files(const char *buf, size_t len, void (*fn)(const struct maps_line *l, void *arg),
	       void *arg)
{
	return maps_walk(buf, len, true, fn, arg);
}

int maps_each(const char *buf, size_t len, void (*fn)(const struct maps_line *l, void *arg),
	      void *arg)
{
	return maps_walk(buf, len, false, fn, arg);
}

ssize_t maps_read(const struct sysroot *r, pid_t pid, char **buf, size_t cap, bool *truncated)
{
	return maps_read_via(r, pid, 0, buf, cap, truncated);
}

ssize_t maps_read_via(const struct sysroot *r, pid_t pid, pid_t tid, char **buf, size_t cap,
		      bool *truncated)
{
	char rel[96];
	sysroot_proc_path(rel, sizeof(rel), pid, tid, "maps");
	return sysroot_read_alloc(r, rel, 16384, cap, buf, truncated);
}
