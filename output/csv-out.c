/* csv-out.c — the one CSV writer (csv-out.h). */
#include "config.h"

#include "csv-out.h"

#include <math.h>
#include <string.h>

#include "text-safe.h"

void csv_out_init(struct csv_out *c, FILE *f)
{
	c->f = f;
	c->fields = 0;
}

static void csv_out_sep(struct csv_out *c)
{
	if (c->fields++)
		putc(',', c->f);
}

void csv_out_bytes(struct csv_out *c, const char *bytes, size_t len)
{
	char buf[1024];
	csv_out_sep(c);
	size_t n = text_safe(bytes, len, buf + 1, sizeof(buf) - 1);
	char *p = buf + 1;
	/* A spreadsheet would run a field starting with = + - @ as a formula:
	 * a leading quote keeps it text. */
	if (n && strchr("=+-@", p[0])) {
		*--p = '\'';
		n++;
	}
	if (strpbrk(p, ",\" ") == NULL) {
		fwrite(p, 1, n, c->f);
		return;
	}
	putc('"', c->f);
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '"')
			putc('"', c->f);
		putc(p[i], c->f);
	}
	putc('"', c->f);
}

void csv_out_str(struct csv_out *c, const char *s)
{
	if (s)
		csv_out_bytes(c, s, strlen(s));
	else
		csv_out_empty(c);
}

void csv_out_num(struct csv_out *c, double v, int decimals)
{
	csv_out_sep(c);
	if (isfinite(v))
		fprintf(c->f, "%.*f", decimals, v);
}

void csv_out_sig(struct csv_out *c, double v, int digits)
{
	csv_out_sep(c);
	if (isfinite(v))
		fprintf(c->f, "%.*g", digits, v);
}

void csv_out_int(struct csv_out *c, long long v)
{
	csv_out_sep(c);
	fprintf(c->f, "%lld", v);
}

void csv_out_empty(struct csv_out *c)
{
	csv_out_sep(c);
}

void csv_out_end_row(struct csv_out *c)
{
	putc('\n', c->f);
	c->fields = 0;
}

void csv_out_header(struct csv_out *c, const char *names)
{
	fputs(names, c->f);
	csv_out_end_row(c);
}

void csv_out_comment(struct csv_out *c, const char *text)
{
	char buf[2048];
	text_safe(text, strlen(text), buf, sizeof(buf));
	fprintf(c->f, "# %s\n", buf);
	c->fields = 0;
}
