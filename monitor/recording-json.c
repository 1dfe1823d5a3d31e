/* recording-json.c — json-c accessors that check types and name the
 * field that is wrong, for the recording parsers (recording-json.h). */
#include "config.h"

#include "recording-json.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void recording_json_fail(struct recording_json *p, const char *what, const char *key)
{
	if (!p->bad)
		snprintf(p->err, p->errlen, "%s \"%s\"", what, key);
	p->bad = true;
}

/* The member key of o, or NULL when absent (required: a failure). */
json_object *recording_json_get(struct recording_json *p, json_object *o, const char *key,
				bool required)
{
	json_object *v = NULL;
	if (!o || !json_object_object_get_ex(o, key, &v)) {
		if (required)
			recording_json_fail(p, "missing", key);
		return NULL;
	}
	return v;
}

bool recording_json_is_num(json_object *v)
{
	return json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double);
}

/* A number; null gives nullv when nullable.  Absent: def. */
double recording_json_num(struct recording_json *p, json_object *o, const char *key, bool nullable,
			  double nullv, double def)
{
	if (!o)
		return def;
	json_object *v = recording_json_get(p, o, key, false);
	if (!v && json_object_object_get_ex(o, key, NULL))
		return nullable ? nullv
				: (recording_json_fail(p, "null", key), def); /* present, null */
	if (!v)
		return def;
	if (!recording_json_is_num(v)) {
		recording_json_fail(p, "not a number:", key);
		return def;
	}
	double d = json_object_get_double(v);
	return recording_json_in_range(p, d, key) ? d : def;
}

bool recording_json_in_range(struct recording_json *p, double d, const char *key)
{
	/* Every number the writer writes is a finite figure >= 0 of a
	 * bounded size: anything else is not a measurement. */
	if (isfinite(d) && d >= 0 && d <= RECORDING_NUM_MAX)
		return true;
	recording_json_fail(p, "out of range:", key);
	return false;
}

long long recording_json_int(struct recording_json *p, json_object *o, const char *key,
			     long long def)
{
	json_object *v = recording_json_get(p, o, key, false);
	if (!v) {
		if (o && json_object_object_get_ex(o, key, NULL))
			recording_json_fail(p, "null", key);
		return def;
	}
	if (!json_object_is_type(v, json_type_int)) {
		recording_json_fail(p, "not an integer:", key);
		return def;
	}
	int64_t i = json_object_get_int64(v);
	if (i < -1 || i > INT_MAX) {
		recording_json_fail(p, "out of range:", key);
		return def;
	}
	return i;
}

/* An unsigned counter, or null (*isnull). */
uint64_t recording_json_u64(struct recording_json *p, json_object *o, const char *key, bool *isnull)
{
	json_object *v = recording_json_get(p, o, key, false);
	*isnull = v == NULL;
	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_int)) {
		recording_json_fail(p, "not an integer:", key);
		return 0;
	}
	/* json-c holds a negative literal as int64, one past INT64_MAX as
	 * uint64, and clamps what is beyond both. */
	if (json_object_get_int64(v) < 0 || json_object_get_uint64(v) > RECORDING_COUNT_MAX) {
		recording_json_fail(p, "out of range:", key);
		return 0;
	}
	return json_object_get_uint64(v);
}

long long recording_json_int_of(struct recording_json *p, json_object *v, const char *key,
				long long lo, long long hi, long long def)
{
	if (!json_object_is_type(v, json_type_int)) {
		recording_json_fail(p, "not an integer:", key);
		return def;
	}
	int64_t i = json_object_get_int64(v);
	if (i < lo || i > hi) {
		recording_json_fail(p, "out of range:", key);
		return def;
	}
	return i;
}

bool recording_json_bool(struct recording_json *p, json_object *o, const char *key, bool def)
{
	json_object *v = recording_json_get(p, o, key, false);
	if (!v)
		return def;
	if (!json_object_is_type(v, json_type_boolean)) {
		recording_json_fail(p, "not true/false:", key);
		return def;
	}
	return json_object_get_boolean(v);
}

/* The raw bytes of a string as recording_json_prepass() left them: NUL NUL is a NUL
 * byte, NUL U+0080..U+00FF (C2/C3 xx) the byte itself.  In place; returns
 * the new length. */
static size_t recording_json_raw_bytes(char *b, size_t n)
{
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		if (b[i] != '\0') {
			b[o++] = b[i++];
		} else if (i + 1 < n && b[i + 1] == '\0') {
			b[o++] = '\0';
			i += 2;
		} else if (i + 2 < n &&
			   ((unsigned char)b[i + 1] == 0xc2 || (unsigned char)b[i + 1] == 0xc3)) {
			unsigned char c1 = (unsigned char)b[i + 1], c2 = (unsigned char)b[i + 2];
			b[o++] = (char)(((c1 & 0x1f) << 6) | (c2 & 0x3f));
			i += 3;
		} else {
			b[o++] = b[i++];
		}
	}
	return o;
}

/* A string into buf (raw bytes, NUL-terminated, cut to cap); null or absent
 * gives "" and returns false. */
bool recording_json_str(struct recording_json *p, json_object *o, const char *key, char *buf,
			size_t cap, size_t *len)
{
	json_object *v = recording_json_get(p, o, key, false);
	if (cap)
		buf[0] = '\0';
	if (len)
		*len = 0;
	if (!v)
		return false;
	if (!json_object_is_type(v, json_type_string)) {
		recording_json_fail(p, "not a string:", key);
		return false;
	}
	recording_json_str_of(v, buf, cap, len);
	return true;
}

