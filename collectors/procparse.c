/* procparse.c — pure parsers for per-task /proc files (see procparse.h). */
#include "config.h"

#include "procparse.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

/* Parses an unsigned decimal at *p (before end), skipping leading spaces.
 * Moves *p past the digits.  Returns false when there is no number. */
static bool parse_u64(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	while (s < end && *s == ' ')
		s++;
	if (s >= end || *s < '0' || *s > '9')
		return false;
	uint64_t v = 0;
	while (s < end && *s >= '0' && *s <= '9') {
		uint64_t d = (uint64_t)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
		s++;
	}
	*out = v;
	*p = s;
	return true;
}

/* A stat field: unsigned (rsslim may be 2^64-1) or, with '-', negative,
 * kept as two's complement. */
static bool parse_field(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	while (s < end && *s == ' ')
		s++;
	bool neg = s < end && *s == '-';
	if (neg)
		s++;
	uint64_t v;
	if (!parse_u64(&s, end, &v))
		return false;
	*out = neg ? (uint64_t)0 - v : v;
	*p = s;
	return true;
}

/* Steps over a stat field that is not kept: optional '-', then digits. */
static bool skip_field(const char **p, const char *end)
{
	const char *s = *p;
	while (s < end && *s == ' ')
		s++;
	if (s < end && *s == '-')
		s++;
	const char *digits = s;
	while (s < end && *s >= '0' && *s <= '9')
		s++;
	if (s == digits)
		return false;
	*p = s;
	return true;
}

/* A field ends at a space, a newline or the end of the buffer. */
static bool at_field_end(const char *p, const char *end)
{
	return p >= end || *p == ' ' || *p == '\n';
}

int procparse_stat_line(const char *buf, size_t len, struct stat_line *out)
{
	const char *end = buf + len;
	const char *open = memchr(buf, '(', len);
	/* comm may hold ')': the name ends at the LAST ')' of the buffer. */
	const char *close = memrchr(buf, ')', len);
	if (!open || !close || close < open)
		return -EINVAL;

	memset(out, 0, sizeof(*out));
	const char *p = buf;
	uint64_t v;
	if (!parse_u64(&p, open, &v) || v == 0 || v > INT32_MAX)
		return -EINVAL;
	out->pid = (int)v;

	size_t n = (size_t)(close - open - 1);
	if (n > TASK_NAME_MAX - 1)
		n = TASK_NAME_MAX - 1;
	memcpy(out->name, open + 1, n);
	out->name[n] = '\0';
	out->name_len = n;

	p = close + 1;
	if (end - p <= 2 || *p != ' ' || p[1] == ' ' || !at_field_end(p + 2, end))
		return -EINVAL;
	out->state = p[1];
	p += 2;

	/* Fields 4..39; every one must be present, or the line is truncated.
	 * Only the kept ones are converted: this runs for every thread that ran. */
	const uint64_t kept =
	    1ull << 4 | 1ull << 14 | 1ull << 15 | 1ull << 16 | 1ull << 17 | 1ull << 20 | 1ull << 22 |
	    1ull << 39;
	for (int field = 4; field <= 39; field++) {
		if (!(kept >> field & 1)) {
			if (!skip_field(&p, end) || !at_field_end(p, end))
				return -EINVAL;
			continue;
		}
		if (!parse_field(&p, end, &v) || !at_field_end(p, end))
			return -EINVAL;
		switch (field) {
		case 4:
			out->ppid = (int)v;
			break;
		case 14:
			out->utime = v;
			break;
		case 15:
			out->stime = v;
			break;
		case 16:
			out->cutime = v;
			break;
		case 17:
			out->cstime = v;
			break;
		case 20:
			out->num_threads = (long)v;
			break;
		case 22:
			out->starttime = v;
			break;
		case 39:
			/* no kernel has this many CPUs: unknown, never a wrapped int */
			out->processor = v < PROCPARSE_CPU_MAX ? (int)v : -1;
			break;
		default:
			break;
		}
	}
	return 0;
}

