/* report.c — text, CSV and JSON Lines output of budgets and samples. */
#include "config.h"

#include "report.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "text-safe.h"

/* A task state as one safe letter ('?' for anything else). */
static char report_state(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ? c : '?';
}

const char *report_version_name(int version)
{
	return version == 1 ? "v1" : version == 2 ? "v2" : "none";
}

/* JSON has no NaN or infinity: such a figure is written as null. */
static void report_json_num(FILE *f, double v, int prec)
{
	if (!isfinite(v))
		fputs("null", f);
	else
		fprintf(f, "%.*f", prec, v);
}

static void report_budget_json_obj(FILE *f, const struct budget *b)
{
	fprintf(f, "{\"online\":%d,\"affinity\":%d,", b->online, b->affinity);
	if (b->cpuset > 0)
		fprintf(f, "\"cpuset\":%d,", b->cpuset);
	else
		fputs("\"cpuset\":null,", f);
	if (b->quota.cpus > 0) {
		fputs("\"quota\":", f);
		report_json_num(f, b->quota.cpus, 3);
		fputc(',', f);
	} else {
		fputs("\"quota\":null,", f);
	}
	fputs("\"effective\":", f);
	report_json_num(f, b->effective, 3);
	fprintf(f, ",\"binding\":\"%s\"}", budget_term_name(b->binding));
}

static void report_budget_text(FILE *f, pid_t pid, const struct budget *b)
{
	/* cgroup names come from whoever made the cgroup: made safe here */
	char quota[3 * CGROUP_PATH_MAX + 64], cpuset[32], dir[3 * CGROUP_PATH_MAX];
	char path[3 * CGROUP_PATH_MAX], note[3 * sizeof(b->note)];
	text_safe(b->quota.dir, strlen(b->quota.dir), dir, sizeof(dir));
	text_safe(b->loc.path, strlen(b->loc.path), path, sizeof(path));
	text_safe(b->note, strlen(b->note), note, sizeof(note));
	if (b->quota.cpus > 0)
		snprintf(quota, sizeof(quota), "%.2f CPUs (/%s)", b->quota.cpus, dir);
	else
		snprintf(quota, sizeof(quota), "%s",
			 b->quota.controller ? "none (max)" : "none (no cpu controller)");
	if (b->cpuset > 0)
		snprintf(cpuset, sizeof(cpuset), "%d", b->cpuset);
	else
		snprintf(cpuset, sizeof(cpuset), "n/a");
	if (pid)
		fprintf(f, "CPU budget of process %d\n", (int)pid);
	else
		fputs("CPU budget of this process\n", f);
	fprintf(f, "  online     %d%s\n", b->online,
		b->binding == BUDGET_ONLINE ? "   <- binds" : "");
	fprintf(f, "  affinity   %d%s\n", b->affinity,
		b->binding == BUDGET_AFFINITY ? "   <- binds" : "");
	fprintf(f, "  cpuset     %s%s\n", cpuset, b->binding == BUDGET_CPUSET ? "   <- binds" : "");
	fprintf(f, "  quota      %s%s\n", quota, b->binding == BUDGET_QUOTA ? "   <- binds" : "");
	fprintf(f, "  effective  %.2f CPUs (bound by %s)\n", b->effective,
		budget_term_name(b->binding));
	fprintf(f, "  cgroup     %s %s\n", report_version_name(b->loc.version),
		path[0] ? path : "-");
	if (note[0])
		fprintf(f, "  note       %s\n", note);
}

void report_budget(FILE *f, enum format fmt, pid_t pid, const struct budget *b)
{
	if (fmt != FORMAT_JSON) {
		report_budget_text(f, pid, b);
		return;
	}
	fputs("{\"budget\":", f);
	report_budget_json_obj(f, b);
	fprintf(f, ",\"cgroup\":{\"version\":%d,\"path\":", b->loc.version);
	json_put_string(f, b->loc.path, strlen(b->loc.path));
	fputs(",\"quota_dir\":", f);
	json_put_string(f, b->quota.dir, strlen(b->quota.dir));
	fprintf(f, ",\"fallback\":%s}", b->loc.fallback ? "true" : "false");
	fputs(",\"note\":", f);
	json_put_string(f, b->note, strlen(b->note));
	fputs("}\n", f);
}

static void report_time_iso(double wall, char *buf, size_t cap)
{
	time_t t = (time_t)wall;
	struct tm tm;
	gmtime_r(&t, &tm);
	size_t n = strftime(buf, cap, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, cap - n, ".%03dZ", (int)((wall - floor(wall)) * 1000));
}

