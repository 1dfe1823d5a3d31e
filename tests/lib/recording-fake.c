/* recording-fake.c — what the recording tests share (recording-fake.h). */
#include "tl-test.h"

#include "recording-fake.h"

#include "record.h"
#include "environment-impl.h"
#include "report.h"

char recording_fake_dir[] = "/tmp/tl-test-recording-XXXXXX";

int recording_fake_setup(void **state)
{
	(void)state;
	return mkdtemp(recording_fake_dir) ? 0 : -1;
}

int recording_fake_teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", recording_fake_dir);
	return system(cmd) == 0 ? 0 : -1;
}

const char *recording_fake_path(const char *name)
{
	static char p[4][256];
	static int k;
	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", recording_fake_dir, name);
	return p[k];
}

void recording_fake_make(struct recording_fake *f, int i)
{
	memset(f, 0, sizeof(*f));
	snapshot_init(&f->snap);
	f->snap.wall = 1764576000.0 + i * 0.5 + 0.123;
	f->snap.budget.online = 2;
	f->snap.budget.affinity = 2;
	f->snap.budget.cpuset = 2;
	f->snap.budget.quota.cpus = 1.5;
	f->snap.budget.quota.controller = true;
	f->snap.budget.effective = 1.5;
	f->snap.budget.binding = BUDGET_QUOTA;
	f->snap.budget.loc.version = 1;
	snprintf(f->snap.budget.loc.path, sizeof(f->snap.budget.loc.path), "/threadlab-1");
	snprintf(f->snap.stat_dir, sizeof(f->snap.stat_dir), "sys/fs/cgroup/cpu/threadlab-1");
	f->snap.has_cpustat = f->snap.cpustat.has_periods = true;
	f->snap.cpustat.nr_periods = 100 + (uint64_t)i;
	f->snap.cpustat.nr_throttled = 40;
	f->snap.cpustat.throttled_s = 1.25;
	f->snap.psi_cgroup.available = false;
	f->snap.psi_system.available = true;
	f->snap.psi_system.some_avg10 = 12.5;
	f->snap.cpus.n = 2;
	f->snap.cpus.id[1] = 1;
	f->snap.cpus.busy_pct[0] = 99.5;
	f->snap.cpus.busy_pct[1] = 50;
	f->rates.dt = 0.5;
	f->rates.throttle.valid = true;
	f->rates.throttle.throttled_pct = 48.2;
	f->rates.throttle.throttled_s_per_s = 0.5;
	f->rates.runnable = 2;
	const char *names[] = {"gemm0", "say \"hi\"\n\x1b[31m\xc2\x9b", "tl-anchor"};
	for (int k = 0; k < 3; k++) {
		struct thread_rate *t = &f->t[k];
		t->pid = 100;
		t->tid = 100 + k;
		t->name_len = strlen(names[k]);
		memcpy(t->name, names[k], t->name_len);
		t->state = k == 2 ? 'S' : 'R';
		t->cpu = k % 2;
		t->cpu_pct = 75.25 + i;
		t->user_pct = 70;
		t->sys_pct = 5.25 + i;
		t->wait_pct = 24.5;
		t->vcsw_per_s = 3.5;
		t->ivcsw_per_s = 20;
	}
	f->rates.threads = f->t;
	f->rates.nthreads = 3;
	struct workload_report *w = &f->w;
	w->threads = 2;
	w->streams = 1;
	w->size = 256;
	w->precision = "single";
	w->cpus = 1.5;
	w->interval = 0.5;
	w->gflops = 100 + i;
	w->steady_gflops = i >= 2 ? 101.5 : -1;
	w->steady_seconds = i >= 2 ? 1.0 : 0;
	w->single_thread_gflops = 60;
	w->ideal_gflops = 90;
	w->ceiling_gflops = 90;
	w->results_checked = w->results_equal = true;
	w->epoch_results_checked = true;
	w->epoch_results_equal = false;
	w->epoch_max_diff = 1.5e-6;
	w->max_diff = 1.5e-6;
	w->useful_cpus = 1.4;
	w->cpu_cpus = 1.5;
	w->nstreams = 1;
	w->stream[0].pid = 100;
	w->stream[0].state = "running";
	w->stream[0].wanted = true;
	w->stream[0].threads = 2;
	w->stream[0].pool = 2;
	w->stream[0].gflops = 100;
	w->blas_config = "OpenBLAS 0.3.21 Zen";
	w->blas_core = "Zen";
	w->blas_variant = "pthreads";
	w->pids[0] = 99;
	w->pids[1] = 100;
	w->npids = 2;
	w->anchor_pid = 99;
}

char *recording_fake_json(const struct snapshot *s, const struct snapshot_rates *r,
			  const struct workload_report *w)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct model_sample m;
	model_sample_init(&m);
	model_sample_fill(&m, s, r, true);
	report_sample(f, FORMAT_JSON, &m, w, NULL, false);
	model_sample_free(&m);
	fclose(f);
	return buf;
}

void recording_fake_write(const char *path, int n)
{
	char err[256];
	char *argv[] = {(char *)"threadlab", (char *)"--batch", NULL};
	struct env_record e;
	struct sysroot root;
	assert_int_equal(sysroot_open(&root, "/"), 0);
	environment_fill(&e, &root, NULL, NULL);
	sysroot_close(&root);
	struct recording_header h;
	recording_header_fill(&h, &e, "lab", 99, "lab", true, 0.5);
	struct record *r = record_start(path, 2, argv, &h, err, sizeof(err));
	assert_non_null(r);
	for (int i = 0; i < n; i++) {
		struct recording_fake f;
		recording_fake_make(&f, i);
		struct model_sample m;
		model_sample_init(&m);
		model_sample_fill(&m, &f.snap, &f.rates, true);
		assert_int_equal(record_sample(r, &m, &f.w, NULL), 0);
		model_sample_free(&m);
	}
	assert_int_equal(record_lines(r), (unsigned long)n + 1);
	assert_int_equal(record_close(r), 0);
}
