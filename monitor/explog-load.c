/* explog-load.c — the rows an earlier run appended to a --log file
 * (explog.h), read back so that a log goes on where it stopped. */
#define _GNU_SOURCE
#include "explog.h"
#include "explog-load.h"

#include <errno.h>
#include <math.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* A number member, or fallback when it is missing, null, or not a figure
 * a row holds (finite, 0 to EXPLOG_NUM_MAX): a log is input like any file. */
#define EXPLOG_NUM_MAX 1e12
static double explog_load_num(json_object *o, const char *key, double fallback)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !v)
		return fallback;
	if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
		return fallback;
	double d = json_object_get_double(v);
	return isfinite(d) && d >= 0 && d <= EXPLOG_NUM_MAX ? d : fallback;
}

static const char *explog_load_str(json_object *o, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* "2026-12-01T08:17:03.123Z" as CLOCK_REALTIME seconds; 0 when it is not. */
static double explog_load_time(const char *s)
{
	struct tm tm;
	memset(&tm, 0, sizeof(tm));
	const char *rest = s ? strptime(s, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;
	if (!rest)
		return 0;
	return (double)timegm(&tm) + (*rest == '.' ? strtod(rest, NULL) : 0);
}

/* One line into r; false when it is not a row. */
static bool explog_load_row(json_object *o, struct explog_row *r)
{
	json_object *set;
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "setting", &set) ||
	    !json_object_is_type(set, json_type_object))
		return false;
	memset(r, 0, sizeof(*r));
	json_object_object_foreach(set, key, val)
	{
		if (r->nknobs == EXPLOG_KNOBS)
			break;
		snprintf(r->knob[r->nknobs].name, sizeof(r->knob[0].name), "%s", key);
		snprintf(r->knob[r->nknobs].value, sizeof(r->knob[0].value), "%s",
			 json_object_get_string(val));
		r->nknobs++;
	}
	const char *note = explog_load_str(o, "note"), *unit = explog_load_str(o, "unit"),
		   *verdict = explog_load_str(o, "verdict");
	snprintf(r->note, sizeof(r->note), "%s", note ? note : "");
	r->unit = !unit			       ? NULL
		  : strcmp(unit, "GFLOP/s") == 0 ? "GFLOP/s"
		  : strcmp(unit, "steps/s") == 0 ? "steps/s"
						 : NULL;
	r->wall = explog_load_time(explog_load_str(o, "time"));
	r->rate = explog_load_num(o, "rate", -1);
	r->cpu = explog_load_num(o, "cpu", 0);
	r->runnable_mean = explog_load_num(o, "runnable_mean", 0);
	r->wait = explog_load_num(o, "wait_s_per_s", 0);
	r->throttled_pct = explog_load_num(o, "throttled_pct", -1);
	r->verdict = verdict ? diagnosis_verdict_of(verdict) : VERDICT_N;
	return true;
}

/* The next line of f into buf (at most cap - 1 bytes: the rest of a longer
 * line is read past, so a huge line costs no memory); false at the end. */
static bool explog_load_line(FILE *f, char *buf, size_t cap, size_t *read)
{
	size_t n = 0;
	int c;
	bool any = false;
	while ((c = getc(f)) != EOF) {
		any = true;
		(*read)++;
		if (c == '\n')
			break;
		if (n + 1 < cap)
			buf[n++] = (char)c;
	}
	buf[n] = '\0';
	return any;
}

#define EXPLOG_LINE_MAX 16384 /* a row is a few hundred bytes */

int explog_load(struct explog *l, const char *path, size_t *skipped)
{
	FILE *f = fopen(path, "re");
	int n = 0;
	size_t read = 0;
	*skipped = 0;
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	char *line = malloc(EXPLOG_LINE_MAX);
	if (!line) {
		fclose(f);
		return -ENOMEM;
	}
	while (explog_load_line(f, line, EXPLOG_LINE_MAX, &read)) {
		json_object *o = json_tokener_parse(line);
		struct explog_row r;
		if (o && explog_load_row(o, &r)) {
			explog_add(l, &r);
			n++;
		} else {
			(*skipped)++;
		}
		json_object_put(o);
	}
	int rc = ferror(f) ? -EIO : n;
	free(line);
	fclose(f);
	return rc;
}

int explog_load_check(const char *path, char *err, size_t errlen)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "--log %s: %s", path, strerror(errno));
		return -errno;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "--log %s: is a directory, not a file for the experiment log",
			 path);
		return -EISDIR;
	}
	FILE *f = fopen(path, "re");
	if (!f) {
		int e = errno;
		snprintf(err, errlen, "--log %s: %s", path, strerror(e));
		return -e;
	}
	char *line = malloc(EXPLOG_LINE_MAX);
	size_t read = 0, lines = 0;
	bool row = false;
	while (line && !row && read < EXPLOG_CHECK_BYTES &&
	       explog_load_line(f, line, EXPLOG_LINE_MAX, &read)) {
		json_object *o = json_tokener_parse(line);
		struct explog_row r;
		row = o && explog_load_row(o, &r);
		json_object_put(o);
		lines += line[strspn(line, " \t\r")] != '\0';
	}
	bool bad = ferror(f);
	free(line);
	fclose(f);
	if (bad) {
		snprintf(err, errlen, "--log %s: %s", path, strerror(EIO));
		return -EIO;
	}
	if (!row && lines > 0) {
		snprintf(err, errlen,
			 "--log %s: not an experiment log (no line of it is a row threadlab "
			 "wrote); give a new file or one an earlier --log wrote",
			 path);
		return -EINVAL;
	}
	return 0;
}
