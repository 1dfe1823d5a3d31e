/* pattern-cost.c — what glibc's regcomp/regexec cost for the expressions
 * threadlab accepts at its limits (monitor/pattern-cost.h), and which it
 * refuses.  Prints figures, asserts nothing.
 *
 *   bench/pattern-cost [LINES]
 *
 * For each expression: the time to compile, the first 511-byte line of
 * random 'a' and 'b' on the fresh expression (glibc builds its automaton
 * as lines need it, so new lines cost most), the mean and the slowest of
 * LINES (default 100) such lines, and one line seen before; threads' CPU
 * time, so other load on the machine counts little.  Then one 8 KiB
 * command line, as --match sees it. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pattern-cost.h"
#include "pattern.h"

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void ab(char *s, size_t n, uint32_t *x)
{
	for (size_t i = 0; i < n; i++) {
		*x ^= *x << 13;
		*x ^= *x >> 17;
		*x ^= *x << 5;
		s[i] = (*x >> 7) & 1 ? 'a' : 'b';
	}
}

static void row(const char *re, int lines)
{
	char err[512], line[512] = "";
	struct pattern_span m[PATTERN_GROUPS_MAX + 1];
	struct pattern_cost c;
	if (pattern_cost_check(re, &c, err, sizeof(err)) < 0) {
		printf("%-26s refused: %s\n", re, err);
		return;
	}
	double t0 = cpu_s();
	struct pattern *p = pattern_compile("--progress", re, err, sizeof(err));
	double comp = cpu_s() - t0;
	if (!p) {
		printf("%-26s %s\n", re, err);
		return;
	}
	uint32_t x = 2654435761u;
	double first = 0, sum = 0, worst = 0;
	for (int i = 0; i < lines; i++) {
		ab(line, sizeof(line) - 1, &x);
		t0 = cpu_s();
		pattern_match(p, line, sizeof(line) - 1, m, PATTERN_GROUPS_MAX + 1);
		double t = cpu_s() - t0;
		first = i == 0 ? t : first;
		sum += t;
		worst = t > worst ? t : worst;
	}
	t0 = cpu_s();
	pattern_match(p, line, sizeof(line) - 1, m, PATTERN_GROUPS_MAX + 1);
	double again = cpu_s() - t0;
	printf("%-26s %5ld %6ld %5ld %9.1f %9.1f %9.2f %9.1f %9.2f\n", re, c.nodes, c.repeat,
	       c.empty_loops, comp * 1e3, first * 1e3, sum / lines * 1e3, worst * 1e3, again * 1e3);
	pattern_free(p);
}

int main(int argc, char **argv)
{
	int lines = argc > 1 ? atoi(argv[1]) : 100;
	if (lines < 1)
		lines = 1;
	static const char *const accepted[] = {
	    "step ([0-9]+)", "([0-9.]+)it/s",	     "(.{1,190}a){1,5}x", "(.{1,10}.{1,10}){1,45}x",
	    ".{1,999}x",     "(a?a?a?a?a?){1,150}b", "(a*b*c*d*){1,110}", "((a*)+){1,50}b",
	    "(.*a){1,300}x", "((a|b)(a|b)){1,150}x",
	};
	static const char *const refused[] = {
	    "(a*)*\\1b",
	    "(a{1,255}){1,255}b",
	    "((a*)*){1,1000}b",
	    "(a|ab|ba|b){1,200}x",
	};
	printf("%d lines of 511 random bytes a and b each; ms of CPU time\n", lines);
	printf("%-26s %5s %6s %5s %9s %9s %9s %9s %9s\n", "expression", "nodes", "repeat", "loops",
	       "compile", "first", "mean", "slowest", "seen");
	for (size_t i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++)
		row(accepted[i], lines);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		row(refused[i], lines);

	/* --match: one command line of 8 KiB */
	char err[512];
	static char cmd[8193];
	uint32_t x = 2654435761u;
	ab(cmd, sizeof(cmd) - 1, &x);
	struct pattern *p = pattern_compile("--match", "(.{1,190}a){1,5}x", err, sizeof(err));
	double t0 = cpu_s();
	pattern_match(p, cmd, sizeof(cmd) - 1, NULL, 0);
	printf("--match '(.{1,190}a){1,5}x' on one 8 KiB command line: %.0f ms\n",
	       (cpu_s() - t0) * 1e3);
	pattern_free(p);
	return 0;
}
