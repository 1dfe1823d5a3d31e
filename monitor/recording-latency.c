/* recording-latency.c — a recorded "latency" object (recording-latency.h). */
#include "config.h"

#include "recording-latency.h"

#include <math.h>
#include <string.h>

#include "xalloc.h"

/* The [low_ns, count] pairs of a into h; false when one is malformed. */
static bool recording_latency_hist(json_object *a, struct lat_hist *h)
{
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		json_object *pair = json_object_array_get_idx(a, i);
		if (!json_object_is_type(pair, json_type_array) ||
		    json_object_array_length(pair) != 2)
			return false;
		json_object *lo = json_object_array_get_idx(pair, 0);
		json_object *n = json_object_array_get_idx(pair, 1);
		if (!json_object_is_type(lo, json_type_int) ||
		    !json_object_is_type(n, json_type_int))
			return false;
		int64_t low = json_object_get_int64(lo), count = json_object_get_int64(n);
		if (low < 0 || count < 0 || count > UINT32_MAX)
			return false;
		unsigned b = latency_bucket((uint64_t)low);
		h->count[b] += (uint32_t)count;
		h->events += (uint64_t)count;
	}
	return true;
}

bool recording_latency_parse(struct recording_json *p, json_object *o, struct lat_summary *out,
			     struct snapshot_rates *r, uint32_t *lat_ref)
{
	memset(out, 0, sizeof(*out));
	if (lat_ref)
		*lat_ref = 0;
	json_object *l = recording_json_typed(p, o, "latency", json_type_object, false);
	if (!l)
		return false;
	bool isnull = false;
	out->events = recording_json_u64(p, l, "events", &isnull);
	out->p50_s = recording_json_num(p, l, "p50_ms", true, 0, 0) / 1e3;
	out->p99_s = recording_json_num(p, l, "p99_ms", true, 0, 0) / 1e3;
	out->max_s = recording_json_num(p, l, "max_ms", true, 0, 0) / 1e3;
	out->mean_s = recording_json_num(p, l, "mean_ms", true, 0, 0) / 1e3;
	json_object *a = recording_json_typed(p, l, "hist", json_type_array, false);
	if (!a || !r || p->bad)
		return true;
	struct lat_hist h;
	latency_hist_clear(&h);
	if (!recording_latency_hist(a, &h)) {
		recording_json_fail(p, "not [[low_ns, count], ...]:", "latency.hist");
		return true;
	}
	h.max_ns = recording_json_u64(p, l, "max_ns", &isnull);
	h.sum_ns = recording_json_u64(p, l, "sum_ns", &isnull);
	r->lat = xreallocarray_grow(r->lat, &r->lat_cap, r->nlat + 1, sizeof(*r->lat));
	r->lat[r->nlat] = h;
	*lat_ref = (uint32_t)++r->nlat;
	return true;
}
