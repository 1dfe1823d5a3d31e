/* maps.h — which files a process has mapped: /proc/PID/maps.
 *
 * Used to tell which thread-pool runtimes a process loaded (OpenBLAS,
 * libgomp, MKL, …).  Line format (proc(5), fs/proc/task_mmu.c
 * show_map_vma): "start-end perms offset dev inode", padding, then the
 * path to the end of the line.  The path is printed by seq_file_path(),
 * which escapes only a newline (as "\012"); spaces and backslashes come as
 * they are, so the path is everything after the padding, never split on
 * blanks.  An unlinked file ends in " (deleted)".  Pseudo paths ([heap],
 * [vdso], [anon:…]) and anonymous mappings carry no file. */
#ifndef THREADLAB_MAPS_H
#define THREADLAB_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "sysroot.h"

#define MAPS_PATH_MAX 1024

/* One line of maps. */
struct maps_line {
	char path[MAPS_PATH_MAX]; /* the file, "\012" decoded, " (deleted)" removed; "" none */
	bool deleted;		  /* the path ended in " (deleted)" */
	bool exec;		  /* perms include x */
	unsigned long inode;	  /* field 5 */
	unsigned long long start, end; /* field 1, the address range */
	unsigned long long offset;     /* field 3, the file offset mapped at start */
};

/* Parses one line (len bytes, no newline).  0, or -EINVAL when the header
 * fields are malformed.  A line without a file gives path "". */
int maps_line_parse(const char *line, size_t len, struct maps_line *out);

/* The distinct files of a maps buffer (len bytes): calls fn for each path
 * the first time it appears (a library appears as 4-5 mappings).  Returns
 * the number of distinct files, or -EINVAL when a line is malformed (the
 * lines before it were handed over). */
int maps_files(const char *buf, size_t len, void (*fn)(const struct maps_line *l, void *arg),
	       void *arg);

/* Reads proc/PID/maps whole into *buf (allocated, NUL-terminated, owned by
 * the caller; at most cap bytes, *truncated tells).  Returns the length, or
 * -ESRCH (no such process), -EACCES (may not be read: another user's
 * process needs CAP_SYS_PTRACE). */
/* Calls fn for every line that maps a file, in order (a library's code is
 * one of its four or five mappings).  Returns the count, or -EINVAL. */
int maps_each(const char *buf, size_t len, void (*fn)(const struct maps_line *l, void *arg),
	      void *arg);

ssize_t maps_read(const struct sysroot *r, pid_t pid, char **buf, size_t cap, bool *truncated);
/* The same through thread tid's view, proc/PID/task/TID/maps (tid 0:
 * proc/PID/maps, which a zombie leader reads as empty). */
ssize_t maps_read_via(const struct sysroot *r, pid_t pid, pid_t tid, char **buf, size_t cap,
		      bool *truncated);

#endif
