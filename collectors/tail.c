/* tail.c — follow a file through truncation and rotation (tail.h). */
#define _GNU_SOURCE
#include "tail.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

static bool tail_reopen(struct tail *t, bool at_end)
{
	int fd = open(t->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (fd < 0)
		return false;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return false;
	}
	if (t->fd >= 0)
		close(t->fd);
	t->fd = fd;
	t->dev = st.st_dev;
	t->ino = st.st_ino;
	t->off = at_end ? st.st_size : 0;
	return true;
}

int tail_check(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
		return -EINVAL;
	/* A kernel file (/proc, /sys, a cgroup's) is made anew at each read,
	 * never appended to: what a tail of it reads is its whole text again
	 * and again, counted as steps. */
	struct statfs fs;
	if (S_ISREG(st.st_mode) && statfs(path, &fs) == 0 &&
	    (fs.f_type == PROC_SUPER_MAGIC || fs.f_type == SYSFS_MAGIC ||
	     fs.f_type == CGROUP_SUPER_MAGIC || fs.f_type == CGROUP2_SUPER_MAGIC ||
	     fs.f_type == DEBUGFS_MAGIC || fs.f_type == TRACEFS_MAGIC))
		return -ENOTSUP;
	return access(path, R_OK) < 0 ? -errno : 0;
}

void tail_open(struct tail *t, const char *path)
{
	snprintf(t->path, sizeof(t->path), "%s", path);
	t->fd = -1;
	tail_reopen(t, true);
}

static size_t tail_pread(struct tail *t, char *buf, size_t cap)
{
	ssize_t n = pread(t->fd, buf, cap, t->off);
	if (n <= 0)
		return 0;
	t->off += n;
	return (size_t)n;
}

size_t tail_read(struct tail *t, char *buf, size_t cap)
{
	if (t->fd < 0)
		return tail_reopen(t, false) ? tail_pread(t, buf, cap) : 0;
	struct stat fs, ps;
	if (fstat(t->fd, &fs) == 0 && fs.st_size < t->off)
		t->off = 0; /* truncated: it starts over */
	size_t n = tail_pread(t, buf, cap);
	if (n > 0)
		return n;
	/* All of the open file is read: has another taken its name? */
	if (stat(t->path, &ps) < 0) {
		if (errno == ENOENT) {
			close(t->fd);
			t->fd = -1;
		}
		return 0;
	}
	if (ps.st_dev != t->dev || ps.st_ino != t->ino)
		if (tail_reopen(t, false))
			return tail_pread(t, buf, cap);
	return 0;
}

void tail_close(struct tail *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}
