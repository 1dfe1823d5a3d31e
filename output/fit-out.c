/* fit-out.c — the Amdahl fit as text and JSON (fit-out.h). */
#include "fit-out.h"

#include <math.h>
#include <string.h>

#include "text-safe.h"

void fit_out_text(FILE *f, const char *lead, const struct amdahl_fit *fit)
{
	char line[1024], safe[3 * 1024];
	sweep_fit_caption(line, sizeof(line), fit);
	text_safe(line, strlen(line), safe, sizeof(safe));
	fprintf(f, "%s%s\n", lead, safe);
}

void fit_out_json(struct json_out *j, const struct amdahl_fit *fit)
{
	json_out_key(j, "fit");
	json_out_object(j);
	json_out_knum(j, "serial_fraction", fit->valid ? fit->serial_fraction : (double)NAN, 4);
	json_out_knum(j, "r2", fit->valid ? fit->r2 : (double)NAN, 4);
	json_out_kint(j, "points_used", fit->points_used);
	json_out_kint(j, "points_left_out", fit->points_excluded + fit->points_beyond);
	json_out_kint(j, "points_beyond_cpus", fit->points_beyond);
	json_out_kint(j, "points_slower", fit->points_slower);
	json_out_knum(j, "threads_min", fit->valid ? fit->threads_min : (double)NAN, 3);
	json_out_knum(j, "threads_max", fit->valid ? fit->threads_max : (double)NAN, 3);
	json_out_knum(j, "cpus", fit->cpus, 3);
	json_out_knum(j, "karp_flatt_min", fit->valid ? fit->kf_min : (double)NAN, 4);
	json_out_knum(j, "karp_flatt_max", fit->valid ? fit->kf_max : (double)NAN, 4);
	json_out_key(j, "predicted");
	json_out_array(j);
	for (size_t i = 0; fit->valid && i < fit->npred; i++) {
		json_out_flat(j);
		json_out_object(j);
		json_out_knum(j, "threads", fit->pred[i].threads, 3);
		json_out_knum(j, "cpus", fit->pred[i].cpus, 3);
		json_out_knum(j, "speedup", fit->pred[i].speedup, 3);
		json_out_kbool(j, "prediction", fit->pred[i].cpus > fit->cpus);
		json_out_end(j);
	}
	json_out_end(j);
	json_out_end(j);
}

void fit_out_json_row(struct json_out *j, double speedup, double threads, double cpus)
{
	json_out_knum(j, "karp_flatt", amdahl_karp_flatt(speedup, threads, cpus), 4);
}
