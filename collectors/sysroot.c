/* sysroot.c — open and read files relative to the collectors' root. */
#include "config.h"

#include "sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
