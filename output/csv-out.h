/* csv-out.h — the one CSV writer: batch samples and sweep tables.
 *
 * A row is built field by field; the writer puts the commas in and ends
 * the row with a newline.  Text fields are raw bytes made safe as
 * text_safe() does (a CSV file is read in terminals and spreadsheets), a
 * leading = + - @ is prefixed with ' (no spreadsheet formula), and a field
 * holding a comma, quote or space is quoted with '"' (inner quotes
 * doubled).  A number that is not finite is an empty field. */
#ifndef THREADLAB_CSV_OUT_H
#define THREADLAB_CSV_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct csv_out {
	FILE *f;
	int fields; /* in the current row */
};

void csv_out_init(struct csv_out *c, FILE *f);
void csv_out_bytes(struct csv_out *c, const char *bytes, size_t len);
void csv_out_str(struct csv_out *c, const char *s); /* NULL: empty */
void csv_out_num(struct csv_out *c, double v, int decimals);
void csv_out_sig(struct csv_out *c, double v, int digits);
void csv_out_int(struct csv_out *c, long long v);
void csv_out_empty(struct csv_out *c);
void csv_out_end_row(struct csv_out *c);
/* A header row from a comma-separated list of column names. */
void csv_out_header(struct csv_out *c, const char *names);
/* A line starting with '#' (a comment most CSV readers skip), made safe. */
void csv_out_comment(struct csv_out *c, const char *text);

#endif
