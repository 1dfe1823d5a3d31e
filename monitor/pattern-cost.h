/* pattern-cost.h — what an expression would cost glibc, judged from its text.
 *
 * glibc's regcomp/regexec (POSIX, the one engine threadlab matches with)
 * backtracks on a backreference and copies a counted repetition out in
 * full, so '(a*)*\1b' took 6 s and '(a{1,255}){1,255}b' (65,025 copies of
 * 'a') 11.7 s on one 511-byte line, and '((a*)*){1,1000}b' did not finish
 * compiling in 2 minutes.  pattern_cost_check() refuses those before
 * regcomp sees them: any backreference, counts that multiply past
 * PATTERN_REPEAT_MAX when nested, and an expression that copies out past
 * PATTERN_NODES_MAX nodes.  What it accepts still costs up to about 2 ms
 * a line, more for the first lines (docs/tuning.md, "The job's progress
 * rate"), so lines are matched off the sampling thread (progress-match.h). */
#ifndef THREADLAB_PATTERN_COST_H
#define THREADLAB_PATTERN_COST_H

#include <stddef.h>

/* Nested repetition counts may multiply to this much: the product of the
 * counts around one atom ((a{1,255}){1,255} is 65025). */
#define PATTERN_REPEAT_MAX 1000
/* Nodes the expression may copy out to: an atom, a group's two ends, an
 * operator each count one, times the counts around them. */
#define PATTERN_NODES_MAX 2000
/* Copies of a loop over what can match nothing ((a*)+, (a?)*, (a|)*):
 * glibc's compile time grows with about the cube of their number. */
#define PATTERN_EMPTY_LOOPS_MAX 50

struct pattern_cost {
	long nodes;	  /* the nodes it copies out to (what regcomp builds) */
	long repeat;	  /* the largest product of nested counts; 1 none */
	long empty_loops; /* copies of a loop over what can match nothing */
};

/* Judges re, an extended regular expression in glibc's syntax (bracket
 * expressions, where '\' and '(' are plain; GNU's \w \s \b and the like;
 * {m}, {m,}, {,n}, {m,n}).  Returns 0 with *cost filled, or -EINVAL with a
 * reason in why that names the construct ("backreferences are not
 * supported: the cost of \1 ...", "{1,255} over {1,255} repeats 65025
 * times ...").  Text
 * regcomp would refuse anyway (an unbalanced bracket, a bad count) is left
 * to it.  Pure. */
int pattern_cost_check(const char *re, struct pattern_cost *cost, char *why, size_t whylen);

/* The length of the bracket expression at s (s[0] == '['), its closing ']'
 * included; 0 when it has none (regcomp refuses that). */
size_t pattern_cost_bracket(const char *s);

#endif
