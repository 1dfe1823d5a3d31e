/* latency-out.c — run-queue latency in JSON and text (latency-out.h). */
#include "config.h"

#include "latency-out.h"

#include <math.h>
#include <stdio.h>

void latency_out_json(struct json_out *j, const char *key, bool on, const struct model_latency *l,
		      const struct runqlat_hist *h)
{
	json_out_key(j, key);
	if (!on) {
		json_out_null(j);
		return;
	}
	bool any = l->events > 0;
	json_out_object(j);
	json_out_knum(j, "p50_ms", any ? l->p50_s * 1e3 : (double)NAN, 3);
	json_out_knum(j, "p99_ms", any ? l->p99_s * 1e3 : (double)NAN, 3);
	json_out_knum(j, "max_ms", any ? l->max_s * 1e3 : (double)NAN, 3);
	json_out_knum(j, "mean_ms", any ? l->mean_s * 1e3 : (double)NAN, 3);
	json_out_kuint(j, "events", l->events);
	if (h && h->events) {
		json_out_key(j, "hist");
		json_out_array(j);
		for (unsigned b = 0; b < runqlat_buckets(); b++)
			if (h->count[b]) {
				json_out_array(j);
				json_out_uint(j, runqlat_bucket_low(b));
				json_out_uint(j, h->count[b]);
				json_out_end(j);
			}
		json_out_end(j);
		json_out_kuint(j, "max_ns", h->max_ns);
		json_out_kuint(j, "sum_ns", h->sum_ns);
	}
	json_out_end(j);
}

void latency_out_ms(char *out, size_t cap, int width, const struct model_latency *l, double s)
{
	double ms = s * 1e3;
	if (l->events == 0)
		snprintf(out, cap, "%*s", width, "-");
	else if (ms < 1)
		snprintf(out, cap, "%*.2f", width, ms);
	else if (ms < 100)
		snprintf(out, cap, "%*.1f", width, ms);
	else
		snprintf(out, cap, "%*.0f", width, ms);
}
