/* ranking-out.h — the machine's ranking (monitor/ranking.h) as text, CSV
 * or JSON Lines: per sample the machine and the processes, ranked
 * (docs/design.md, "The whole machine").
 *
 * JSON: one line per sample, {"time", "machine": {...}, "processes":
 * [{pid, name, cgroup, cgroup_path, threads, runnable_mean, effective_cpus,
 * binding, factor, cpu_pct, wait_pct, throttled_pct, verdict, headline,
 * suggestion}]}; CSV: one row per process with the sample's time and the
 * machine's columns first; text: the machine in a line, then a table.
 * Names and cgroup paths are another process's bytes: escaped in JSON,
 * made safe in CSV and text. */
#ifndef THREADLAB_RANKING_OUT_H
#define THREADLAB_RANKING_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "format.h"
#include "json-out.h"
#include "ranking.h"

/* The rows shown in text when --top is not given: a screenful. */
#define RANKING_OUT_TEXT_TOP 20
/* The offenders (and the starved) --diagnose --all lists without --top. */
#define RANKING_OUT_DIAG_TOP 10

/* Writes k's current ranking at wall time wall (s since the epoch), its
 * first top rows (0: all).  header: the CSV header first. */
void ranking_out(FILE *f, enum format fmt, const struct ranking *k, double wall, size_t top,
		 bool header);

/* The machine object and one process object of the JSON above, for the
 * other writers of the ranking. */
void ranking_out_machine_json(struct json_out *j, const struct rank_machine *m);
void ranking_out_row_json(struct json_out *j, const struct rank_row *r);

/* --diagnose --all: the machine's verdict, then the offenders
 * (ranking_offends) and the starved (ranking_starved), in rank order, the
 * first top of each (0: RANKING_OUT_DIAG_TOP in text, all in JSON), each
 * with its headline (which ends with its suggestion).  JSON: one object
 * {seconds, machine, offenders[], starved[], problem}, the rows as in the
 * batch's processes[]. */
void ranking_out_diagnosis(FILE *f, enum format fmt, const struct ranking *k, size_t top);

#endif