/* ,"key":number — or null for NaN and infinities. */
static void report_jnum(FILE *f, const char *key, double v, int prec)
{
	fprintf(f, ",\"%s\":", key);
	report_json_num(f, v, prec);
}

static void report_json_str(FILE *f, const char *s)
{
	if (s)
		json_put_string(f, s, strlen(s));
	else
		fputs("null", f);
}

static void report_json_workload(FILE *f, const struct workload_report *w)
{
	fprintf(f,
		",\"workload\":{\"threads\":%d,\"streams\":%d,\"size\":%d,\"precision\":\"%s\","
		"\"workers\":%d,\"cpus\":",
		w->threads, w->streams, w->size, w->precision, w->workers);
	if (w->cpus > 0)
		report_json_num(f, w->cpus, 3);
	else
		fputs("null", f);
	fprintf(f, ",\"paused\":%s,\"blas_spin\":\"%s\",\"gflops\":", w->paused ? "true" : "false",
		w->spin_off ? "off" : "default");
	report_json_num(f, w->gflops, 2);
	report_jnum(f, "steady_gflops", w->steady_gflops >= 0 ? w->steady_gflops : (double)NAN, 2);
	report_jnum(f, "ideal_gflops", w->single_thread_gflops >= 0 ? w->ideal_gflops : (double)NAN,
		    2);
	report_jnum(f, "ceiling_gflops",
		    w->single_thread_gflops >= 0 ? w->ceiling_gflops : (double)NAN, 2);
	report_jnum(f, "single_thread_gflops",
		    w->single_thread_gflops >= 0 ? w->single_thread_gflops : (double)NAN, 2);
	fprintf(f, ",\"setting_results_equal\":%s",
		!w->epoch_results_checked ? "null"
		: w->epoch_results_equal  ? "true"
					  : "false");
	report_jnum(f, "setting_max_diff", w->epoch_max_diff, 9);
	fprintf(f, ",\"results_equal\":%s,\"max_diff\":",
		!w->results_checked ? "null"
		: w->results_equal  ? "true"
				    : "false");
	if (isfinite(w->max_diff))
		fprintf(f, "%.6g", w->max_diff);
	else
		fputs("null", f);
	report_jnum(f, "useful_cpus", w->useful_cpus, 3);
	report_jnum(f, "cpu_cpus", w->cpu_cpus, 3);
	fputs(",\"per_stream\":[", f);
	for (int i = 0; i < w->nstreams; i++) {
		const struct workload_stream_report *r = &w->stream[i];
		fprintf(f,
			"%s{\"stream\":%d,\"pid\":%d,\"state\":\"%s\",\"wanted\":%s,\"threads\":%d,"
			"\"pool\":%d,"
			"\"gflops\":",
			i ? "," : "", r->stream, (int)r->pid, r->state,
			r->wanted ? "true" : "false", r->threads, r->pool);
		report_json_num(f, r->gflops, 2);
		report_jnum(f, "useful_cpus", r->useful_cpus, 3);
		report_jnum(f, "cpu_cpus", r->cpu_cpus, 3);
		fputc('}', f);
	}
	fputs("],\"blas\":{\"config\":", f);
	report_json_str(f, w->blas_config);
	fputs(",\"core\":", f);
	report_json_str(f, w->blas_core);
	fputs(",\"variant\":", f);
	report_json_str(f, w->blas_variant);
	fputs("},\"error\":", f);
	if (w->error[0])
		json_put_string(f, w->error, strlen(w->error));
	else
		fputs("null", f);
	fputs(",\"pids\":[", f);
	for (size_t i = 0; i < w->npids; i++)
		fprintf(f, "%s%d", i ? "," : "", (int)w->pids[i]);
	fputs("]}", f);
}

