/* collector.c — choose the collector path once per process (collector.h).
 *
 * The loaded programs live here for the process's life, shared by every
 * session (the exporter's --match follows many, the lab restarts its
 * anchor): one set of tracepoints, however many targets.  The note for a
 * fallback names the reason the loader found, so a person knows what to
 * change: run as root, grant the capabilities, a kernel with BTF. */
#include "config.h"

#include "collector-impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "privileges.h"
#include "session-impl.h"
#include "bpf-load.h"
#include "bpf-threads.h"

static struct bpf_tasks *collector_loaded;
static bool collector_chosen;
static char collector_why[320];
static char collector_reason[256]; /* the loader's, for the table's line */

const char *const *collector_want_names(void)
{
	static const char *const names[] = {
	    [COLLECTOR_AUTO] = "auto", [COLLECTOR_BPF] = "bpf", [COLLECTOR_PROC] = "proc", NULL};
	return names;
}

int collector_choose(const struct collector_opts *o, char *err, size_t errlen)
{
	if (collector_chosen)
		return 0;
	collector_chosen = true;
	collector_why[0] = '\0';
	if (o->want != COLLECTOR_PROC && o->live) {
		char why[256];
		unsigned cap = o->bpf_threads ? o->bpf_threads : COLLECTOR_BPF_THREADS_DEFAULT;
		int rc = bpf_load_tasks(cap, &collector_loaded, why, sizeof(why));
		if (rc < 0 && o->want == COLLECTOR_BPF) {
			snprintf(
			    err, errlen, "--collector bpf: cannot load the BPF programs: %s%s", why,
			    rc == -EPERM ? " (run as root, or grant the binary "
					   "cap_bpf,cap_perfmon+ep with setcap: see threadlab(1))"
					 : "");
			privileges_drop_bpf();
			return EXIT_USAGE;
		}
		if (rc < 0) {
			snprintf(collector_why, sizeof(collector_why),
				 "collector /proc: BPF unavailable (%s), so no run-queue latency",
				 why);
			snprintf(collector_reason, sizeof(collector_reason), "%s", why);
		}
	} else if (!o->live && o->want == COLLECTOR_BPF) {
		snprintf(err, errlen, "--collector bpf reads the live machine: drop --root");
		return EXIT_USAGE;
	}
	/* Loaded or not, nothing later may load programs. */
	privileges_drop_bpf();
	return EXIT_OK;
}

bool collector_bpf_on(void)
{
	return collector_loaded != NULL;
}

const char *collector_note(void)
{
	return collector_why;
}

void collector_attach(struct sampler *s, bool live)
{
	if (s && live && collector_loaded)
		sampler_use_bpf(s, collector_loaded);
}

struct bpf_threads *collector_machine_reader(bool live)
{
	/* The iterator numbers tasks in our PID namespace; a /proc mounted
	 * from another (unshare -p without a new /proc) numbers them there,
	 * and the machine reader matches the two by number. */
	char self[32];
	ssize_t n = readlink("/proc/self", self, sizeof(self) - 1);
	if (!live || !collector_loaded || n <= 0)
		return NULL;
	self[n] = '\0';
	if (strtol(self, NULL, 10) != (long)getpid())
		return NULL;
	return bpf_threads_new_machine(collector_loaded);
}

unsigned long long collector_dropped(void)
{
	return collector_loaded ? bpf_load_dropped(collector_loaded) : 0;
}

unsigned collector_capacity(void)
{
	return collector_loaded ? bpf_load_capacity(collector_loaded) : 0;
}

unsigned long long collector_reads(void)
{
	return collector_loaded ? bpf_load_reads(collector_loaded) : 0;
}

void collector_session_note(const struct session *s, char *out, size_t cap)
{
	const struct snapshot_rates *r = &s->impl->rates;
	out[0] = '\0';
	if (r->lat_on && s->impl->cur.threads.lat_dropped > 0)
		snprintf(out, cap,
			 "run-queue latency: %llu waits not traced, the BPF map holds %u threads "
			 "(--bpf-threads N for more)",
			 (unsigned long long)s->impl->cur.threads.lat_dropped, r->lat_capacity);
	else if (r->lat_on || !s->have_rates)
		return;
	else if (s->impl->rec)
		snprintf(out, cap,
			 "P50/P99/MAX hidden: the recording has no run-queue latency "
			 "(made with the /proc collector)");
	else if (s->path_note[0])
		snprintf(out, cap, "P50/P99/MAX hidden: %s", s->path_note);
	else if (collector_reason[0])
		snprintf(out, cap, "P50/P99/MAX need the BPF collector: %s", collector_reason);
	else
		snprintf(out, cap,
			 "P50/P99/MAX hidden: threads read from /proc (--collector "
			 "proc, or a --root tree)");
}

void collector_release(void)
{
	bpf_load_free(collector_loaded);
	collector_loaded = NULL;
}
