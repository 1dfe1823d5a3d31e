/* tl-dash.h — test helpers for the dashboard's text (tui/text-safe.h). */
#ifndef THREADLAB_TL_DASH_H
#define THREADLAB_TL_DASH_H

#include <locale.h>

#include "text-safe.h"

/* Group setup: a UTF-8 locale (C.UTF-8, or C.utf8 where it is spelled so)
 * and text_safe_init() for it. */
static inline int tl_setup_utf8(void **state)
{
	(void)state;
	if (!setlocale(LC_ALL, "C.UTF-8"))
		setlocale(LC_ALL, "C.utf8");
	text_safe_init();
	return 0;
}

#endif