static void report_json(FILE *f, const struct snapshot *cur, const struct snapshot_rates *r,
			const struct workload_report *w)
{
	char ts[64];
	const struct budget *b = &cur->budget;
	report_time_iso(cur->wall, ts, sizeof(ts));
	fprintf(f, "{\"time\":\"%s\",\"interval\":", ts);
	report_json_num(f, r->dt, 3);
	fputs(",\"budget\":", f);
	report_budget_json_obj(f, b);
	fprintf(f, ",\"cgroup\":{\"version\":%d,\"path\":", b->loc.version);
	json_put_string(f, b->loc.path, strlen(b->loc.path));
	fputs(",\"stat_dir\":", f);
	char dir[CGROUP_PATH_MAX + 2];
	snprintf(dir, sizeof(dir), "/%s", cur->stat_dir);
	json_put_string(f, dir, strlen(dir));
	if (cur->has_cpustat && cur->cpustat.has_periods) {
		fprintf(f, ",\"nr_periods\":%llu,\"nr_throttled\":%llu,\"throttled_s\":",
			(unsigned long long)cur->cpustat.nr_periods,
			(unsigned long long)cur->cpustat.nr_throttled);
		report_json_num(f, cur->cpustat.throttled_s, 6);
	} else {
		fputs(",\"nr_periods\":null,\"nr_throttled\":null,\"throttled_s\":null", f);
	}
	report_jnum(f, "throttled_pct", r->throttle.valid ? r->throttle.throttled_pct : (double)NAN,
		    2);
	report_jnum(f, "throttled_s_per_s",
		    r->throttle.valid ? r->throttle.throttled_s_per_s : (double)NAN, 4);
	report_jnum(f, "psi_some_avg10",
		    cur->psi_cgroup.available ? cur->psi_cgroup.some_avg10 : (double)NAN, 2);
	fputs("},\"system\":{\"psi_some_avg10\":", f);
	report_json_num(f, cur->psi_system.available ? cur->psi_system.some_avg10 : (double)NAN, 2);
	fprintf(f, "},\"runnable\":%d,\"threads\":[", r->runnable);
	for (size_t i = 0; i < r->nthreads; i++) {
		const struct thread_rate *t = &r->threads[i];
		fprintf(f, "%s{\"pid\":%d,\"tid\":%d,\"name\":", i ? "," : "", (int)t->pid,
			(int)t->tid);
		json_put_string(f, t->name, t->name_len);
		fprintf(f, ",\"state\":\"%c\",\"cpu\":%d,\"cpu_pct\":", report_state(t->state),
			t->cpu);
		report_json_num(f, t->cpu_pct, 2);
		report_jnum(f, "user_pct", t->user_pct, 2);
		report_jnum(f, "sys_pct", t->sys_pct, 2);
		report_jnum(f, "wait_pct", t->wait_pct, 2);
		report_jnum(f, "vcsw_per_s", t->vcsw_per_s, 1);
		report_jnum(f, "ivcsw_per_s", t->ivcsw_per_s, 1);
		fputc('}', f);
	}
	fputs("],\"cpus\":[", f);
	for (size_t i = 0; i < cur->cpus.n; i++) {
		fputs(i ? "," : "", f);
		report_json_num(f, cur->cpus.busy_pct[i], 1);
	}
	fputc(']', f);
	if (w)
		report_json_workload(f, w);
	fputs("}\n", f);
}

static void report_csv(FILE *f, const struct snapshot *cur, const struct snapshot_rates *r,
		       const struct workload_report *w, bool header)
{
	char ts[64];
	if (header)
		fputs("time,effective_cpus,binding,throttled_pct,throttled_s_per_s,psi_some_avg10,"
		      "pid,tid,name,state,cpu,cpu_pct,user_pct,sys_pct,wait_pct,vcsw_per_s,"
		      "ivcsw_per_s,gflops\n",
		      f);
	report_time_iso(cur->wall, ts, sizeof(ts));
	for (size_t i = 0; i < r->nthreads; i++) {
		const struct thread_rate *t = &r->threads[i];
		fprintf(f, "%s,%.3f,%s,", ts, cur->budget.effective,
			budget_term_name(cur->budget.binding));
		if (r->throttle.valid)
			fprintf(f, "%.2f,%.4f,", r->throttle.throttled_pct,
				r->throttle.throttled_s_per_s);
		else
			fputs(",,", f);
		if (cur->psi_cgroup.available)
			fprintf(f, "%.2f,", cur->psi_cgroup.some_avg10);
		else
			fputc(',', f);
		fprintf(f, "%d,%d,", (int)t->pid, (int)t->tid);
		csv_put_field(f, t->name, t->name_len);
		fprintf(f, ",%c,%d,%.2f,%.2f,%.2f,%.2f,%.1f,%.1f,", report_state(t->state), t->cpu,
			t->cpu_pct, t->user_pct, t->sys_pct, t->wait_pct, t->vcsw_per_s,
			t->ivcsw_per_s);
		if (w)
			fprintf(f, "%.2f", w->gflops);
		fputc('\n', f);
	}
}

