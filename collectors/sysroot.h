/* sysroot.h — the directory every collector path is relative to.
 *
 * Live, the root is "/"; tests point it at tests/fixtures/CASE, which holds
 * proc/… and sys/… as the real ones do.  Collectors never name an absolute
 * path: they call sysroot_read(root, "proc/1234/status", …) and friends. */
#ifndef THREADLAB_SYSROOT_H
#define THREADLAB_SYSROOT_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct sysroot {
	int fd;		 /* O_PATH|O_DIRECTORY descriptor of the root */
	bool live;	 /* true when the root is "/" (libproc2 and syscalls apply) */
	char path[4096]; /* as given, for messages */
};

/* Opens dir as the root.  Returns 0 or -errno. */
int sysroot_open(struct sysroot *r, const char *dir);
void sysroot_close(struct sysroot *r);

/* Opens rel (no leading '/') under the root, O_RDONLY|O_CLOEXEC.
 * Returns a descriptor or -errno. */
int sysroot_openat(const struct sysroot *r, const char *rel, int flags);
/* Opens the directory rel under the root for readdir(); NULL with errno
 * set when it cannot (the caller closedir()s it). */
DIR *sysroot_opendir(const struct sysroot *r, const char *rel);

/* Reads the whole of rel (up to cap-1 bytes) into buf and NUL-terminates it.
 * Returns the number of bytes read or -errno (ENOENT when missing). */
ssize_t sysroot_read(const struct sysroot *r, const char *rel, char *buf, size_t cap);

/* Reads the whole of rel into a buffer it allocates (*buf, NUL-terminated,
 * the caller frees it), starting at first bytes and doubling up to cap:
 * a file longer than cap - 1 bytes is cut there and *truncated set.  For
 * /proc files of unknown size (environ, maps).  Returns the bytes read, or
 * -errno with *buf NULL (a missing file: -ESRCH, the process is gone). */
ssize_t sysroot_read_alloc(const struct sysroot *r, const char *rel, size_t first, size_t cap,
			   char **buf, bool *truncated);

/* "proc/PID/FILE", or the thread's "proc/PID/task/TID/FILE" when tid > 0,
 * into rel (cut at cap). */
void sysroot_proc_path(char *rel, size_t cap, pid_t pid, pid_t tid, const char *file);

/* The soft RLIMIT_NOFILE now, at most 1 << 20 (1024 when unknown): the
 * readers that hold descriptors keep under it. */
int sysroot_nofile(void);

/* True when rel exists under the root (any type). */
bool sysroot_exists(const struct sysroot *r, const char *rel);
/* The inode number of rel under the root (symbolic links followed).
 * 0, or -errno. */
int sysroot_inode(const struct sysroot *r, const char *rel, unsigned long *ino);

/* Reads a descriptor from offset 0 (pread), NUL-terminating; the cheap
 * re-read of a /proc file held open across ticks.  Returns bytes or -errno. */
ssize_t sysroot_pread_all(int fd, char *buf, size_t cap);

#endif
