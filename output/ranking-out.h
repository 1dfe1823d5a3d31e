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
#include "ranking.h"

/* The rows shown in text when --top is not given: a screenful. */
#define RANKING_OUT_TEXT_TOP 20

/* Writes k's current ranking at wall time wall (s since the epoch), its
 * first top rows (0: all).  header: the CSV header first. */
void ranking_out(FILE *f, enum format fmt, const struct ranking *k, double wall, size_t top,
		 bool header);

#endif
