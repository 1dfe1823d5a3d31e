/* metrics-expo.h — the exposition's primitives (metrics-expo.c), for
 * metrics.c and the files that write some of its families; not for other
 * files (they use metrics.h).  A writer names the family
 * (metrics_expo_family), starts a sample (metrics_expo_sample), adds labels
 * and ends with its value; the family's # HELP and # TYPE go out with its
 * first sample. */
#ifndef THREADLAB_METRICS_EXPO_H
#define THREADLAB_METRICS_EXPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "metrics.h"

enum family_type { FAMILY_GAUGE, FAMILY_COUNTER, FAMILY_INFO, FAMILY_HISTOGRAM };

struct family {
	const char *name; /* without _total or _info */
	enum family_type type;
	const char *help; /* plain ASCII: no backslash, quote or newline */
};

struct metrics_ctx {
	FILE *out;  /* the exposition */
	FILE *f;    /* the sample line being written: out gets it whole, or not */
	char *line; /* f's buffer (open_memstream) */
	size_t line_len;
	enum metrics_format fmt;
	const struct family *fam;
	bool started; /* fam's HELP and TYPE are out */
	bool labels;  /* the sample line's "{" is out */
};

/* Opens c to write an exposition to f: 0, or -ENOMEM. */
int metrics_expo_begin(struct metrics_ctx *c, FILE *f, enum metrics_format fmt);
/* Ends it ("# EOF" in OpenMetrics) and frees c's line buffer: 0, or -EIO
 * when a write failed. */
int metrics_expo_end(struct metrics_ctx *c);

void metrics_expo_family(struct metrics_ctx *c, const struct family *fam);
/* Starts a sample line named after the family (with _total, _info as the
 * format wants); metrics_expo_sample_as with the suffix given ("_bucket"). */
void metrics_expo_sample(struct metrics_ctx *c);
void metrics_expo_sample_as(struct metrics_ctx *c, const char *suffix);
void metrics_expo_label(struct metrics_ctx *c, const char *name, const char *v, size_t len);
/* Whether two label values read the same once written: a control byte is
 * written as the text \xNN, which a name may hold literally too. */
bool metrics_expo_label_same(const char *a, size_t alen, const char *b, size_t blen);
void metrics_expo_label_str(struct metrics_ctx *c, const char *name, const char *v);
void metrics_expo_label_int(struct metrics_ctx *c, const char *name, long v);
/* Ends the labels and writes the value (a value that is not a finite
 * number, or a negative counter, leaves its sample out). */
void metrics_expo_value(struct metrics_ctx *c, double v);
void metrics_expo_uint(struct metrics_ctx *c, unsigned long long v);

#endif
