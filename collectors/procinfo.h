/* procinfo.h — small facts about the machine and a process from /proc.
 *
 * Every reader works under a struct sysroot, so fixture trees can stand in
 * for the live system; the parsers are pure functions of a NUL-terminated
 * buffer.  Readers returning int give 0 (or a value) or -errno. */
#ifndef THREADLAB_PROCINFO_H
#define THREADLAB_PROCINFO_H

#include <stddef.h>
#include <sys/types.h>

#include "sysroot.h"

/* "MemAvailable:" of a /proc/meminfo buffer, in bytes.  0, or -EINVAL
 * when the line is missing or malformed. */
int procinfo_meminfo_parse(const char *buf, unsigned long long *avail);
/* proc/meminfo's MemAvailable in bytes; 0 when unknown (not readable,
 * kernels before 3.14). */
unsigned long long procinfo_mem_available(const struct sysroot *r);

/* The first "model name" of a /proc/cpuinfo buffer, raw bytes, into out
 * (cap bytes); "" when there is none (some architectures say "Processor"
 * or "cpu model": those are looked for next).  Returns the length. */
size_t procinfo_cpuinfo_model(const char *buf, char *out, size_t cap);
/* The CPU model of the machine under the root, as above; "" when unknown. */
void procinfo_cpu_model(const struct sysroot *r, char *out, size_t cap);

/* The thread group (process) id of task pid, from proc/PID/status "Tgid:":
 * equal to pid for a process, another process's id for one of its threads.
 * Returns the tgid, -ESRCH when there is no such task, -EACCES when it may
 * not be read, -EINVAL when the file has no Tgid line. */
int procinfo_tgid(const struct sysroot *r, pid_t pid);

#endif
