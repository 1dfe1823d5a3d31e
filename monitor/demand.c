/* demand.c — the oversubscription factor (demand.h). */
#include "config.h"

#include "demand.h"

double demand_factor(double runnable, double effective)
{
	return effective > 0 ? runnable / effective : 0;
}

bool demand_oversubscribed(double factor)
{
	return factor > 1.0 + 1e-9;
}
