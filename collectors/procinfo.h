/* procinfo.h — small facts about the machine and a process from /proc.
 *
 * Every reader works under a struct sysroot, so fixture trees can stand in
 * for the live system; the parsers are pure functions of a NUL-terminated
 * buffer.  Readers returning int give 0 (or a value) or -errno. */
#ifndef THREADLAB_PROCINFO_H
#define THREADLAB_PROCINFO_H

#include <stddef.h>
#include <sys/types.h>

#include "procparse.h"
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

/* Process pid's own stat line (its comm, state, parent, start time,
 * thread count), from its leader's proc/PID/task/PID/stat, else
 * proc/PID/stat: utime and stime are the leader's alone, or the
 * process's.  0, -ESRCH, -EINVAL. */
int procinfo_stat(const struct sysroot *r, pid_t pid, struct stat_line *out);

/* proc/PID/cmdline into buf: the arguments, each ended by a NUL, raw, cut
 * to cap - 1 bytes (and NUL-terminated).  Returns the length (0 for a
 * kernel thread or a zombie), or -ESRCH. */
/* A thread of process pid other than its leader that has not exited (its
 * stat state not Z or X), or 0 when there is none: the view through which
 * a process whose leader exited is read. */
pid_t procinfo_live_thread(const struct sysroot *r, pid_t pid);

ssize_t procinfo_cmdline(const struct sysroot *r, pid_t pid, char *buf, size_t cap);

/* The size of pid's address space in pages (proc/PID/statm, its first
 * field; read through thread tid when tid is not 0): a mapping added or
 * removed changes it, so an unchanged size says its maps are most likely
 * unchanged, at a fraction of their cost (a process with 10,000 threads
 * has 20,000 mappings).  0, or -errno. */
int procinfo_vm_pages(const struct sysroot *r, pid_t pid, pid_t tid, unsigned long long *pages);

/* The executable of pid: the target of proc/PID/exe, " (deleted)" kept as
 * the kernel writes it.  0, or -ESRCH, -EACCES (another user's process
 * without CAP_SYS_PTRACE), -ENOENT (a kernel thread). */
int procinfo_exe(const struct sysroot *r, pid_t pid, char *buf, size_t cap);

/* The processes under the root: the numeric entries of proc/, sorted,
 * into *out (grown as needed, owned by the caller).  Returns the count or
 * -errno.  A directory scan, not libproc2: it works in fixture trees, and
 * the caller reads only what it needs of each process. */
ssize_t procinfo_pids(const struct sysroot *r, pid_t **out, size_t *cap);
/* The threads of process pid (proc/PID/task/), the same way.  Returns the
 * count, or -ESRCH when the process has gone. */
ssize_t procinfo_tids(const struct sysroot *r, pid_t pid, pid_t **out, size_t *cap);

/* The CPUs process pid may run on (proc/PID/status Cpus_allowed_list),
 * as bits of set (bytes long, zeroed here).  Returns their count, -ESRCH,
 * or -EINVAL when the line is missing or malformed. */
int procinfo_cpus_allowed(const struct sysroot *r, pid_t pid, uint8_t *set, size_t bytes);

/* Physical cores among the online CPUs (distinct package and core ids
 * under sys/devices/system/cpu/cpuN/topology); 0 when unknown. */
int procinfo_physical_cores(const struct sysroot *r);

#endif
