/* json-out.h — the one JSON writer: batch samples, budgets, sweep tables,
 * recordings, and whatever later formats need.
 *
 * A struct json_out writes straight to a FILE as values are added, so a
 * long table streams row by row.  It tracks nesting and commas; the caller
 * says what comes next (key, value, begin or end of a container) and gets
 * valid JSON.  Strings are raw bytes: valid UTF-8 passes except that '"',
 * '\\', C0, DEL, C1 and bidirectional controls are escaped (\n, \u0000
 * style); each byte of invalid UTF-8 is written as \udcXX ("surrogate-
 * escape": Python's json.loads(s).encode('utf-8', 'surrogateescape') gives
 * back the raw bytes).  Nothing is dropped.  Numbers that are not finite
 * (NaN, infinities) are written as null: JSON has no such numbers.
 *
 * Layout: containers nested less than `pretty` deep put each member on a
 * line of its own, indented by two spaces a level; deeper ones stay on one
 * line.  pretty 0 is JSON Lines' compact form ("key":value,…); from 1 on,
 * one-line containers use ": " and ", ". */
#ifndef THREADLAB_JSON_OUT_H
#define THREADLAB_JSON_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define JSON_OUT_DEPTH 16

struct json_out {
	FILE *f;
	int pretty;		    /* see above */
	int depth;		    /* containers open */
	bool any[JSON_OUT_DEPTH];   /* the container at each depth has a member */
	char close[JSON_OUT_DEPTH]; /* '}' or ']' for the container at each depth */
	bool after_key;		    /* a key was written: the value follows */
	bool spaced;		    /* one-line containers use ": " and ", " */
	bool flat_next;		    /* json_out_flat(): the next container is flat */
	int flat_depth;		    /* depth of the flat container; 0 none */
};

void json_out_init(struct json_out *j, FILE *f, int pretty);

/* The next container (and all inside it) stays on one line, however
 * shallow: a row of a table that streams row by row. */
void json_out_flat(struct json_out *j);

void json_out_object(struct json_out *j); /* { */
void json_out_array(struct json_out *j);  /* [ */
void json_out_end(struct json_out *j);	  /* } or ], whichever is open */

/* "key": — the next call writes its value.  Keys are threadlab's own
 * (ASCII, nothing to escape). */
void json_out_key(struct json_out *j, const char *key);

void json_out_bytes(struct json_out *j, const char *bytes, size_t len);
void json_out_str(struct json_out *j, const char *s);	       /* NULL: null */
void json_out_num(struct json_out *j, double v, int decimals); /* %.*f */
void json_out_sig(struct json_out *j, double v, int digits);   /* %.*g */
void json_out_int(struct json_out *j, long long v);
void json_out_uint(struct json_out *j, unsigned long long v);
void json_out_bool(struct json_out *j, bool v);
void json_out_null(struct json_out *j);

/* key + value in one call. */
void json_out_kstr(struct json_out *j, const char *key, const char *s);
void json_out_kbytes(struct json_out *j, const char *key, const char *bytes, size_t len);
void json_out_knum(struct json_out *j, const char *key, double v, int decimals);
void json_out_kint(struct json_out *j, const char *key, long long v);
void json_out_kuint(struct json_out *j, const char *key, unsigned long long v);
void json_out_kbool(struct json_out *j, const char *key, bool v);
void json_out_knull(struct json_out *j, const char *key);
/* A count that is unknown when n <= 0 (could not be read): null, never 0. */
void json_out_kcount(struct json_out *j, const char *key, long long n);
/* An array of the n process IDs of v. */
void json_out_kpids(struct json_out *j, const char *key, const pid_t *v, size_t n);

/* Ends the top-level value with a newline (a JSON Lines record, or the end
 * of a document). */
void json_out_newline(struct json_out *j);

/* A JSON string of len raw bytes, as above, on f (for callers that only
 * need one string, such as the OpenMetrics label escaper's tests). */
void json_out_string_to(FILE *f, const char *bytes, size_t len);

#endif