static void report_text_workload(FILE *f, const struct workload_report *w)
{
	fprintf(f, "  workload %d stream(s) x %d thread(s), n=%d %s precision", w->streams,
		w->threads, w->size, w->precision);
	if (w->workers)
		fprintf(f, ", %d worker(s)", w->workers);
	if (w->cpus > 0)
		fprintf(f, ", quota %.2f CPUs", w->cpus);
	fprintf(f, ": %.1f GFLOP/s", w->gflops);
	if (w->steady_gflops >= 0)
		fprintf(f, " (steady %.1f)", w->steady_gflops);
	if (w->single_thread_gflops > 0)
		fprintf(f, ", ideal %.1f, ceiling %.1f, 1 thread %.1f", w->ideal_gflops,
			w->ceiling_gflops, w->single_thread_gflops);
	fputc('\n', f);
	fprintf(f, "  useful %.2f CPUs inside GEMM of %.2f CPUs used; results %s", w->useful_cpus,
		w->cpu_cpus,
		!w->results_checked ? "not checked yet"
		: w->results_equal  ? "bitwise equal"
				    : "differ");
	if (w->results_checked && !w->results_equal)
		fprintf(f, " (max diff %.3g)", w->max_diff);
	if (w->paused)
		fputs("; paused", f);
	fputc('\n', f);
	if (w->blas_config && w->blas_config[0]) {
		char safe[256];
		text_safe(w->blas_config, strlen(w->blas_config), safe, sizeof(safe));
		fprintf(f, "  openblas %s (%s)\n", safe, w->blas_variant ? w->blas_variant : "");
	}
	if (w->error[0]) {
		char safe[256];
		text_safe(w->error, strlen(w->error), safe, sizeof(safe));
		fprintf(f, "  workload error: %s\n", safe);
	}
}

static void report_text(FILE *f, const struct snapshot *cur, const struct snapshot_rates *r,
			const struct workload_report *w)
{
	char ts[64], name[64], psi[32], thr[64];
	const struct budget *b = &cur->budget;
	report_time_iso(cur->wall, ts, sizeof(ts));
	if (cur->psi_cgroup.available)
		snprintf(psi, sizeof(psi), "%.1f%%", cur->psi_cgroup.some_avg10);
	else
		snprintf(psi, sizeof(psi), "unavailable");
	if (b->quota.cpus <= 0 && !(cur->has_cpustat && cur->cpustat.nr_periods))
		snprintf(thr, sizeof(thr), "n/a (no quota)");
	else if (r->throttle.valid)
		snprintf(thr, sizeof(thr), "%.1f%% of periods, %.3f s/s", r->throttle.throttled_pct,
			 r->throttle.throttled_s_per_s);
	else
		snprintf(thr, sizeof(thr), "n/a (no quota accounting)");
	fprintf(f, "%s  effective %.2f CPUs (%s)  runnable %d  threads %zu\n", ts, b->effective,
		budget_term_name(b->binding), r->runnable, r->nthreads);
	fprintf(f, "  throttled %s  cgroup psi some %s", thr, psi);
	if (cur->psi_system.available)
		fprintf(f, "  system psi some %.1f%%\n", cur->psi_system.some_avg10);
	else
		fputs("  system psi unavailable\n", f);
	if (w)
		report_text_workload(f, w);
	fprintf(f, "  %7s %7s %-16s %s %3s %6s %6s %6s %6s %8s %8s\n", "PID", "TID", "NAME", "S",
		"CPU", "CPU%", "USR%", "SYS%", "WAIT%", "VCSW/s", "IVCSW/s");
	for (size_t i = 0; i < r->nthreads; i++) {
		const struct thread_rate *t = &r->threads[i];
		text_safe(t->name, t->name_len, name, sizeof(name));
		/* pad by terminal columns, not bytes: a replacement character is
		 * three bytes wide in UTF-8 and one column on screen */
		int pad = 16 - text_safe_width(t->name, t->name_len);
		fprintf(f, "  %7d %7d %s%*s %c %3d %6.1f %6.1f %6.1f %6.1f %8.1f %8.1f\n",
			(int)t->pid, (int)t->tid, name, pad > 0 ? pad : 0, "",
			report_state(t->state), t->cpu, t->cpu_pct, t->user_pct, t->sys_pct,
			t->wait_pct, t->vcsw_per_s, t->ivcsw_per_s);
	}
	if (cur->cpus.n) {
		fputs("  cpus", f);
		for (size_t i = 0; i < cur->cpus.n; i++)
			fprintf(f, " %d:%.0f%%", cur->cpus.id[i], cur->cpus.busy_pct[i]);
		fputc('\n', f);
	}
}

void report_sample(FILE *f, enum format fmt, const struct snapshot *cur,
		   const struct snapshot_rates *r, const struct workload_report *w, bool header)
{
	switch (fmt) {
	case FORMAT_JSON:
		report_json(f, cur, r, w);
		break;
	case FORMAT_CSV:
		report_csv(f, cur, r, w, header);
		break;
	default:
		report_text(f, cur, r, w);
		break;
	}
}
