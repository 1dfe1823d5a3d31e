// pattern.cc — bounded-cost regular expressions over RE2 (pattern.h).
#include "config.h"

#include "pattern.h"

#include <re2/re2.h>

#include <cstdio>
#include <new>
#include <string>

struct pattern {
	re2::RE2 re;
	explicit pattern(const std::string &s, const re2::RE2::Options &o) : re(s, o)
	{
	}
};

static re2::RE2::Options pattern_options()
{
	re2::RE2::Options o;
	o.set_posix_syntax(true);
	o.set_longest_match(true);
	o.set_perl_classes(true);
	o.set_word_boundary(true);
	o.set_log_errors(false);
	return o;
}

extern "C" struct pattern *pattern_compile(const char *opt, const char *re, char *err,
					   size_t errlen)
{
	pattern *p = new (std::nothrow) pattern(re, pattern_options());
	if (!p) {
		snprintf(err, errlen, "%s '%s': out of memory", opt, re);
		return nullptr;
	}
	if (p->re.ok())
		return p;
	const std::string &arg = p->re.error_arg();
	const char *why = "";
	if (p->re.error_code() == re2::RE2::ErrorBadEscape && arg.size() == 2 && arg[1] >= '1' &&
	    arg[1] <= '9')
		why = " (backreferences are not supported: their cost per line has no bound)";
	else if (p->re.error_code() == re2::RE2::ErrorPatternTooLarge ||
		 p->re.error_code() == re2::RE2::ErrorRepeatSize)
		why = " (its cost per line would be too high)";
	snprintf(err, errlen, "%s '%s': %s%s", opt, re, p->re.error().c_str(), why);
	delete p;
	return nullptr;
}

extern "C" int pattern_groups(const struct pattern *p)
{
	return p->re.NumberOfCapturingGroups();
}

extern "C" bool pattern_match(const struct pattern *p, const char *text, size_t len,
			      struct pattern_span *m, size_t n)
{
	re2::StringPiece sp[PATTERN_GROUPS_MAX + 1];
	if (n > PATTERN_GROUPS_MAX + 1)
		n = PATTERN_GROUPS_MAX + 1;
	re2::StringPiece in(text, len);
	if (!p->re.Match(in, 0, len, re2::RE2::UNANCHORED, sp, (int)n))
		return false;
	for (size_t i = 0; i < n; i++) {
		bool took_part = sp[i].data() != nullptr;
		m[i].so = took_part ? (long)(sp[i].data() - text) : -1;
		m[i].eo = took_part ? m[i].so + (long)sp[i].size() : -1;
	}
	return true;
}

extern "C" void pattern_free(struct pattern *p)
{
	delete p;
}
