/* replay-seek.c — opening and seeking a long recording, plain and zstd.
 *
 * Synthesizes a recording of SAMPLES samples (default 3600: one hour at
 * 1 s) of a target with THREADS threads (default 1,000), written through
 * the real writer (output/record.c), plain and .zst, then measures with the
 * real reader and the replay session (monitor/): the time to open (index)
 * the file, to seek to the end, to the middle and to the start, and ten
 * seeks to random places, and prints the file sizes.
 *
 * Usage: replay-seek [-n THREADS] [-s SAMPLES] [-d DIR] */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "record.h"
#include "environment-impl.h"
#include "model-impl.h"
#include "session.h"
#include "session-replay.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void synth(const char *path, int nthreads, int nsamples)
{
	char err[512];
	char *argv[] = {(char *)"replay-seek", NULL};
	struct env_record e;
	struct sysroot root;
	sysroot_open(&root, "/");
	environment_fill(&e, &root, NULL, NULL);
	sysroot_close(&root);
	struct recording_header h;
	recording_header_fill(&h, &e, "attach", 4242, "train.py", true, 1.0);
	struct record *r = record_start(path, 1, argv, &h, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "replay-seek: %s\n", err);
		exit(1);
	}
	struct snapshot s;
	struct snapshot_rates rt;
	struct model_sample m;
	model_sample_init(&m);
	snapshot_init(&s);
	snapshot_rates_init(&rt);
	rt.threads = calloc((size_t)nthreads, sizeof(*rt.threads));
	rt.nthreads = (size_t)nthreads;
	s.budget.online = s.budget.affinity = 2;
	s.budget.effective = 2;
	s.budget.quota.cpus = -1;
	s.budget.quota.controller = true;
	s.cpus.n = 2;
	rt.dt = 1.0;
	unsigned seed = 1;
	for (int i = 0; i < nsamples; i++) {
		s.wall = 1764576000.0 + i;
		for (int k = 0; k < nthreads; k++) {
			struct thread_rate *t = &rt.threads[k];
			t->pid = 4242;
			t->tid = 4242 + k;
			t->name_len =
			    (size_t)snprintf(t->name, sizeof(t->name), "pt_thread_%d", k % 40);
			t->state = k % 7 ? 'S' : 'R';
			t->cpu = k % 2;
			t->cpu_pct = (double)(rand_r(&seed) % 10000) / 100.0;
			t->user_pct = t->cpu_pct * 0.9;
			t->sys_pct = t->cpu_pct - t->user_pct;
			t->wait_pct = (double)(rand_r(&seed) % 2000) / 100.0;
			t->vcsw_per_s = rand_r(&seed) % 50;
			t->ivcsw_per_s = rand_r(&seed) % 20;
		}
		model_sample_fill(&m, &s, &rt, true);
		if (record_sample(r, &m, NULL, NULL) < 0) {
			fprintf(stderr, "replay-seek: cannot write %s\n", path);
			exit(1);
		}
	}
	record_close(r);
	model_sample_free(&m);
	free(rt.threads);
}

static void measure(const char *path, int nsamples)
{
	char err[512];
	struct stat st;
	stat(path, &st);
	struct session_config c;
	session_config_default(&c);
	c.replay = path;
	struct session s;
	double t0 = now();
	if (session_start(&s, &c, err, sizeof(err)) != EXIT_OK) {
		fprintf(stderr, "replay-seek: %s\n", err);
		exit(1);
	}
	double open_s = now() - t0;
	double t1 = now();
	session_replay_seek(&s, nsamples - 1, 1);
	double end_s = now() - t1;
	t1 = now();
	session_replay_seek(&s, nsamples / 2, 1);
	double mid_s = now() - t1;
	t1 = now();
	session_replay_seek(&s, 0, 1);
	double start_s = now() - t1;
	double worst = 0;
	unsigned seed = 7;
	for (int i = 0; i < 10; i++) {
		t1 = now();
		session_replay_seek(&s, rand_r(&seed) % nsamples, 1);
		double d = now() - t1;
		worst = d > worst ? d : worst;
	}
	printf("%-8s %8.1f MB  %6.0f B/sample  open %6.3f s  seek end %.4f s, middle %.4f s, "
	       "start %.4f s, 10 random: worst %.4f s\n",
	       strstr(path, ".zst") ? "zstd" : "plain", (double)st.st_size / 1e6,
	       (double)st.st_size / (nsamples + 1), open_s, end_s, mid_s, start_s, worst);
	session_stop(&s);
}

int main(int argc, char **argv)
{
	int nthreads = 1000, nsamples = 3600, opt;
	const char *dir = "/tmp";
	while ((opt = getopt(argc, argv, "n:s:d:")) != -1) {
		if (opt == 'n')
			nthreads = atoi(optarg);
		else if (opt == 's')
			nsamples = atoi(optarg);
		else if (opt == 'd')
			dir = optarg;
		else {
			fprintf(stderr, "usage: replay-seek [-n THREADS] [-s SAMPLES] [-d DIR]\n");
			return 2;
		}
	}
	char plain[1024], zst[1100];
	snprintf(plain, sizeof(plain), "%s/tl-replay-seek-%d.jsonl", dir, (int)getpid());
	snprintf(zst, sizeof(zst), "%s.zst", plain);
	printf("a recording of %d samples of %d threads (synthesized)\n", nsamples, nthreads);
	double t0 = now();
	synth(plain, nthreads, nsamples);
	printf("written plain in %.1f s\n", now() - t0);
	t0 = now();
	synth(zst, nthreads, nsamples);
	printf("written zstd in %.1f s\n", now() - t0);
	measure(plain, nsamples);
	measure(zst, nsamples);
	unlink(plain);
	unlink(zst);
	return 0;
}