void recording_json_str_of(json_object *v, char *buf, size_t cap, size_t *len)
{
	size_t n = (size_t)json_object_get_string_len(v);
	const char *raw = json_object_get_string(v);
	if (memchr(raw, '\0', n)) {
		/* Escaped bytes (see recording_json_prepass): decoded before cutting. */
		char tmp[4096];
		size_t k = n < sizeof(tmp) ? n : sizeof(tmp);
		memcpy(tmp, raw, k);
		n = recording_json_raw_bytes(tmp, k);
		if (n >= cap)
			n = cap ? cap - 1 : 0;
		if (cap) {
			memcpy(buf, tmp, n);
			buf[n] = '\0';
		}
	} else {
		if (n >= cap)
			n = cap ? cap - 1 : 0;
		if (cap) {
			memcpy(buf, raw, n);
			buf[n] = '\0';
		}
	}
	if (len)
		*len = n;
}

json_object *recording_json_typed(struct recording_json *p, json_object *o, const char *key,
				  json_type t, bool required)
{
	json_object *v = recording_json_get(p, o, key, required);
	if (v && !json_object_is_type(v, t)) {
		recording_json_fail(
		    p, t == json_type_object ? "not an object:" : "not an array:", key);
		return NULL;
	}
	return v;
}

/* "2026-12-01T08:17:03.123Z" as CLOCK_REALTIME seconds. */
/* Bytes that are not UTF-8 were written as \udcXX each (json-out.h); json-c
 * would read such a lone surrogate as U+FFFD and lose the byte.  So before
 * parsing, inside strings, \udcXX (XX 80..ff) becomes \u0000\u00XX and a
 * real \u0000 becomes \u0000\u0000: every NUL json-c hands back is then
 * followed by what says which it was (recording_json_raw_bytes).  NULL when the line
 * has neither (nothing to do), or with *outlen SIZE_MAX when there is no
 * memory for it; else a new buffer, its length in *outlen. */
static char *recording_json_prepass(const char *line, size_t len, size_t *outlen)
{
	if (!memmem(line, len, "\\udc", 4) && !memmem(line, len, "\\u0000", 6))
		return NULL;
	char *o = malloc(len * 2 + 1);
	if (!o) {
		*outlen = SIZE_MAX; /* no memory: the caller says so */
		return NULL;
	}
	size_t k = 0;
	bool in = false;
	for (size_t i = 0; i < len; i++) {
		char c = line[i];
		if (!in) {
			in = c == '"';
			o[k++] = c;
			continue;
		}
		if (c == '"') {
			in = false;
			o[k++] = c;
			continue;
		}
		if (c != '\\' || i + 1 >= len) {
			o[k++] = c;
			continue;
		}
		if (line[i + 1] == 'u' && i + 5 < len) {
			const char *h = line + i + 2;
			if (strncmp(h, "0000", 4) == 0) {
				memcpy(o + k, "\\u0000\\u0000", 12);
				k += 12;
				i += 5;
				continue;
			}
			if ((h[0] == 'd' || h[0] == 'D') && (h[1] == 'c' || h[1] == 'C') &&
			    strchr("89abcdefABCDEF", h[2]) && isxdigit((unsigned char)h[3])) {
				memcpy(o + k, "\\u0000\\u00", 10);
				o[k + 10] = h[2];
				o[k + 11] = h[3];
				k += 12;
				i += 5;
				continue;
			}
		}
		o[k++] = c; /* the backslash, then what it escapes as is */
		o[k++] = line[++i];
	}
	o[k] = '\0';
	*outlen = k;
	return o;
}

json_object *recording_json_parse(const char *line, size_t len, char *err, size_t errlen)
{
	size_t plen = 0;
	char *pre = recording_json_prepass(line, len, &plen);
	if (plen == SIZE_MAX) {
		snprintf(err, errlen, "out of memory parsing a line of %zu KiB", len >> 10);
		return NULL;
	}
	if (pre) {
		line = pre;
		len = plen;
	}
	struct json_tokener *tok = len < INT_MAX ? json_tokener_new() : NULL;
	if (!tok) {
		free(pre);
		snprintf(err, errlen, len < INT_MAX ? "out of memory" : "a line over 2 GiB");
		return NULL;
	}
	errno = 0;
	json_object *o = json_tokener_parse_ex(tok, line, (int)len);
	enum json_tokener_error e = json_tokener_get_error(tok);
	if (!o && e == json_tokener_success) {
		/* json-c could not allocate: it says "success" */
		json_tokener_free(tok);
		free(pre);
		snprintf(err, errlen, "out of memory parsing a line of %zu KiB", len >> 10);
		return NULL;
	}
	size_t used = json_tokener_get_parse_end(tok);
	if (o && e == json_tokener_success) {
		while (used < len &&
		       (line[used] == ' ' || line[used] == '\r' || line[used] == '\t'))
			used++;
		if (used < len) {
			json_object_put(o);
			o = NULL;
			snprintf(err, errlen, "not JSON: text after the object");
		}
	} else {
		json_object_put(o);
		o = NULL;
		snprintf(err, errlen, "not JSON: %s",
			 e == json_tokener_continue ? "the line ends inside it"
						    : json_tokener_error_desc(e));
	}
	json_tokener_free(tok);
	free(pre);
	if (o && !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		o = NULL;
		snprintf(err, errlen, "not a JSON object");
	}
	return o;
}
