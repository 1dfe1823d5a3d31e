/* pattern-cost.c — an expression's cost from its text (pattern-cost.h).
 *
 * One pass over the text, with a stack of open groups.  Each item (an
 * atom, a bracket expression, a closed group) carries the nodes it copies
 * out to and the product of the counts nested in it; a repetition
 * multiplies both, and refuses at once when either passes its limit, so
 * no product overflows.  The node count follows how glibc builds its
 * tree (an atom, a group's open and close, each operator one node; a
 * repetition {m,n} copies its operand n times), closely enough that
 * compile and match times grow with it. */
#include "pattern-cost.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define PATTERN_DEPTH_MAX 64	 /* groups open at once (regcomp parses by recursion) */
#define PATTERN_COUNT_CAP 100000 /* counts are read up to this (RE_DUP_MAX is 32767) */
#define PATTERN_QUOTE	  40	 /* bytes of a construct quoted in a reason */

struct pattern_item {
	long nodes, repeat;
	long empty_loops;  /* copies of a loop over what can match nothing */
	bool nullable;	   /* can match the empty string */
	const char *start; /* where it begins in the text */
	const char *q;	   /* the repetition that gave repeat, or NULL */
	int qlen;
};

struct pattern_frame {
	long nodes, repeat, empty_loops; /* the items folded in so far */
	bool alt_nullable;		 /* the alternative being read, so far */
	bool nullable;			 /* an alternative before it */
	const char *q;
	int qlen;
	const char *open; /* its '(' */
	struct pattern_item last;
	bool have_last;
};

size_t pattern_cost_bracket(const char *s)
{
	size_t i = 1;
	if (s[i] == '^')
		i++;
	if (s[i] == ']')
		i++; /* first: a plain ']' */
	for (;;) {
		if (s[i] == '\0')
			return 0;
		if (s[i] == '[' && (s[i + 1] == ':' || s[i + 1] == '.' || s[i + 1] == '=')) {
			char end[3] = {s[i + 1], ']', '\0'};
			const char *e = strstr(s + i + 2, end);
			if (!e)
				return 0;
			i = (size_t)(e - s) + 2;
			continue;
		}
		if (s[i] == ']')
			return i + 1;
		i++;
	}
}

/* The item before the next one becomes part of its frame. */
static void pattern_fold(struct pattern_frame *f)
{
	if (!f->have_last)
		return;
	f->nodes += f->last.nodes;
	f->empty_loops += f->last.empty_loops;
	f->alt_nullable = f->alt_nullable && f->last.nullable;
	if (f->last.repeat > f->repeat) {
		f->repeat = f->last.repeat;
		f->q = f->last.q;
		f->qlen = f->last.qlen;
	}
	f->have_last = false;
}

/* An atom; zero_width for an anchor (^, $, \b and the like). */
static void pattern_atom(struct pattern_frame *f, const char *at, bool zero_width)
{
	pattern_fold(f);
	f->last =
	    (struct pattern_item){.nodes = 1, .repeat = 1, .start = at, .nullable = zero_width};
	f->have_last = true;
}

static void pattern_frame_open(struct pattern_frame *f, const char *open)
{
	*f = (struct pattern_frame){.repeat = 1, .open = open, .alt_nullable = true};
}

/* Reads {m}, {m,}, {,n}, {m,n} at s; its length, or 0 when s is not one. */
static size_t pattern_interval(const char *s, long *count, long *copies, bool *loop, bool *optional)
{
	long m = 0, n = 0;
	size_t i = 1;
	while (s[i] >= '0' && s[i] <= '9') {
		m = m < PATTERN_COUNT_CAP ? m * 10 + (s[i] - '0') : m;
		i++;
	}
	bool unbounded = false;
	if (s[i] == ',') {
		i++;
		size_t from = i;
		while (s[i] >= '0' && s[i] <= '9') {
			n = n < PATTERN_COUNT_CAP ? n * 10 + (s[i] - '0') : n;
			i++;
		}
		unbounded = i == from;
	} else {
		if (i == 1)
			return 0; /* "{}" or "{x": not a count */
		n = m;
	}
	if (s[i] != '}')
		return 0;
	/* {m,} is m copies and a star; {m,n} n copies, all but m optional */
	*count = unbounded ? (m > 1 ? m : 1) : (n > 1 ? n : 1);
	*copies = unbounded ? m + 1 : (n > 1 ? n : 1);
	*loop = unbounded;
	*optional = m == 0;
	return i + 1;
}

