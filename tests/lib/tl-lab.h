/* tl-lab.h — starting the lab in tests that drive it through lab.h. */
#ifndef THREADLAB_TL_LAB_H
#define THREADLAB_TL_LAB_H

#include "tl-test.h"

#include "settings-lab.h"

#include "lab.h"
#include "lab-status.h"

/* Teardown on every path: every lab tl_lab_start gave out is remembered
 * until lab_stop (the macro below) stops it, so a test that fails between
 * the two leaves nothing running into the next test: tl_lab_teardown
 * (a cmocka teardown) and exit stop what is left. */
#define TL_LABS_MAX 8
static struct lab *tl_labs[TL_LABS_MAX];

static inline void tl_lab_stop(struct lab *lab)
{
	for (int i = 0; i < TL_LABS_MAX; i++)
		if (tl_labs[i] == lab)
			tl_labs[i] = NULL;
	(lab_stop)(lab);
}
#define lab_stop(lab) tl_lab_stop(lab)

static inline int tl_lab_teardown(void **state)
{
	(void)state;
	for (int i = 0; i < TL_LABS_MAX; i++)
		if (tl_labs[i]) {
			printf("# teardown: stopping a lab the test left running\n");
			tl_lab_stop(tl_labs[i]);
		}
	return 0;
}

static inline void tl_lab_atexit(void)
{
	tl_lab_teardown(NULL);
}

static inline void tl_lab_remember(struct lab *lab)
{
	static bool registered;
	if (!registered)
		registered = atexit(tl_lab_atexit) == 0;
	for (int i = 0; i < TL_LABS_MAX; i++)
		if (!tl_labs[i]) {
			tl_labs[i] = lab;
			return;
		}
}

/* Starts a lab with s and waits until it runs; fails the test otherwise. */
static inline struct lab *tl_lab_start(struct lab_settings s)
{
	char err[512];
	struct lab *lab = lab_start(&s, err, sizeof(err));
	if (lab)
		tl_lab_remember(lab);
	if (!lab)
		fail_msg("lab_start: %s", err);
	if (lab_status_wait_ready(lab, 10000, err, sizeof(err)) < 0) {
		lab_stop(lab);
		fail_msg("lab_status_wait_ready: %s", err);
	}
	return lab;
}

/* The default settings at n = 256: quick GEMMs, a quick reference. */
static inline struct lab_settings tl_lab_small(void)
{
	struct lab_settings s = settings_lab_defaults();
	s.size = 256;
	return s;
}

#endif