int procparse_schedstat(const char *buf, struct schedstat *out)
{
	const char *p = buf, *end = buf + strlen(buf);
	uint64_t f[3];
	for (int i = 0; i < 3; i++)
		if (!parse_u64(&p, end, &f[i]) || !at_field_end(p, end))
			return -EINVAL;
	while (p < end && (*p == ' ' || *p == '\n'))
		p++;
	if (p != end)
		return -EINVAL;
	out->run_ns = f[0];
	out->wait_ns = f[1];
	out->slices = f[2];
	return 0;
}

/* If line starts with key (including its ':'), returns the value after the
 * separating blanks; else NULL. */
static const char *status_value(const char *line, const char *key)
{
	size_t k = strlen(key);
	if (strncmp(line, key, k) != 0)
		return NULL;
	line += k;
	while (*line == ' ' || *line == '\t')
		line++;
	return line;
}

static int status_u64(const char *v, const char *eol, uint64_t *out)
{
	const char *p = v;
	if (!parse_u64(&p, eol, out))
		return -EINVAL;
	while (p < eol && (*p == ' ' || *p == '\t'))
		p++;
	return p == eol ? 0 : -EINVAL;
}

int procparse_status(const char *buf, struct status_info *out)
{
	bool have_v = false, have_iv = false;
	memset(out, 0, sizeof(*out));
	for (const char *line = buf; *line;) {
		const char *eol = strchr(line, '\n');
		if (!eol)
			eol = line + strlen(line);
		const char *v;
		uint64_t u;
		if ((v = status_value(line, "voluntary_ctxt_switches:"))) {
			if (status_u64(v, eol, &out->vcsw) < 0)
				return -EINVAL;
			have_v = true;
		} else if ((v = status_value(line, "nonvoluntary_ctxt_switches:"))) {
			if (status_u64(v, eol, &out->ivcsw) < 0)
				return -EINVAL;
			have_iv = true;
		} else if ((v = status_value(line, "Tgid:"))) {
			if (status_u64(v, eol, &u) < 0 || u > INT32_MAX)
				return -EINVAL;
			out->tgid = (int)u;
		} else if ((v = status_value(line, "Cpus_allowed_list:"))) {
			size_t n = (size_t)(eol - v);
			if (n >= sizeof(out->cpus_allowed_list))
				return -EINVAL;
			memcpy(out->cpus_allowed_list, v, n);
			out->cpus_allowed_list[n] = '\0';
		}
		line = *eol ? eol + 1 : eol;
	}
	/* Every kernel since 2.6.23 prints both; without them the file is cut short. */
	return have_v && have_iv ? 0 : -EINVAL;
}

/* Like status_value for the line [line, eol). */
static const char *status_value_n(const char *line, const char *eol, const char *key, size_t k)
{
	if ((size_t)(eol - line) < k || memcmp(line, key, k) != 0)
		return NULL;
	line += k;
	while (line < eol && (*line == ' ' || *line == '\t'))
		line++;
	return line;
}

int procparse_status_switches(const char *buf, size_t len, uint64_t *vcsw, uint64_t *ivcsw)
{
	static const char vkey[] = "voluntary_ctxt_switches:";
	static const char ikey[] = "nonvoluntary_ctxt_switches:";
	bool have_v = false, have_iv = false;
	/* procparse_status stops at a NUL: so does this. */
	const char *nul = memchr(buf, '\0', len);
	const char *eol = nul ? nul : buf + len;
	while (!(have_v && have_iv)) {
		const char *nl = memrchr(buf, '\n', (size_t)(eol - buf));
		const char *line = nl ? nl + 1 : buf;
		const char *v;
		if (!have_v && (v = status_value_n(line, eol, vkey, sizeof(vkey) - 1))) {
			if (status_u64(v, eol, vcsw) < 0)
				return -EINVAL;
			have_v = true;
		} else if (!have_iv && (v = status_value_n(line, eol, ikey, sizeof(ikey) - 1))) {
			if (status_u64(v, eol, ivcsw) < 0)
				return -EINVAL;
			have_iv = true;
		}
		if (!nl)
			break;
		eol = nl;
	}
	return have_v && have_iv ? 0 : -EINVAL;
}

uint32_t procparse_name_hash(const char *name, size_t len)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len && i < TASK_NAME_MAX; i++)
		h = (h ^ (unsigned char)name[i]) * 16777619u;
	return h;
}