static void pattern_quote(char *out, size_t cap, const char *s, size_t len)
{
	if (len > PATTERN_QUOTE)
		snprintf(out, cap, "%.*s...", PATTERN_QUOTE, s);
	else
		snprintf(out, cap, "%.*s", (int)len, s);
}

/* The repetition q (qlen bytes: *, +, ?, {m,n}) applied to f's last item:
 * count is what it multiplies nested counts by, copies the copies of the
 * operand it makes, loop whether it repeats without bound, optional
 * whether it can match nothing.  Refuses at once past a limit. */
static int pattern_repeat(struct pattern_frame *f, const char *q, int qlen, long count, long copies,
			  bool loop, bool optional, char *why, size_t whylen)
{
	struct pattern_item *it = &f->last;
	char what[PATTERN_QUOTE + 8];
	pattern_quote(what, sizeof(what), it->start, (size_t)(q + qlen - it->start));
	long repeat = it->repeat * count;
	if (repeat > PATTERN_REPEAT_MAX) {
		if (it->q)
			snprintf(why, whylen,
				 "%.*s over %.*s repeats %ld times, past %d: nested repetitions "
				 "that large make the cost per line too high",
				 qlen, q, it->qlen, it->q, repeat, PATTERN_REPEAT_MAX);
		else
			snprintf(why, whylen,
				 "%.*s repeats %ld times, past %d: the cost per line would be too "
				 "high",
				 qlen, q, repeat, PATTERN_REPEAT_MAX);
		return -EINVAL;
	}
	long nodes = it->nodes * copies + copies;
	if (nodes > PATTERN_NODES_MAX) {
		snprintf(why, whylen,
			 "%s copies out to %ld nodes, past %d: the cost per line would be too high",
			 what, nodes, PATTERN_NODES_MAX);
		return -EINVAL;
	}
	long empty_loops = (it->empty_loops + (loop && it->nullable)) * copies;
	if (empty_loops > PATTERN_EMPTY_LOOPS_MAX) {
		snprintf(why, whylen,
			 "%s holds %ld loops over what can match nothing (such as (a*)+), past %d: "
			 "compiling it would take too long",
			 what, empty_loops, PATTERN_EMPTY_LOOPS_MAX);
		return -EINVAL;
	}
	it->nodes = nodes;
	it->empty_loops = empty_loops;
	it->nullable = it->nullable || optional;
	if (count > 1) {
		it->repeat = repeat;
		it->q = q;
		it->qlen = qlen;
	}
	return 0;
}

/* The first backreference in re ('1'..'9'), or 0. */
static char pattern_backref(const char *re)
{
	size_t i = 0;
	while (re[i]) {
		if (re[i] == '\\') {
			if (re[i + 1] >= '1' && re[i + 1] <= '9')
				return re[i + 1];
			i += re[i + 1] ? 2 : 1;
		} else if (re[i] == '[') {
			size_t n = pattern_cost_bracket(re + i);
			i += n ? n : strlen(re + i);
		} else {
			i++;
		}
	}
	return 0;
}

/* Whether the escape \c matches nothing but a place (GNU's anchors). */
static bool pattern_zero_width(char c)
{
	return c && strchr("bB<>`'", c) != NULL;
}

