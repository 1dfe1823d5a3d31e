/* metrics-expo.c — the exposition's primitives (metrics-expo.h): a
 * family's # HELP and # TYPE with its first sample, sample names, escaped
 * labels and values.  A sample line is built in a memory stream and goes
 * out whole, or not at all (a value that is not a measurement). */
#include "config.h"

#include "metrics-expo.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text-safe.h"

static const char *const metrics_suffix[] = {[FAMILY_GAUGE] = "",
					     [FAMILY_COUNTER] = "_total",
					     [FAMILY_INFO] = "_info",
					     [FAMILY_HISTOGRAM] = ""};

int metrics_expo_begin(struct metrics_ctx *c, FILE *f, enum metrics_format fmt)
{
	*c = (struct metrics_ctx){.out = f, .fmt = fmt};
	c->f = open_memstream(&c->line, &c->line_len);
	return c->f ? 0 : -ENOMEM;
}

int metrics_expo_end(struct metrics_ctx *c)
{
	if (c->fmt == METRICS_OPENMETRICS)
		fputs("# EOF\n", c->out);
	bool bad = ferror(c->f);
	fclose(c->f);
	free(c->line);
	c->f = NULL;
	c->line = NULL;
	return bad || ferror(c->out) ? -EIO : 0;
}

void metrics_expo_family(struct metrics_ctx *c, const struct family *fam)
{
	c->fam = fam;
	c->started = false;
}

void metrics_expo_sample_as(struct metrics_ctx *c, const char *suffix)
{
	const struct family *m = c->fam;
	if (!c->started) {
		const char *s = c->fmt == METRICS_PROMETHEUS ? metrics_suffix[m->type] : "";
		const char *type = m->type == FAMILY_COUNTER	 ? "counter"
				   : m->type == FAMILY_HISTOGRAM ? "histogram"
				   : m->type == FAMILY_INFO && c->fmt == METRICS_OPENMETRICS
				       ? "info"
				       : "gauge";
		fprintf(c->out, "# HELP %s%s %s\n# TYPE %s%s %s\n", m->name, s, m->help, m->name, s,
			type);
		c->started = true;
	}
	fprintf(c->f, "%s%s", m->name, suffix);
	c->labels = false;
}

/* Starts a sample line: the family's metadata first if it is the first,
 * then the sample name (labels follow, then metrics_value). */
void metrics_expo_sample(struct metrics_ctx *c)
{
	metrics_expo_sample_as(c, metrics_suffix[c->fam->type]);
}

static size_t metrics_label_value(FILE *f, const char *v, size_t len)
{
	size_t o = 0;
	const unsigned char *s = (const unsigned char *)v;
	for (size_t i = 0; i < len;) {
		uint32_t cp = 0;
		size_t n = s[i] >= 0x80 ? text_safe_decode(s + i, len - i, &cp) : 1;
		if (s[i] == '\\' || s[i] == '"') {
			fputc('\\', f);
			fputc(s[i], f);
			o += 2;
		} else if (s[i] == '\n') {
			fputs("\\n", f);
			o += 2;
		} else if (n == 0 || s[i] < 0x20 || s[i] == 0x7f || (n == 2 && cp < 0xa0)) {
			/* invalid, or a C0 or C1 control: each byte as text */
			n = n ? n : 1;
			for (size_t k = 0; k < n; k++)
				fprintf(f, "\\\\x%02x", s[i + k]);
			o += 5 * n;
		} else {
			fwrite(s + i, 1, n, f);
			o += n;
		}
		i += n;
	}
	return o;
}

/* The label value v as written, into out (cap bytes; cut when longer). */
static size_t metrics_label_text(const char *v, size_t len, char *out, size_t cap)
{
	FILE *f = fmemopen(out, cap, "w");
	if (!f)
		return 0;
	size_t n = metrics_label_value(f, v, len);
	fclose(f);
	return n < cap ? n : cap - 1;
}

/* Whether v is surely written as it is: no byte metrics_label_value may
 * escape (any byte above 0x7e counts as one: a test, not the rule). */
static bool metrics_label_verbatim(const char *v, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)v[i];
		if (c < 0x20 || c > 0x7e || c == '\\' || c == '"')
			return false;
	}
	return true;
}

bool metrics_expo_label_same(const char *a, size_t alen, const char *b, size_t blen)
{
	/* Written verbatim, a value's text has no backslash, and any escape
	 * writes one: then the texts are alike only where the bytes are (the
	 * common case: no text is made for each label of each line). */
	if (metrics_label_verbatim(a, alen) || metrics_label_verbatim(b, blen))
		return alen == blen && memcmp(a, b, alen) == 0;
	char x[512], y[512];
	size_t nx = metrics_label_text(a, alen, x, sizeof(x));
	size_t ny = metrics_label_text(b, blen, y, sizeof(y));
	return nx == ny && memcmp(x, y, nx) == 0;
}

void metrics_expo_label(struct metrics_ctx *c, const char *name, const char *v, size_t len)
{
	fprintf(c->f, "%s%s=\"", c->labels ? "," : "{", name);
	c->labels = true;
	metrics_label_value(c->f, v, len);
	fputc('"', c->f);
}

void metrics_expo_label_str(struct metrics_ctx *c, const char *name, const char *v)
{
	metrics_expo_label(c, name, v, strlen(v));
}

void metrics_expo_label_int(struct metrics_ctx *c, const char *name, long v)
{
	fprintf(c->f, "%s%s=\"%ld\"", c->labels ? "," : "{", name, v);
	c->labels = true;
}

/* The sample line so far goes out (keep) or is dropped; f starts over. */
static void metrics_line_end(struct metrics_ctx *c, bool keep)
{
	fflush(c->f);
	if (keep)
		fwrite(c->line, 1, c->line_len, c->out);
	rewind(c->f);
}

/* Ends the labels and writes the value.  A value that is not a finite
 * number leaves its sample out: a counter or gauge of +Inf or NaN is not a
 * measurement (it came from arithmetic on bad input), and a scraper would
 * keep it. */
void metrics_expo_value(struct metrics_ctx *c, double v)
{
	if (c->labels)
		fputc('}', c->f);
	if (!isfinite(v) || (c->fam->type == FAMILY_COUNTER && v < 0)) {
		metrics_line_end(c, false);
		return;
	}
	if (v == floor(v) && fabs(v) < 1e15)
		fprintf(c->f, " %.0f\n", v);
	else
		fprintf(c->f, " %.10g\n", v);
	metrics_line_end(c, true);
}

void metrics_expo_uint(struct metrics_ctx *c, unsigned long long v)
{
	fprintf(c->f, "%s %llu\n", c->labels ? "}" : "", v);
	metrics_line_end(c, true);
}
