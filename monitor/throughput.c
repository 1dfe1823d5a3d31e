/* throughput.c — GFLOP/s arithmetic; see throughput.h. */
#include "throughput.h"

#include <errno.h>
#include <math.h>
#include <string.h>

void throughput_ewma_init(struct throughput_ewma *e, double tau_s)
{
	e->tau_s = tau_s > 0 ? tau_s : 1.0;
	e->gflops = 0;
	e->primed = 0;
}

double throughput_ewma_update(struct throughput_ewma *e, uint64_t dflops, double dt_s)
{
	if (dt_s <= 0)
		return e->gflops;
	double rate = throughput_gflops(dflops, dt_s);
	if (!e->primed) {
		e->gflops = rate;
		e->primed = 1;
		return e->gflops;
	}
	double alpha = 1.0 - exp(-dt_s / e->tau_s);
	e->gflops += alpha * (rate - e->gflops);
	return e->gflops;
}

void throughput_steady_init(struct throughput_steady *s, double warmup_s)
{
	memset(s, 0, sizeof(*s));
	s->warmup_s = warmup_s > 0 ? warmup_s : 0;
}

static void steady_restart(struct throughput_steady *s, double t_s, uint64_t epoch, uint64_t flops)
{
	s->epoch = epoch;
	s->state = 1;
	s->t_change = t_s;
	s->t0 = s->t_last = t_s;
	s->flops0 = s->flops_last = flops;
}

void throughput_steady_update(struct throughput_steady *s, double t_s, uint64_t applied_epoch,
			      uint64_t flops)
{
	if (s->state == 0 || applied_epoch != s->epoch || flops < s->flops_prev)
		steady_restart(s, t_s, applied_epoch, flops);
	s->flops_prev = flops;
	if (s->state == 1) {
		if (t_s - s->t_change < s->warmup_s)
			return;
		/* Warm-up over: the window starts at this sample. */
		s->state = 2;
		s->t0 = t_s;
		s->flops0 = flops;
	}
	s->t_last = t_s;
	s->flops_last = flops;
}

double throughput_steady_seconds(const struct throughput_steady *s)
{
	return s->state == 2 ? s->t_last - s->t0 : 0;
}

int throughput_steady_gflops(const struct throughput_steady *s, double min_window_s, double *gflops)
{
	double secs = throughput_steady_seconds(s);
	if (s->state != 2 || secs <= 0 || secs < min_window_s)
		return -EAGAIN;
	*gflops = throughput_gflops(s->flops_last - s->flops0, secs);
	return 0;
}

double throughput_ideal(double single_gflops, double threads, double effective_cpus)
{
	return single_gflops * fmin(threads, effective_cpus);
}

double throughput_ceiling(double single_gflops, double effective_cpus)
{
	return single_gflops * effective_cpus;
}

double throughput_efficiency(double gflops, double ideal_gflops)
{
	return ideal_gflops > 0 ? gflops / ideal_gflops : 0;
}

double throughput_ceiling_pct(double gflops, double ceiling_gflops)
{
	return ceiling_gflops > 0 ? 100.0 * gflops / ceiling_gflops : 0;
}

double throughput_speedup(double gflops, double single_gflops)
{
	return single_gflops > 0 ? gflops / single_gflops : 0;
}

double throughput_gflops(uint64_t dflops, double dt_s)
{
	return dt_s > 0 ? (double)dflops / dt_s / 1e9 : 0;
}

uint64_t throughput_delta(uint64_t before, uint64_t after)
{
	return after >= before ? after - before : 0;
}
