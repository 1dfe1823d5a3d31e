/* model.h — the model's plain types, for the faces (tui/, output/).
 *
 * One tick gives a sample of the target as the faces read it: its CPU
 * budget (every term, which binds), its cgroup's throttling and pressure,
 * the machine's CPUs, and one row per thread with the interval's rates
 * and, live, the thread's counters since it started.  The lab adds its
 * settings (settings.h) and the lab view (labview.h).
 *
 * These are the monitor's own types, filled from the collectors' in one
 * place (model.c, for monitor/ only: model-impl.h), so that a face never
 * names a collectors/ or workload/ type: it includes monitor/ headers and
 * calls monitor/ functions only (docs/design.md, "Layers").  A sample's
 * strings are raw bytes, made safe by whoever shows them. */
#ifndef THREADLAB_MODEL_H
#define THREADLAB_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define MODEL_NAME_MAX 64   /* a thread's name, NUL included (comm is 15 bytes) */
#define MODEL_PATH_MAX 1024 /* a cgroup path */
#define MODEL_CPUS_MAX 1024 /* CPUs a sample reports */

/* The terms of a CPU budget, in the order they bind on a tie. */
enum model_term {
	MODEL_TERM_ONLINE,   /* CPUs online */
	MODEL_TERM_AFFINITY, /* the affinity mask */
	MODEL_TERM_CPUSET,   /* the cgroup's cpuset */
	MODEL_TERM_QUOTA,    /* the cgroup's quota over its period, the tightest up the tree */
};
/* "online", "affinity", "cpuset", "quota". */
const char *model_term_name(enum model_term t);

/* The effective CPU budget of a process: the least of four terms, each
 * shown (docs/design.md, "Effective CPUs"). */
struct model_budget {
	int online;   /* count; 0: could not be read */
	int affinity; /* count; 0: could not be read */
	int cpuset;   /* count; 0: no cpuset file read */
	struct model_quota {
		double cpus;		  /* CPUs as a real number; < 0 unlimited */
		uint64_t period_us;	  /* µs */
		char dir[MODEL_PATH_MAX]; /* the cgroup whose quota binds, "" when unlimited */
		bool controller;	  /* false: no quota file anywhere (no cpu controller) */
		bool unknown;		  /* the cgroup cannot be seen or read: no figure */
	} quota;
	double effective; /* CPUs as a real number */
	enum model_term binding;
	struct model_cgroup {
		int version;			/* 1 or 2; 0 when none was found */
		char path[MODEL_PATH_MAX];	/* as /proc/PID/cgroup gives it */
		char mount_dir[MODEL_PATH_MAX]; /* its hierarchy's mount, relative to the root */
		bool fallback;			/* its own directory is not what was read: an
						 * ancestor's, or none (the note says which) */
	} loc;		/* the CPU cgroup the quota and throttling come from */
	char note[256]; /* such as the namespace fallback; "" if none */
};

/* Run-queue latency over an interval (the BPF collector): what a person
 * reads of a histogram.  events 0: no wait, the quantiles mean nothing. */
struct model_latency {
	uint64_t events;
	double p50_s, p99_s, max_s, mean_s; /* seconds */
};

/* CPU pressure (PSI) of a cgroup or of the system. */
struct model_psi {
	bool available;		/* false: no file, or not readable */
	double some_avg10;	/* % */
	uint64_t some_total_us; /* µs some task waited, since boot */
};

/* Why a cgroup's pressure is not known (pressure.h has the notes). */
enum model_psi_why {
	MODEL_PSI_WHY_NONE = 0, /* known, or nothing more to say */
	MODEL_PSI_WHY_V1,	/* the cpu controller is on cgroup v1: no pressure file */
	MODEL_PSI_WHY_ROOT,	/* the root cgroup: its pressure is the system's */
};

/* cpu.stat of the cgroup the throttling is read from, since it was made. */
struct model_cpustat {
	bool has_periods;      /* nr_periods present: the cgroup has a quota's accounting */
	uint64_t nr_periods;   /* enforcement periods elapsed */
	uint64_t nr_throttled; /* periods throttled */
	double throttled_s;    /* time throttled, s */
};

/* Throttling over the interval. */
struct model_throttle {
	bool valid;		  /* both ends had nr_periods */
	double throttled_pct;	  /* % of the interval's periods throttled */
	double throttled_s_per_s; /* throttled seconds per wall second */
};

