/* recording-json.h — json-c accessors for the recording parsers, internal
 * to monitor/ (recording-parse.c, recording-header.c, recording-diag.c).
 *
 * Each accessor checks the type of one member and, on the first mismatch,
 * writes "not a number: "key"" (or missing, null, …) into the context's
 * error and marks it bad; the parse goes on and the caller reports the
 * first error.  Strings are raw bytes: recording_json_parse() keeps the
 * bytes a writer escaped as \udcXX (see recording.h). */
#ifndef THREADLAB_RECORDING_JSON_H
#define THREADLAB_RECORDING_JSON_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct recording_json {
	char *err;
	size_t errlen;
	bool bad;
};

void recording_json_fail(struct recording_json *p, const char *what, const char *key);
/* The member key of o (NULL when absent or null; required: absent fails). */
json_object *recording_json_get(struct recording_json *p, json_object *o, const char *key,
				bool required);
bool recording_json_is_num(json_object *v);
/* The largest number a recording holds (throttled seconds, GFLOP/s, %
 * summed over threads all stay far below it). */
#define RECORDING_NUM_MAX 1e12
/* A sampling interval, s: a header's is above 0, a sample's 0 (no rates
 * yet) or above. */
#define RECORDING_INTERVAL_MAX 86400.0
/* A number, finite and in [0, RECORDING_NUM_MAX] (else fails: "out of
 * range"); null gives nullv when nullable (else fails); absent: def. */
double recording_json_num(struct recording_json *p, json_object *o, const char *key, bool nullable,
			  double nullv, double def);
/* true when d is such a number; else fails ("out of range: key"). */
bool recording_json_in_range(struct recording_json *p, double d, const char *key);
/* An integer in [-1, INT_MAX] (else fails); null fails; absent: def. */
long long recording_json_int(struct recording_json *p, json_object *o, const char *key,
			     long long def);
/* The largest counter (nanoseconds, periods, events) a recording holds:
 * 31 years of nanoseconds. */
#define RECORDING_COUNT_MAX 1000000000000000000ull
/* An unsigned counter in [0, RECORDING_COUNT_MAX] (else fails: "out of
 * range"), or null (*isnull). */
uint64_t recording_json_u64(struct recording_json *p, json_object *o, const char *key,
			    bool *isnull);
/* The integer v (an element of an array, a member's value) in [lo, hi],
 * or def after failing with key ("not an integer:", "out of range:"). */
long long recording_json_int_of(struct recording_json *p, json_object *v, const char *key,
				long long lo, long long hi, long long def);
bool recording_json_bool(struct recording_json *p, json_object *o, const char *key, bool def);
/* A string into buf (raw bytes, NUL-terminated, cut to cap; *len its
 * length when len is not NULL); null or absent: "" and false. */
bool recording_json_str(struct recording_json *p, json_object *o, const char *key, char *buf,
			size_t cap, size_t *len);
/* The string v (a json_type_string) into buf as recording_json_str does. */
void recording_json_str_of(json_object *v, char *buf, size_t cap, size_t *len);
/* A member of type t (object or array), or NULL (required: absent fails). */
json_object *recording_json_typed(struct recording_json *p, json_object *o, const char *key,
				  json_type t, bool required);
/* One line (len bytes) parsed into an object, or NULL with the reason
 * ("not JSON: …", "not a JSON object") in err.  json_object_put() it. */
json_object *recording_json_parse(const char *line, size_t len, char *err, size_t errlen);

#endif
