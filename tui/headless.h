/* headless.h — --headless: sample with nothing on screen and nothing on
 * stdout, for a container or a systemd unit, serving (--serve) and
 * recording (--record) what it samples.
 *
 * One target (the lab, -p PID, -- CMD) runs until SIGTERM or SIGINT (exit
 * 0) or until the target ends (exit 0, said on stderr).  With --match it
 * follows every matching process, found again at each sample, until a
 * signal; processes that end only leave the set. */
#ifndef THREADLAB_HEADLESS_H
#define THREADLAB_HEADLESS_H

#include "options.h"

int headless_run(const struct options *o);

#endif