/* The machine's CPUs over the interval (proc/stat). */
struct model_cpus {
	size_t n;			 /* CPUs reported */
	double total_busy_pct;		 /* over all CPUs, % of the whole machine */
	int id[MODEL_CPUS_MAX];		 /* CPU number */
	double busy_pct[MODEL_CPUS_MAX]; /* non-idle share, % */
};

/* How the threads were read. */
enum model_path {
	MODEL_PATH_PROC, /* /proc files, held descriptors */
	MODEL_PATH_BPF,	 /* the BPF task iterator, with run-queue latency */
};

/* One thread of the target: a row of the threads table, of the batch
 * formats and of the exposition. */
struct model_thread {
	pid_t pid, tid;
	char name[MODEL_NAME_MAX]; /* raw bytes, NUL-terminated */
	size_t name_len;
	char state; /* stat field 3 */
	int cpu;    /* the last CPU it ran on */
	/* The interval's rates (0 for a thread new in it): */
	double cpu_pct;			/* of one CPU, schedstat's run time, <= 100 */
	double user_pct, sys_pct;	/* cpu_pct split by utime : stime */
	double wait_pct;		/* run-queue wait, %; cpu_pct + wait_pct <= 100 */
	double vcsw_per_s, ivcsw_per_s; /* voluntary, involuntary switches a second */
	bool is_new;			/* not in the sample before: rates 0 */
	bool is_reset;			/* a counter jumped: rates 0 */
	struct model_latency latency;	/* run-queue latency (BPF path); events 0: none */
	uint32_t lat_ref;		/* its histogram in the sample (runqlat.h); 0: none */
	unsigned char activity;		/* enum activity (activity.h): what it did most */
	double input_wait_pct;		/* % of the interval it waited for input */
	/* Its counters since it started (live samples only, see ncounted): */
	double user_s, system_s; /* CPU time, s (stat fields 14, 15) */
	double wait_s;		 /* run-queue wait, s (schedstat field 2) */
	uint64_t vcsw, ivcsw;	 /* context switches (status) */
};

struct model_source; /* the monitor's: what the sample was made from (runqlat.h) */

/* One tick of the target.  Owned by whoever fills it (the session, the
 * sweep); valid until its next fill. */
struct model_sample {
	double time;	   /* CLOCK_MONOTONIC s */
	double wall;	   /* CLOCK_REALTIME s (the formats' "time") */
	bool target_alive; /* false once the target exited */
	struct model_budget budget;
	char stat_dir[MODEL_PATH_MAX]; /* cgroup whose cpu.stat is read (relative to the root) */
	/* That cgroup as its hierarchy names it ("/batch.slice") when it is an
	 * ancestor whose tighter quota binds; "" otherwise. */
	char stat_name[MODEL_PATH_MAX];
	bool has_cpustat;
	struct model_cpustat cpustat;
	struct model_psi psi_cgroup;	   /* cpu.pressure of the cgroup (v2, not the root) */
	enum model_psi_why psi_cgroup_why; /* why psi_cgroup is not available */
	struct model_psi psi_system;	   /* proc/pressure/cpu */
	struct model_cpus cpus;		   /* busy % since the sample before */
	enum model_path path;		   /* how the threads were read */
	/* The interval from the sample before: */
	double dt; /* s */
	struct model_throttle throttle;
	/* threads[0, nthreads) carry the interval's rates (nthreads 0 before
	 * the second sample); threads[0, ncounted) their counters since they
	 * started (a recording has none: ncounted 0).  Sorted by (pid, tid). */
	struct model_thread *threads; /* owned */
	size_t nthreads, ncounted, cap;
	double total_cpu_pct;	     /* sum of the threads' cpu_pct */
	double total_wait_pct;	     /* sum of their wait_pct */
	double runnable_mean;	     /* mean runnable threads over the interval (diagnosis.h) */
	int runnable;		     /* threads in state R */
	bool lat_on;		     /* the interval's run-queue latency is traced (the BPF path) */
	bool lat_sampled;	     /* the newest live sample traced it (a recording's never) */
	uint64_t lat_dropped;	     /* waits the latency map had no room for, in the interval */
	unsigned lat_capacity;	     /* threads the latency map holds */
	struct model_source *source; /* the monitor's (runqlat.h reads its histograms); owned */
};

void model_sample_init(struct model_sample *m);
void model_sample_free(struct model_sample *m);

#endif
