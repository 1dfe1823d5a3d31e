/* thread-field.c — the table of a thread's fields (thread-field.h). */
#include "config.h"

#include "thread-field-impl.h"

#include <string.h>

_Static_assert(sizeof(pid_t) == sizeof(int), "INT fields are read as int");

#define TF_INT(member)                                                                             \
	THREAD_FIELD_KIND_INT, offsetof(struct model_thread, member),                              \
	    offsetof(struct thread_rate, member)
#define TF_RATE(member)                                                                            \
	THREAD_FIELD_KIND_RATE, offsetof(struct model_thread, member),                             \
	    offsetof(struct thread_rate, member)

/* key, csv, header, width, decimals, unit, sort title, csv_last, kind and
 * member (in the row and in the rates), help */
const struct thread_field thread_field_table[THREAD_FIELD_N] = {
    [THREAD_FIELD_PID] = {"pid", "pid", "PID", 7, 0, "", NULL, false, TF_INT(pid),
			  "the process (thread group) ID"},
    [THREAD_FIELD_TID] = {"tid", "tid", "TID", 7, 0, "", "TID", false, TF_INT(tid),
			  "the thread ID"},
    [THREAD_FIELD_NAME] = {"name", "name", "NAME", -16, 0, "", "NAME", false,
			   THREAD_FIELD_KIND_NAME, 0, 0, "the thread's name (comm), raw bytes"},
    [THREAD_FIELD_STATE] = {"state", "state", "S", 1, 0, "", NULL, false, THREAD_FIELD_KIND_STATE,
			    0, 0, "the state letter (R running or runnable, S sleeping, D ...)"},
    [THREAD_FIELD_CPU] = {"cpu", "cpu", "CPU", 3, 0, "", NULL, false, TF_INT(cpu),
			  "the CPU it last ran on"},
    [THREAD_FIELD_CPU_PCT] = {"cpu_pct", "cpu_pct", "CPU%", 6, 2, "%", "CPU%", false,
			      TF_RATE(cpu_pct), "time on a CPU, % of one CPU"},
    [THREAD_FIELD_USER_PCT] = {"user_pct", "user_pct", "USR%", 6, 2, "%", NULL, false,
			       TF_RATE(user_pct), "the user-mode part of cpu_pct"},
    [THREAD_FIELD_SYS_PCT] = {"sys_pct", "sys_pct", "SYS%", 6, 2, "%", NULL, false,
			      TF_RATE(sys_pct), "the kernel-mode part of cpu_pct"},
    [THREAD_FIELD_WAIT_PCT] = {"wait_pct", "wait_pct", "WAIT%", 6, 2, "%", "WAIT%", false,
			       TF_RATE(wait_pct), "time runnable on a run queue, not running"},
    [THREAD_FIELD_VCSW] = {"vcsw_per_s", "vcsw_per_s", "VCSW/s", 8, 1, "1/s", NULL, false,
			   TF_RATE(vcsw_per_s), "voluntary context switches (it blocked)"},
    [THREAD_FIELD_IVCSW] = {"ivcsw_per_s", "ivcsw_per_s", "IVCSW/s", 8, 1, "1/s", "IVCS/s", false,
			    TF_RATE(ivcsw_per_s),
			    "involuntary context switches (the scheduler took the CPU)"},
    [THREAD_FIELD_LATENCY] = {"latency", "p50_ms,p99_ms,max_ms,latency_events", "P50ms P99ms MAXms",
			      7, 3, "ms", "P99", true, THREAD_FIELD_KIND_LATENCY, 0, 0,
			      "run-queue latency of the interval's wake-ups (BPF collector)"},
    [THREAD_FIELD_ACTIVITY] = {"activity", "activity", "ACTIVITY", 0, 0, "", NULL, true,
			       THREAD_FIELD_KIND_ACTIVITY, 0, 0,
			       "what it did most of the interval (compute, spin, pool-idle ...)"},
};

double thread_field_value(const struct thread_field *f, const struct model_thread *t)
{
	const char *base = (const char *)t + f->offset;
	int i;
	double d;
	switch (f->kind) {
	case THREAD_FIELD_KIND_INT:
		memcpy(&i, base, sizeof(i));
		return i;
	case THREAD_FIELD_KIND_RATE:
		memcpy(&d, base, sizeof(d));
		return d;
	case THREAD_FIELD_KIND_LATENCY:
		return t->latency.p99_s;
	case THREAD_FIELD_KIND_NAME:
	case THREAD_FIELD_KIND_STATE:
	case THREAD_FIELD_KIND_ACTIVITY:
		break;
	}
	return 0;
}

void thread_field_set(const struct thread_field *f, struct thread_rate *t, double v)
{
	char *base = (char *)t + f->rate_offset;
	if (f->kind == THREAD_FIELD_KIND_INT) {
		int i = (int)v;
		memcpy(base, &i, sizeof(i));
	} else if (f->kind == THREAD_FIELD_KIND_RATE) {
		memcpy(base, &v, sizeof(v));
	}
}
