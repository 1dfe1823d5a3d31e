/* tail.h — follow a file another program appends to, as tail -F does.
 *
 * tail_read() returns what was appended since the last call.  The file
 * may be missing at first (it is opened when it appears), truncated (read
 * again from its start) or rotated: renamed or removed and created anew
 * under the same name (the rest of the old file is read, then the new one
 * from its start).  It starts at the end of the file present at
 * tail_open(): only lines written from then on count. */
#ifndef THREADLAB_TAIL_H
#define THREADLAB_TAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct tail {
	char path[4096];
	int fd;	   /* -1 while the file is missing */
	dev_t dev; /* of the file open on fd */
	ino_t ino;
	off_t off; /* bytes of it read */
};

/* Whether path can be followed: a readable file that exists (a regular
 * file or a FIFO, not a kernel file of /proc, /sys or a cgroup, which is
 * made anew at each read).  Returns 0, or -ENOENT, -EISDIR, -EINVAL
 * (another kind of file), -ENOTSUP (a kernel file), -EACCES … */
int tail_check(const char *path);

/* Remembers path and opens it if it exists.  Never fails. */
void tail_open(struct tail *t, const char *path);

/* Up to cap bytes appended since the last call; 0 when none. */
size_t tail_read(struct tail *t, char *buf, size_t cap);

void tail_close(struct tail *t);

#endif
