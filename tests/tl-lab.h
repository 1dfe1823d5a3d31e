/* tl-lab.h — starting the lab in tests that drive it through lab.h. */
#ifndef THREADLAB_TL_LAB_H
#define THREADLAB_TL_LAB_H

#include "tl-test.h"

#include "lab.h"

/* Starts a lab with s and waits until it runs; fails the test otherwise. */
static inline struct lab *tl_lab_start(struct lab_settings s)
{
	char err[512];
	struct lab *lab = lab_start(&s, err, sizeof(err));
	if (!lab)
		fail_msg("lab_start: %s", err);
	if (lab_wait_ready(lab, 10000, err, sizeof(err)) < 0) {
		lab_stop(lab);
		fail_msg("lab_wait_ready: %s", err);
	}
	return lab;
}

/* The default settings at n = 256: quick GEMMs, a quick reference. */
static inline struct lab_settings tl_lab_small(void)
{
	struct lab_settings s = lab_settings_default();
	s.size = 256;
	return s;
}

#endif
