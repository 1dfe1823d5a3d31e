/* pattern.c — POSIX regular expressions of bounded cost (pattern.h). */
#include "config.h"

#include "pattern.h"

#include <locale.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern-cost.h"
#include "xalloc.h"

struct pattern {
	regex_t re;
};

static locale_t pattern_c;
static pthread_once_t pattern_c_once = PTHREAD_ONCE_INIT;

static void pattern_c_init(void)
{
	/* glibc's "C" locale object is static: nothing to free */
	pattern_c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

/* The C locale for this thread, the previous one returned. */
static locale_t pattern_locale_enter(void)
{
	pthread_once(&pattern_c_once, pattern_c_init);
	return pattern_c ? uselocale(pattern_c) : (locale_t)0;
}

static void pattern_locale_leave(locale_t old)
{
	if (old)
		uselocale(old);
}

/* re with \d and \D outside bracket expressions spelled as glibc knows
 * them; allocated. */
static char *pattern_spell(const char *re)
{
	size_t len = strlen(re), o = 0;
	char *out = xmalloc(3 * len + 1);
	for (size_t i = 0; i < len;) {
		size_t n = 1;
		if (re[i] == '\\' && (re[i + 1] == 'd' || re[i + 1] == 'D')) {
			const char *s = re[i + 1] == 'd' ? "[0-9]" : "[^0-9]";
			memcpy(out + o, s, strlen(s));
			o += strlen(s);
			i += 2;
			continue;
		}
		if (re[i] == '\\' && re[i + 1])
			n = 2;
		else if (re[i] == '[')
			n = pattern_cost_bracket(re + i);
		if (n == 0)
			n = len - i; /* an unterminated bracket: regcomp says so */
		memcpy(out + o, re + i, n);
		o += n;
		i += n;
	}
	out[o] = '\0';
	return out;
}

struct pattern *pattern_compile(const char *opt, const char *re, char *err, size_t errlen)
{
	struct pattern_cost cost;
	char why[256];
	if (pattern_cost_check(re, &cost, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s '%s': %s", opt, re, why);
		return NULL;
	}
	struct pattern *p = xcalloc(1, sizeof(*p));
	char *spelled = pattern_spell(re);
	locale_t old = pattern_locale_enter();
	int rc = regcomp(&p->re, spelled, REG_EXTENDED);
	pattern_locale_leave(old);
	free(spelled);
	if (rc != 0) {
		regerror(rc, &p->re, why, sizeof(why));
		snprintf(err, errlen, "%s '%s': %s", opt, re, why);
		free(p);
		return NULL;
	}
	return p;
}

int pattern_groups(const struct pattern *p)
{
	return (int)p->re.re_nsub;
}

bool pattern_match(const struct pattern *p, const char *text, size_t len, struct pattern_span *m,
		   size_t n)
{
	regmatch_t pm[PATTERN_GROUPS_MAX + 1];
	if (n > PATTERN_GROUPS_MAX + 1)
		n = PATTERN_GROUPS_MAX + 1;
	/* REG_STARTEND: glibc needs no strlen; with nmatch 0 it skips
	 * finding the groups' places. */
	pm[0].rm_so = 0;
	pm[0].rm_eo = (regoff_t)len;
	locale_t old = pattern_locale_enter();
	int rc = regexec(&p->re, text, n, pm, REG_STARTEND);
	pattern_locale_leave(old);
	if (rc != 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		m[i].so = pm[i].rm_so;
		m[i].eo = pm[i].rm_so < 0 ? -1 : pm[i].rm_eo;
	}
	return true;
}

void pattern_free(struct pattern *p)
{
	if (!p)
		return;
	regfree(&p->re);
	free(p);
}
