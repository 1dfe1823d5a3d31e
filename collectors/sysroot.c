/* sysroot.c — open and read files relative to the collectors' root. */
#include "config.h"

#include "sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xalloc.h"

int sysroot_open(struct sysroot *r, const char *dir)
{
	memset(r, 0, sizeof(*r));
	r->fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (r->fd < 0)
		return -errno;
	snprintf(r->path, sizeof(r->path), "%s", dir);
	struct stat a, b;
	r->live = stat("/", &a) == 0 && fstat(r->fd, &b) == 0 && a.st_dev == b.st_dev &&
		  a.st_ino == b.st_ino;
	return 0;
}

void sysroot_close(struct sysroot *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

int sysroot_openat(const struct sysroot *r, const char *rel, int flags)
{
	while (*rel == '/')
		rel++;
	int fd = openat(r->fd, rel, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

DIR *sysroot_opendir(const struct sysroot *r, const char *rel)
{
	int fd = sysroot_openat(r, rel, O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	DIR *d = fdopendir(fd);
	if (!d) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return d;
}

ssize_t sysroot_pread_all(int fd, char *buf, size_t cap)
{
	size_t got = 0;
	if (cap == 0)
		return -EINVAL;
	while (got < cap - 1) {
		ssize_t n = pread(fd, buf + got, cap - 1 - got, (off_t)got);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	return (ssize_t)got;
}

ssize_t sysroot_read(const struct sysroot *r, const char *rel, char *buf, size_t cap)
{
	int fd = sysroot_openat(r, rel, O_RDONLY);
	if (fd < 0)
		return fd;
	ssize_t n = sysroot_pread_all(fd, buf, cap);
	close(fd);
	return n;
}

bool sysroot_exists(const struct sysroot *r, const char *rel)
{
	struct stat st;
	while (*rel == '/')
		rel++;
	return fstatat(r->fd, rel, &st, 0) == 0;
}

int sysroot_inode(const struct sysroot *r, const char *rel, unsigned long *ino)
{
	struct stat st;
	while (*rel == '/')
		rel++;
	if (fstatat(r->fd, rel, &st, 0) != 0)
		return -errno;
	*ino = (unsigned long)st.st_ino;
	return 0;
}

void sysroot_proc_path(char *rel, size_t cap, pid_t pid, pid_t tid, const char *file)
{
	if (tid > 0)
		snprintf(rel, cap, "proc/%d/task/%d/%s", (int)pid, (int)tid, file);
	else
		snprintf(rel, cap, "proc/%d/%s", (int)pid, file);
}

ssize_t sysroot_read_alloc(const struct sysroot *r, const char *rel, size_t first, size_t cap,
			   char **buf, bool *truncated)
{
	*buf = NULL;
	*truncated = false;
	int fd = sysroot_openat(r, rel, O_RDONLY);
	if (fd < 0)
		return fd == -ENOENT ? -ESRCH : fd;
	size_t size = first < cap ? first : cap, n = 0;
	char *b = xmalloc(size);
	for (;;) {
		if (n + 1 >= size) {
			if (size >= cap) {
				*truncated = true;
				break;
			}
			size = size * 2 > cap ? cap : size * 2;
			b = xrealloc(b, size);
		}
		ssize_t got = read(fd, b + n, size - 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;
			close(fd);
			free(b);
			return -e;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	b[n] = '\0';
	*buf = b;
	return (ssize_t)n;
}

int sysroot_nofile(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 1024;
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 1 << 20)
		return 1 << 20;
	return (int)rl.rlim_cur;
}
