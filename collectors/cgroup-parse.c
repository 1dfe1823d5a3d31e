/* cgroup-parse.c — pure parsers of cgroup, mountinfo, cpu.stat and PSI text.
 *
 * Every function here reads a NUL-terminated buffer and fills a struct; none
 * touches the file system, so each can be unit-tested with a table of
 * inputs.  Numbers are parsed by hand: strtod follows LC_NUMERIC, and the
 * kernel always writes '.' as the decimal point. */
#include "config.h"

#include "cgroup.h"
#include "cgroup-parse.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* ---- small scanners ------------------------------------------------------ */

/* End of the line starting at p (the '\n' or the final NUL). */
static const char *cgroup_parse_eol(const char *p)
{
	const char *e = strchr(p, '\n');
	return e ? e : p + strlen(p);
}

static bool cgroup_parse_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

static bool cgroup_parse_isspace(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Unsigned decimal at *p; advances *p.  -EINVAL without a digit, -ERANGE
 * on overflow. */
static int cgroup_parse_u64(const char **p, uint64_t *v)
{
	const char *s = *p;
	uint64_t n = 0;
	if (!cgroup_parse_isdigit(*s))
		return -EINVAL;
	for (; cgroup_parse_isdigit(*s); s++) {
		uint64_t d = (uint64_t)(*s - '0');
		if (n > (UINT64_MAX - d) / 10)
			return -ERANGE;
		n = n * 10 + d;
	}
	*p = s;
	*v = n;
	return 0;
}

/* Fixed-point decimal such as "12.34" (PSI averages). */
static int cgroup_parse_fixed(const char **p, double *v)
{
	uint64_t ip, frac = 0;
	double scale = 1.0;
	int rc = cgroup_parse_u64(p, &ip);
	if (rc < 0)
		return rc;
	if (**p == '.') {
		(*p)++;
		if (!cgroup_parse_isdigit(**p))
			return -EINVAL;
		while (cgroup_parse_isdigit(**p)) {
			if (scale < 1e15) {
				frac = frac * 10 + (uint64_t)(**p - '0');
				scale *= 10.0;
			}
			(*p)++;
		}
	}
	*v = (double)ip + (double)frac / scale;
	return 0;
}

/* True when the comma list [s, s+len) holds word as a whole item. */
static bool cgroup_parse_list_has(const char *s, size_t len, const char *word)
{
	size_t wl = strlen(word);
	const char *end = s + len;
	while (s < end) {
		const char *c = memchr(s, ',', (size_t)(end - s));
		size_t il = c ? (size_t)(c - s) : (size_t)(end - s);
		if (il == wl && memcmp(s, word, wl) == 0)
			return true;
		if (!c)
			break;
		s = c + 1;
	}
	return false;
}

/* Only whitespace from p to the end of the buffer. */
static bool cgroup_parse_rest_blank(const char *p)
{
	while (cgroup_parse_isspace(*p))
		p++;
	return *p == '\0';
}

/* ---- /proc/PID/cgroup ---------------------------------------------------- */

int cgroup_parse_file_find(const char *buf, const char *controller, struct cgroup_line *out)
{
	bool found = false;
	for (const char *p = buf; *p;) {
		const char *eol = cgroup_parse_eol(p);
		const char *next = *eol ? eol + 1 : eol;
		if (eol == p) {
			p = next;
			continue;
		}
		uint64_t id;
		const char *q = p;
		if (cgroup_parse_u64(&q, &id) < 0 || *q != ':' || id > 65535)
			return -EINVAL;
		const char *ctl = q + 1;
		const char *c2 = memchr(ctl, ':', (size_t)(eol - ctl));
		if (!c2)
			return -EINVAL;
		/* The path is everything after the second colon: it may hold colons. */
		const char *path = c2 + 1;
		size_t cl = (size_t)(c2 - ctl), pl = (size_t)(eol - path);
		if (pl == 0 || path[0] != '/')
			return -EINVAL;
		bool match =
		    controller ? cgroup_parse_list_has(ctl, cl, controller) : (id == 0 && cl == 0);
		if (match && !found) {
			/* Only the line we keep must fit: a very long path of some
			 * other controller does not hide ours. */
			if (pl >= CGROUP_PATH_MAX || cl >= sizeof(out->controllers))
				return -ENAMETOOLONG;
			found = true;
			out->id = (int)id;
			memcpy(out->controllers, ctl, cl);
			out->controllers[cl] = '\0';
			memcpy(out->path, path, pl);
			out->path[pl] = '\0';
		}
		p = next;
	}
	return found ? 0 : -ENOENT;
}

int cgroup_parse_file(const char *buf, bool v1, struct cgroup_line *out)
{
	return cgroup_parse_file_find(buf, v1 ? "cpu" : NULL, out);
}

/* ---- /proc/PID/mountinfo ------------------------------------------------- */

/* Copies the space-delimited field [s, e) into out, decoding the kernel's
 * octal escapes (\040 space, \011 tab, \012 newline, \134 backslash). */
static int cgroup_parse_unescape(const char *s, const char *e, char *out, size_t cap)
{
	size_t n = 0;
	while (s < e) {
		char c = *s++;
		if (c == '\\' && e - s >= 3 && s[0] >= '0' && s[0] <= '3' && s[1] >= '0' &&
		    s[1] <= '7' && s[2] >= '0' && s[2] <= '7') {
			c = (char)((s[0] - '0') * 64 + (s[1] - '0') * 8 + (s[2] - '0'));
			s += 3;
		}
		if (n + 1 >= cap)
			return -ENAMETOOLONG;
		out[n++] = c;
	}
	out[n] = '\0';
	return 0;
}

int cgroup_parse_mountinfo_find(const char *buf, const char *controller, struct cgroup_mount *out)
{
	for (const char *p = buf; *p;) {
		const char *eol = cgroup_parse_eol(p);
		const char *next = *eol ? eol + 1 : eol;
		/* Fields: id parent maj:min root mountpoint options [optional...] - fstype
		 * source superoptions. */
		const char *f[64][2];
		int nf = 0;
		for (const char *q = p; q < eol && nf < 64;) {
			while (q < eol && *q == ' ')
				q++;
			if (q == eol)
				break;
			const char *s = q;
			while (q < eol && *q != ' ')
				q++;
			f[nf][0] = s;
			f[nf][1] = q;
			nf++;
		}
		int dash = -1;
		for (int i = 6; i < nf; i++) {
			if (f[i][1] - f[i][0] == 1 && f[i][0][0] == '-') {
				dash = i;
				break;
			}
		}
		p = next;
		if (dash < 0 || dash + 1 >= nf)
			continue;
		size_t tl = (size_t)(f[dash + 1][1] - f[dash + 1][0]);
		const char *type = f[dash + 1][0];
		bool match;
		if (controller) {
			if (dash + 3 >= nf || tl != 6 || memcmp(type, "cgroup", 6) != 0)
				continue;
			const char *opts = f[dash + 3][0];
			match = cgroup_parse_list_has(opts, (size_t)(f[dash + 3][1] - opts),
						      controller);
		} else {
			match = tl == 7 && memcmp(type, "cgroup2", 7) == 0;
		}
		if (!match)
			continue;
		struct cgroup_mount m;
		m.version = controller ? 1 : 2;
		if (cgroup_parse_unescape(f[3][0], f[3][1], m.root, sizeof(m.root)) < 0 ||
		    cgroup_parse_unescape(f[4][0], f[4][1], m.mountpoint, sizeof(m.mountpoint)) <
			0 ||
		    m.root[0] != '/' || m.mountpoint[0] != '/')
			continue;
		*out = m;
		return 0;
	}
	return -ENOENT;
}

int cgroup_parse_mountinfo(const char *buf, int version, struct cgroup_mount *out)
{
	if (version != 1 && version != 2)
		return -EINVAL;
	return cgroup_parse_mountinfo_find(buf, version == 1 ? "cpu" : NULL, out);
}

/* ---- quota --------------------------------------------------------------- */

/* Both quota formats end in the period, µs: parse it from p and give the
 * quota in CPUs (-1 when unlimited). */
static int cgroup_parse_quota_end(const char *p, bool unlimited, uint64_t quota, double *cpus,
				  uint64_t *period_us)
{
	uint64_t period;
	while (*p == ' ')
		p++;
	if (cgroup_parse_u64(&p, &period) < 0 || period == 0 || !cgroup_parse_rest_blank(p))
		return -EINVAL;
	*cpus = unlimited ? -1.0 : (double)quota / (double)period;
	*period_us = period;
	return 0;
}

int cgroup_parse_cpu_max(const char *buf, double *cpus, uint64_t *period_us)
{
	const char *p = buf;
	uint64_t quota = 0;
	bool unlimited = false;
	while (*p == ' ')
		p++;
	if (strncmp(p, "max", 3) == 0) {
		unlimited = true;
		p += 3;
	} else if (cgroup_parse_u64(&p, &quota) < 0 || quota == 0) {
		return -EINVAL;
	}
	if (*p != ' ')
		return -EINVAL;
	return cgroup_parse_quota_end(p, unlimited, quota, cpus, period_us);
}

int cgroup_parse_cfs(const char *quota_buf, const char *period_buf, double *cpus,
		     uint64_t *period_us)
{
	const char *q = quota_buf, *p = period_buf;
	uint64_t quota = 0;
	bool unlimited = false;
	while (*q == ' ')
		q++;
	if (*q == '-') {
		/* v1 spells "no limit" as -1; any other negative is not a quota. */
		q++;
		if (cgroup_parse_u64(&q, &quota) < 0 || quota != 1)
			return -EINVAL;
		unlimited = true;
	} else if (cgroup_parse_u64(&q, &quota) < 0 || quota == 0) {
		return -EINVAL;
	}
	if (!cgroup_parse_rest_blank(q))
		return -EINVAL;
	return cgroup_parse_quota_end(p, unlimited, quota, cpus, period_us);
}

/* ---- cpu.stat ------------------------------------------------------------ */

int cgroup_parse_cpustat(const char *buf, int version, struct cgroup_cpustat *out)
{
	struct cgroup_cpustat s;
	int keys = 0;
	if (version != 1 && version != 2)
		return -EINVAL;
	memset(&s, 0, sizeof(s));
	for (const char *p = buf; *p;) {
		const char *eol = cgroup_parse_eol(p);
		const char *next = *eol ? eol + 1 : eol;
		if (eol == p) {
			p = next;
			continue;
		}
		const char *sp = memchr(p, ' ', (size_t)(eol - p));
		if (!sp || sp == p)
			return -EINVAL;
		const char *v = sp + 1;
		uint64_t val;
		int rc = cgroup_parse_u64(&v, &val);
		if (rc < 0)
			return rc;
		if (v != eol && !(v + 1 == eol && *v == '\r'))
			return -EINVAL;
		size_t kl = (size_t)(sp - p);
#define KEY(k) (kl == sizeof(k) - 1 && memcmp(p, k, kl) == 0)
		if (KEY("nr_periods")) {
			s.has_periods = true;
			s.nr_periods = val;
		} else if (KEY("nr_throttled")) {
			s.nr_throttled = val;
		} else if (version == 2 && KEY("throttled_usec")) {
			s.throttled_s = (double)val / 1e6;
		} else if (version == 1 && KEY("throttled_time")) {
			s.throttled_s = (double)val / 1e9;
		} else if (version == 2 && KEY("usage_usec")) {
			s.usage_s = (double)val / 1e6;
		}
#undef KEY
		keys++;
		p = next;
	}
	if (keys == 0)
		return -EINVAL;
	*out = s;
	return 0;
}

void cgroup_parse_throttle_rate(const struct cgroup_cpustat *prev, const struct cgroup_cpustat *cur,
				double dt, struct throttle_rate *out)
{
	memset(out, 0, sizeof(*out));
	if (!prev->has_periods || !cur->has_periods || !(dt > 0.0))
		return;
	/* Counters only fall when the cgroup was removed and made again. */
	if (cur->nr_periods < prev->nr_periods || cur->nr_throttled < prev->nr_throttled ||
	    cur->throttled_s < prev->throttled_s)
		return;
	uint64_t dp = cur->nr_periods - prev->nr_periods;
	uint64_t dthr = cur->nr_throttled - prev->nr_throttled;
	/* More throttled periods than periods, or throttled time past what
	 * CPUS_MAX CPUs can lose: a counter jumped; drop the sample. */
	if (dthr > dp || (cur->throttled_s - prev->throttled_s) > dt * 4096)
		return;
	out->valid = true;
	out->throttled_pct = dp ? 100.0 * (double)dthr / (double)dp : 0.0;
	out->throttled_s_per_s = (cur->throttled_s - prev->throttled_s) / dt;
}

/* ---- PSI ----------------------------------------------------------------- */

/* Parses " avg10=X avg60=Y avg300=Z total=N" (after "some"/"full"). */
static int psi_parse_fields(const char *p, const char *eol, double avg[3], uint64_t *total)
{
	static const char *const keys[] = {"avg10=", "avg60=", "avg300=", "total="};
	for (int i = 0; i < 4; i++) {
		size_t kl = strlen(keys[i]);
		if (*p != ' ')
			return -EINVAL;
		while (*p == ' ')
			p++;
		if (eol - p < (ptrdiff_t)kl || memcmp(p, keys[i], kl) != 0)
			return -EINVAL;
		p += kl;
		int rc = i < 3 ? cgroup_parse_fixed(&p, &avg[i]) : cgroup_parse_u64(&p, total);
		if (rc < 0)
			return rc;
	}
	while (p < eol && cgroup_parse_isspace(*p))
		p++;
	return p == eol ? 0 : -EINVAL;
}

int cgroup_parse_psi(const char *buf, struct psi *out)
{
	struct psi s;
	bool some = false;
	memset(&s, 0, sizeof(s));
	for (const char *p = buf; *p;) {
		const char *eol = cgroup_parse_eol(p);
		const char *next = *eol ? eol + 1 : eol;
		double avg[3];
		uint64_t total;
		if (eol == p) {
			p = next;
			continue;
		}
		if (strncmp(p, "some", 4) == 0) {
			if (psi_parse_fields(p + 4, eol, avg, &total) < 0)
				return -EINVAL;
			some = true;
			s.some_avg10 = avg[0];
			s.some_avg60 = avg[1];
			s.some_avg300 = avg[2];
			s.some_total_us = total;
		} else if (strncmp(p, "full", 4) == 0) {
			if (psi_parse_fields(p + 4, eol, avg, &total) < 0)
				return -EINVAL;
			s.has_full = true;
			s.full_avg10 = avg[0];
			s.full_total_us = total;
		} else {
			return -EINVAL;
		}
		p = next;
	}
	if (!some)
		return -EINVAL;
	s.available = true;
	*out = s;
	return 0;
}

/* ---- cpu lists ----------------------------------------------------------- */

int cgroup_parse_cpulist_set(const char *buf, uint8_t *set, size_t bytes)
{
	const char *p = buf;
	long count = 0;
	while (cgroup_parse_isspace(*p))
		p++;
	if (*p == '\0')
		return 0;
	for (;;) {
		uint64_t a, b;
		if (cgroup_parse_u64(&p, &a) < 0)
			return -EINVAL;
		b = a;
		if (*p == '-') {
			p++;
			if (cgroup_parse_u64(&p, &b) < 0 || b < a)
				return -EINVAL;
		}
		if (b - a >= 1u << 20 || count + (long)(b - a + 1) > 1L << 20)
			return -EINVAL;
		count += (long)(b - a + 1);
		for (uint64_t c = a; set && c <= b && c < bytes * 8; c++)
			set[c / 8] |= (uint8_t)(1u << (c % 8));
		if (*p == ',') {
			p++;
			continue;
		}
		return cgroup_parse_rest_blank(p) ? (int)count : -EINVAL;
	}
}

int cgroup_parse_cpulist_count(const char *buf)
{
	return cgroup_parse_cpulist_set(buf, NULL, 0);
}
