/* collector.h — the collector path threads are read by: the BPF task
 * iterator (with run-queue latency) where it loads, else /proc.
 *
 * The choice is made once per threadlab process, before any session
 * starts: loading needs CAP_BPF and CAP_PERFMON (or root), and once the
 * programs are loaded those capabilities (and CAP_SYS_ADMIN) are dropped
 * from the process for good (privileges.h), so nothing later can load
 * programs: not a session restarted, not a scrape of the exporter.  Every
 * sampler a session makes then reads through the loaded programs
 * (collector_attach, collector-impl.h); a sampler whose BPF read fails
 * falls back to /proc on its own. */
#ifndef THREADLAB_COLLECTOR_H
#define THREADLAB_COLLECTOR_H

#include <stdbool.h>
#include <stddef.h>

enum collector_want {
	COLLECTOR_AUTO, /* BPF where it loads, else /proc with a note */
	COLLECTOR_BPF,	/* BPF or exit 2 */
	COLLECTOR_PROC, /* /proc, no BPF at all */
};

/* "auto", "bpf", "proc", NULL: a name's index is its enum collector_want
 * (the parser and the shell completions read this one list). */
const char *const *collector_want_names(void);

/* Threads the latency map holds unless --bpf-threads says otherwise: the
 * one source of that default (the collector takes the figure it is given,
 * --help prints this one). */
#define COLLECTOR_BPF_THREADS_DEFAULT 16384

struct collector_opts {
	enum collector_want want;
	unsigned bpf_threads; /* threads the latency map holds; 0: the default */
	bool live;	      /* the root is "/": a fixture tree takes /proc only */
};

/* Chooses and, for BPF, loads; then drops the capabilities BPF needed.
 * Returns 0 (EXIT_OK), or EXIT_USAGE when want is COLLECTOR_BPF and the
 * programs cannot load, with the reason in err.  Calling it again does
 * nothing. */
int collector_choose(const struct collector_opts *o, char *err, size_t errlen);

/* Whether samplers read through BPF. */
bool collector_bpf_on(void);
/* Why they do not, in one line ("" when BPF is on or /proc was asked for):
 * "collector /proc: BPF unavailable (not root and no CAP_BPF, CAP_PERFMON)". */
const char *collector_note(void);

/* The loaded programs' counters, for faces and tests: latency events the
 * map had no room for, its size, iterator reads so far (0 on /proc). */
unsigned long long collector_dropped(void);
unsigned collector_capacity(void);
unsigned long long collector_reads(void);

struct session;
/* The line a face shows about s's run-queue latency, "" when there is
 * nothing to say: why the P50/P99/MAX columns are hidden (the /proc path
 * and its reason, a recording made without BPF), or that the latency map
 * was full ("1234 waits not traced: the BPF map holds 16384 threads"). */
void collector_session_note(const struct session *s, char *out, size_t cap);

/* Unloads the programs (at exit). */
void collector_release(void);

#endif
