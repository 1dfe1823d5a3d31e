/* pattern.h — regular expressions whose cost per line is bounded.
 *
 * --progress and --match apply a user's expression to text from other
 * processes (a job's output lines, command lines) on the sampling path,
 * so a match must never take long: glibc's regexec backtracks on
 * backreferences and expands counted repetitions, and one 511-byte line
 * took 6 s for '(a*)*\1b' and 11.7 s for '(a{1,255}){1,255}b' here.  RE2
 * (Debian's libre2) matches in time linear in the text's length with a
 * bounded program: backreferences and repetitions past 1000 are refused
 * when compiled, with a clear message.  The syntax is POSIX egrep's with
 * leftmost-longest matching, as before, plus the GNU classes \d \s \w and
 * \b that glibc also accepted. */
#ifndef THREADLAB_PATTERN_H
#define THREADLAB_PATTERN_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PATTERN_GROUPS_MAX 9 /* groups a match reports */

struct pattern;

/* One group of a match: bytes [so, eo) of the text; so < 0 when the group
 * did not take part. */
struct pattern_span {
	long so, eo;
};

/* Compiles re.  Returns NULL with "OPT 'RE': why" in err (why names a
 * backreference or a pattern too large for a bounded cost as such).  The
 * caller frees it with pattern_free(). */
struct pattern *pattern_compile(const char *opt, const char *re, char *err, size_t errlen);

/* Capturing groups in the expression. */
int pattern_groups(const struct pattern *p);

/* Whether text (len bytes, any bytes) contains a match.  With n > 0, the
 * whole match and the first n - 1 groups go to m[0..n). */
bool pattern_match(const struct pattern *p, const char *text, size_t len, struct pattern_span *m,
		   size_t n);

void pattern_free(struct pattern *p);

#ifdef __cplusplus
}
#endif

#endif
