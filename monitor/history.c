/* history.c — a ring of the demand figures (history.h). */
#include "config.h"

#include "history.h"

#include <string.h>

void history_init(struct history *h)
{
	memset(h, 0, sizeof(*h));
}

void history_push(struct history *h, double runnable, double cpu, double wait, double throttled,
		  double effective)
{
	double x[HISTORY_N] = {runnable, cpu, wait, throttled};
	if (h->n == HISTORY_POINTS) {
		for (int s = 0; s < HISTORY_N; s++)
			memmove(h->v[s], h->v[s] + 1, sizeof(h->v[s][0]) * (HISTORY_POINTS - 1));
		h->n--;
	}
	for (int s = 0; s < HISTORY_N; s++)
		h->v[s][h->n] = x[s];
	h->n++;
	h->effective = effective;
}

double history_last(const struct history *h, enum history_series s)
{
	return h->n ? h->v[s][h->n - 1] : 0;
}