int pattern_cost_check(const char *re, struct pattern_cost *cost, char *why, size_t whylen)
{
	char ref = pattern_backref(re);
	if (ref) {
		snprintf(why, whylen,
			 "backreferences are not supported: the cost of \\%c per line has no bound",
			 ref);
		return -EINVAL;
	}
	struct pattern_frame stack[PATTERN_DEPTH_MAX + 1];
	int depth = 0;
	struct pattern_frame *f = &stack[0];
	pattern_frame_open(f, re);
	size_t i = 0;
	while (re[i]) {
		const char *at = re + i;
		long count, copies;
		bool loop, optional;
		size_t n;
		int rc = 0;
		switch (re[i]) {
		case '\\':
			pattern_atom(f, at, pattern_zero_width(re[i + 1]));
			i += re[i + 1] ? 2 : 1;
			break;
		case '[':
			n = pattern_cost_bracket(at);
			pattern_atom(f, at, false);
			i += n ? n : strlen(at); /* unterminated: regcomp says so */
			break;
		case '^':
		case '$':
			pattern_atom(f, at, true);
			i++;
			break;
		case '(':
			if (depth == PATTERN_DEPTH_MAX) {
				snprintf(why, whylen,
					 "groups nested past %d deep are not supported",
					 PATTERN_DEPTH_MAX);
				return -EINVAL;
			}
			pattern_fold(f);
			f = &stack[++depth];
			pattern_frame_open(f, at);
			i++;
			break;
		case ')':
			if (depth == 0) {
				pattern_atom(f, at, false); /* glibc takes a lone ')' as itself */
				i++;
				break;
			}
			pattern_fold(f);
			struct pattern_item g = {.nodes = f->nodes + 2,
						 .repeat = f->repeat,
						 .empty_loops = f->empty_loops,
						 .nullable = f->nullable || f->alt_nullable,
						 .start = f->open,
						 .q = f->q,
						 .qlen = f->qlen};
			f = &stack[--depth];
			pattern_fold(f);
			f->last = g;
			f->have_last = true;
			i++;
			break;
		case '|':
			pattern_fold(f);
			f->nodes++;
			f->nullable = f->nullable || f->alt_nullable;
			f->alt_nullable = true;
			i++;
			break;
		case '*':
		case '+':
		case '?':
			if (f->have_last)
				rc = pattern_repeat(f, at, 1, 1, 1, re[i] != '?', re[i] != '+', why,
						    whylen);
			i++;
			break;
		case '{':
			n = pattern_interval(at, &count, &copies, &loop, &optional);
			if (n == 0 || !f->have_last) {
				pattern_atom(f, at, false);
				i++;
				break;
			}
			rc = pattern_repeat(f, at, (int)n, count, copies, loop, optional, why,
					    whylen);
			i += n;
			break;
		default:
			pattern_atom(f, at, false);
			i++;
			break;
		}
		if (rc < 0)
			return rc;
	}
	/* Groups left open (regcomp refuses them) are summed all the same. */
	for (;;) {
		pattern_fold(f);
		if (depth == 0)
			break;
		long nodes = f->nodes + 2, repeat = f->repeat, empty_loops = f->empty_loops;
		f = &stack[--depth];
		f->nodes += nodes;
		f->empty_loops += empty_loops;
		f->repeat = repeat > f->repeat ? repeat : f->repeat;
	}
	if (f->nodes > PATTERN_NODES_MAX) {
		snprintf(why, whylen,
			 "the expression copies out to %ld nodes, past %d: the cost per line would "
			 "be too high",
			 f->nodes, PATTERN_NODES_MAX);
		return -EINVAL;
	}
	if (f->empty_loops > PATTERN_EMPTY_LOOPS_MAX) {
		snprintf(why, whylen,
			 "the expression holds %ld loops over what can match nothing (such as "
			 "(a*)+), past %d: compiling it would take too long",
			 f->empty_loops, PATTERN_EMPTY_LOOPS_MAX);
		return -EINVAL;
	}
	cost->nodes = f->nodes;
	cost->repeat = f->repeat;
	cost->empty_loops = f->empty_loops;
	return 0;
}
