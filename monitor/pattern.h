/* pattern.h — the regular expressions of --progress and --match.
 *
 * POSIX extended syntax, compiled and matched by glibc's regcomp/regexec
 * (leftmost-longest, GNU's \w \s \b \< \> too, and \d \D spelled as
 * [0-9] [^0-9]), byte by byte: the C locale's rules, whatever the
 * terminal's, so a job's bytes need not be UTF-8 and [[:alpha:]] is
 * ASCII.  glibc's cost is not linear: an expression pattern_cost_check()
 * refuses (a backreference, repetitions too large) is refused here with
 * its reason, and what it accepts may still take a second on one line, so
 * the job's lines are matched off the sampling thread (matcher.h). */
#ifndef THREADLAB_PATTERN_H
#define THREADLAB_PATTERN_H

#include <stdbool.h>
#include <stddef.h>

#define PATTERN_GROUPS_MAX 9 /* groups a match reports */

struct pattern;

/* One group of a match: bytes [so, eo) of the text; so < 0 when the group
 * did not take part. */
struct pattern_span {
	long so, eo;
};

/* Compiles re.  Returns NULL with "OPT 'RE': why" in err (why names a
 * backreference or the repetition too large as such, or is regerror's).
 * The caller frees it with pattern_free(). */
struct pattern *pattern_compile(const char *opt, const char *re, char *err, size_t errlen);

/* Capturing groups in the expression. */
int pattern_groups(const struct pattern *p);

/* Whether text (len bytes, a NUL after them: sanitizers' regexec reads up
 * to it) contains a match.
 * With n > 0, the whole match and the first n - 1 groups go to m[0..n).
 * One pattern is used by one thread at a time. */
bool pattern_match(const struct pattern *p, const char *text, size_t len, struct pattern_span *m,
		   size_t n);

void pattern_free(struct pattern *p);

#endif
