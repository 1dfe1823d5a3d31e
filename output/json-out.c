/* json-out.c — the one JSON writer (json-out.h). */
#include "config.h"

#include "json-out.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "text-safe.h"

void json_out_init(struct json_out *j, FILE *f, int pretty)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->pretty = pretty;
	j->spaced = pretty > 0;
}

void json_out_flat(struct json_out *j)
{
	j->flat_next = true;
}

/* Whether members at the current depth go on lines of their own. */
static bool json_out_lines(const struct json_out *j, int depth)
{
	return depth <= j->pretty && (j->flat_depth == 0 || depth < j->flat_depth);
}

static void json_out_indent(struct json_out *j, int depth)
{
	putc('\n', j->f);
	for (int i = 0; i < depth; i++)
		fputs("  ", j->f);
}

/* Whatever must come before a value or a key at the current depth. */
static void json_out_sep(struct json_out *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth == 0)
		return;
	bool lines = json_out_lines(j, j->depth);
	int d = j->depth <= JSON_OUT_DEPTH ? j->depth - 1 : JSON_OUT_DEPTH - 1;
	if (j->any[d])
		fputs(lines || !j->spaced ? "," : ", ", j->f);
	j->any[d] = true;
	if (lines)
		json_out_indent(j, j->depth);
}

static void json_out_open(struct json_out *j, char c)
{
	json_out_sep(j);
	putc(c, j->f);
	if (j->depth < JSON_OUT_DEPTH) {
		j->any[j->depth] = false;
		j->close[j->depth] = c == '{' ? '}' : ']';
	}
	j->depth++;
	if (j->flat_next && j->flat_depth == 0)
		j->flat_depth = j->depth;
	j->flat_next = false;
}

void json_out_object(struct json_out *j)
{
	json_out_open(j, '{');
}

void json_out_array(struct json_out *j)
{
	json_out_open(j, '[');
}

void json_out_end(struct json_out *j)
{
	if (j->depth == 0)
		return;
	bool lines = json_out_lines(j, j->depth);
	if (j->flat_depth == j->depth)
		j->flat_depth = 0;
	j->depth--;
	if (lines && j->any[j->depth < JSON_OUT_DEPTH ? j->depth : JSON_OUT_DEPTH - 1])
		json_out_indent(j, j->depth);
	putc(j->depth < JSON_OUT_DEPTH ? j->close[j->depth] : '}', j->f);
}

void json_out_key(struct json_out *j, const char *key)
{
	json_out_sep(j);
	putc('"', j->f);
	fputs(key, j->f);
	fputs(j->spaced ? "\": " : "\":", j->f);
	j->after_key = true;
}

void json_out_string_to(FILE *f, const char *bytes, size_t len)
{
	const unsigned char *s = (const unsigned char *)bytes;
	putc('"', f);
	for (size_t i = 0; i < len;) {
		uint32_t cp = 0;
		size_t n = text_safe_decode(s + i, len - i, &cp);
		if (n == 0) {
			fprintf(f, "\\udc%02x", s[i]);
			i++;
			continue;
		}
		if (cp == '"' || cp == '\\') {
			putc('\\', f);
			putc((int)cp, f);
		} else if (cp == '\n') {
			fputs("\\n", f);
		} else if (cp == '\t') {
			fputs("\\t", f);
		} else if (cp == '\r') {
			fputs("\\r", f);
		} else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) ||
			   text_safe_bidi(cp)) {
			fprintf(f, "\\u%04x", (unsigned)cp);
		} else {
			fwrite(s + i, 1, n, f);
		}
		i += n;
	}
	putc('"', f);
}

void json_out_bytes(struct json_out *j, const char *bytes, size_t len)
{
	json_out_sep(j);
	json_out_string_to(j->f, bytes, len);
}

void json_out_str(struct json_out *j, const char *s)
{
	if (s)
		json_out_bytes(j, s, strlen(s));
	else
		json_out_null(j);
}

void json_out_num(struct json_out *j, double v, int decimals)
{
	json_out_sep(j);
	if (isfinite(v))
		fprintf(j->f, "%.*f", decimals, v);
	else
		fputs("null", j->f);
}

void json_out_sig(struct json_out *j, double v, int digits)
{
	json_out_sep(j);
	if (isfinite(v))
		fprintf(j->f, "%.*g", digits, v);
	else
		fputs("null", j->f);
}

void json_out_int(struct json_out *j, long long v)
{
	json_out_sep(j);
	fprintf(j->f, "%lld", v);
}

void json_out_uint(struct json_out *j, unsigned long long v)
{
	json_out_sep(j);
	fprintf(j->f, "%llu", v);
}

void json_out_bool(struct json_out *j, bool v)
{
	json_out_sep(j);
	fputs(v ? "true" : "false", j->f);
}

void json_out_null(struct json_out *j)
{
	json_out_sep(j);
	fputs("null", j->f);
}

void json_out_kstr(struct json_out *j, const char *key, const char *s)
{
	json_out_key(j, key);
	json_out_str(j, s);
}

void json_out_kbytes(struct json_out *j, const char *key, const char *bytes, size_t len)
{
	json_out_key(j, key);
	json_out_bytes(j, bytes, len);
}

void json_out_knum(struct json_out *j, const char *key, double v, int decimals)
{
	json_out_key(j, key);
	json_out_num(j, v, decimals);
}

void json_out_kint(struct json_out *j, const char *key, long long v)
{
	json_out_key(j, key);
	json_out_int(j, v);
}

void json_out_kuint(struct json_out *j, const char *key, unsigned long long v)
{
	json_out_key(j, key);
	json_out_uint(j, v);
}

void json_out_kbool(struct json_out *j, const char *key, bool v)
{
	json_out_key(j, key);
	json_out_bool(j, v);
}

void json_out_knull(struct json_out *j, const char *key)
{
	json_out_key(j, key);
	json_out_null(j);
}

void json_out_kcount(struct json_out *j, const char *key, long long n)
{
	if (n > 0)
		json_out_kint(j, key, n);
	else
		json_out_knull(j, key);
}

void json_out_kpids(struct json_out *j, const char *key, const pid_t *v, size_t n)
{
	json_out_key(j, key);
	json_out_array(j);
	for (size_t i = 0; i < n; i++)
		json_out_int(j, v[i]);
	json_out_end(j);
}

void json_out_newline(struct json_out *j)
{
	putc('\n', j->f);
}
