/* tour-out.c — tour steps as text or JSON Lines (tour-out.h). */
#include "tour-out.h"

#include "json-out.h"
#include "text-safe.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static void json_settings(struct json_out *j, const struct settings *s)
{
	json_out_key(j, "settings");
	json_out_object(j);
	json_out_kint(j, "threads", s->threads);
	json_out_kint(j, "streams", s->streams);
	json_out_kint(j, "size", s->size);
	json_out_kstr(j, "precision", s->precision == SETTINGS_DOUBLE ? "double" : "single");
	json_out_kstr(j, "kernel", settings_kernel_names()[s->kernel == SETTINGS_TRIAD]);
	json_out_knum(j, "cpus", s->cpus > 0 ? s->cpus : (double)NAN, 3);
	json_out_kint(j, "loaders", s->loaders);
	json_out_kint(j, "prep_ms", s->prep_ms);
	json_out_kint(j, "prefetch", s->prefetch);
	json_out_kstr(j, "blas", settings_blas_name(s->blas));
	json_out_kstr(j, "blas_spin", s->spin_off ? "off" : "default");
	json_out_end(j);
}

static void json_figures(struct json_out *j, const struct tour_figures *f)
{
	json_out_key(j, "figures");
	json_out_object(j);
	json_out_knum(j, "seconds", f->seconds, 3);
	json_out_knum(j, "gflops", f->gflops, 3);
	/* null where one thread was not measured at the step's n and kernel */
	bool single = f->single_gflops > 0;
	json_out_knum(j, "single_thread_gflops", single ? f->single_gflops : (double)NAN, 3);
	json_out_knum(j, "best_single_thread_gflops",
		      f->best_single > 0 ? f->best_single : (double)NAN, 3);
	json_out_knum(j, "speedup", single ? f->speedup : (double)NAN, 3);
	json_out_knum(j, "ideal_gflops", single ? f->ideal_gflops : (double)NAN, 3);
	json_out_knum(j, "ceiling_gflops", single ? f->ceiling_gflops : (double)NAN, 3);
	json_out_knum(j, "ceiling_pct", single ? f->ceiling_pct : (double)NAN, 2);
	json_out_knum(j, "effective_cpus", f->effective, 3);
	json_out_kint(j, "online_cpus", f->online);
	json_out_kint(j, "affinity_cpus", f->affinity);
	json_out_knum(j, "wait_pct", f->wait_pct, 2);
	json_out_knum(j, "involuntary_switches_per_thread_s", f->ivcsw_per_s, 1);
	json_out_knum(j, "throttled_pct", f->throttled_pct >= 0 ? f->throttled_pct : (double)NAN,
		      2);
	json_out_knum(j, "throttled_s_per_s", f->throttled_s, 3);
	json_out_knum(j, "batches_per_s", f->batches_per_s, 2);
	json_out_knum(j, "input_wait_pct", f->input_wait_pct, 2);
	json_out_knum(j, "loader_cpu_pct", f->loader_cpu_pct, 2);
	json_out_knum(j, "useful_cpus", f->useful_cpus, 3);
	json_out_knum(j, "cpu_cpus", f->cpu_cpus, 3);
	json_out_knum(j, "spin_cpus", f->spin_cpus, 3);
	json_out_knum(j, "other_cpus", f->other_cpus, 3);
	json_out_knum(j, "psi_some_pct", f->psi_some >= 0 ? f->psi_some : (double)NAN, 2);
	json_out_kbool(j, "results_checked", f->results_checked);
	json_out_kbool(j, "results_equal", f->results_equal);
	json_out_key(j, "max_diff");
	json_out_sig(j, f->max_diff, 6);
	json_out_kstr(j, "blas_variant", f->variant ? f->variant : "");
	/* Lessons 8 and 9 (null elsewhere). */
	bool fit = f->fit_s >= 0, roof = f->bound != NULL;
	json_out_knum(j, "amdahl_serial_fraction", fit ? f->fit_s : (double)NAN, 4);
	json_out_kint(j, "amdahl_points", f->fit_points);
	json_out_kint(j, "amdahl_left_out_busy", f->fit_busy);
	json_out_kint(j, "amdahl_left_out_beyond", f->fit_beyond);
	json_out_knum(j, "amdahl_predicted_speedup", fit ? f->predicted : (double)NAN, 3);
	json_out_knum(j, "amdahl_error_pct", fit ? f->pred_err_pct : (double)NAN, 2);
	json_out_knum(j, "gbs", roof ? f->gbs : (double)NAN, 3);
	json_out_knum(j, "intensity_flops_per_byte", roof ? f->intensity : (double)NAN, 4);
	json_out_knum(j, "ridge_flops_per_byte", roof && f->ridge > 0 ? f->ridge : (double)NAN, 3);
	json_out_knum(j, "memory_roof_gbs",
		      roof && f->memory_roof > 0 ? f->memory_roof : (double)NAN, 2);
	json_out_kstr(j, "bound", f->bound);
	json_out_end(j);
}

/* The caption wrapped at width columns, each line after lead. */
static void text_wrap(FILE *f, const char *lead, const char *s, int width)
{
	size_t len = strlen(s), at = 0;
	while (at < len) {
		size_t n = len - at;
		if (n > (size_t)width) {
			n = (size_t)width;
			while (n > 0 && s[at + n] != ' ')
				n--;
			if (n == 0)
				n = (size_t)width;
		}
		fprintf(f, "%s%.*s\n", lead, (int)n, s + at);
		at += n;
		while (at < len && s[at] == ' ')
			at++;
	}
}

int tour_out_step(FILE *f, enum format fmt, const struct tour *t, size_t i)
{
	const struct tour_step *st = &t->step[i];
	errno = 0;
	if (fmt == FORMAT_JSON) {
		struct json_out j;
		json_out_init(&j, f, 0);
		json_out_object(&j);
		json_out_kint(&j, "lesson", st->lesson);
		json_out_kint(&j, "lessons", TOUR_LESSONS);
		json_out_kint(&j, "step", (long long)i + 1);
		json_out_kint(&j, "steps", (long long)t->nsteps);
		json_out_kstr(&j, "title", st->title);
		json_out_kstr(&j, "what", st->what);
		json_out_kstr(&j, "caption", st->caption);
		json_out_kbool(&j, "skipped", st->failed);
		json_settings(&j, &st->set);
		if (st->measured)
			json_figures(&j, &st->fig);
		else
			json_out_knull(&j, "figures");
		json_out_end(&j);
		json_out_newline(&j);
	} else {
		char safe[TOUR_CAPTION_LEN * 4], set[256];
		tour_settings_text(&st->set, set, sizeof(set));
		fprintf(f, "lesson %d/%d, step %zu/%zu: %s (%s)\n", st->lesson, TOUR_LESSONS, i + 1,
			t->nsteps, st->title, st->what);
		fprintf(f, "  settings: %s\n", set);
		text_safe(st->caption, strlen(st->caption), safe, sizeof(safe));
		text_wrap(f, "  ", safe, 76);
		fputc('\n', f);
	}
	if (fflush(f) == 0 && !ferror(f))
		return 0;
	return errno == EPIPE ? -EPIPE : -EIO;
}
