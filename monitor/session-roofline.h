/* session-roofline.h — the roofs the roofline needs, measured once per lab
 * (session-roofline.c).  Blocks while it measures (a second or two). */
#ifndef THREADLAB_SESSION_ROOFLINE_H
#define THREADLAB_SESSION_ROOFLINE_H

#include "session.h"

/* Lab only (session-roofline.c): measures what the roofline still lacks,
 * the single-thread GEMM rate at want's size and precision and the memory
 * bandwidth (lab_status_memory_gbs), each once, blocking meanwhile (seconds), and
 * feeds them to the lab view.  The lab runs its settings before again
 * afterwards.  0, -ENOTSUP outside the lab, -EIO when the bandwidth could
 * not be measured (a message says so). */
int session_roofline_roofs(struct session *s);

#endif
