/* auth.h — HTTP basic authentication for the exporter (--basic-auth FILE).
 *
 * FILE has one "user:HASH" per line (blank lines and lines starting with
 * '#' are skipped).  HASH must be a bcrypt ($2b$, $2y$, $2a$) or SHA-512
 * crypt ($6$) hash, checked with libcrypt: a plain password, or any other
 * scheme, is refused when the file is read.
 *
 * A check computes one hash: the named user's, or for a name not in the
 * file the costliest user's (by the cost its hash names), so that an
 * unknown name takes as long as the slowest known one; names are compared
 * in constant time.  (A file that mixes costs lets the time tell a cheaper
 * user's name from an unknown one; one cost for every user does not.)
 *
 * Hashing is slow on purpose (a bcrypt of cost 12 takes about 0.25 s), and
 * the exporter answers on one thread: so that clients guessing passwords
 * cannot hold up a scraper, a user and password that matched are
 * remembered (an HMAC-SHA-256 of them, GnuTLS, under a key drawn at start;
 * the 32 used last) and checked without hashing, and hashing takes at
 * most a quarter of the thread's CPU after a burst of one second: beyond
 * that a check not remembered is refused as busy (429) at once.  So a
 * scraper waits at most for the one hash in progress. */
#ifndef THREADLAB_AUTH_H
#define THREADLAB_AUTH_H

#include <stdbool.h>
#include <stddef.h>

struct auth;

/* Reads path.  Returns NULL with a one-line reason in err (the file and
 * line) when it cannot be read, holds no user, or holds a line that is not
 * "user:HASH" with a supported hash. */
struct auth *auth_load(const char *path, char *err, size_t errlen);
void auth_free(struct auth *a);

enum auth_result {
	AUTH_OK,     /* user and password match a line of the file */
	AUTH_DENIED, /* they do not (or are missing) */
	AUTH_BUSY    /* not remembered, and the hashing budget is spent */
};

/* Checks user and password.  Thread-safe. */
enum auth_result auth_check(struct auth *a, const char *user, const char *password);

/* Seconds until a check that is not remembered is taken again (0: now). */
double auth_retry_after(struct auth *a);

/* The hashing budget: a burst of burst_s seconds, then share (0 .. 1) of
 * the time (auth_load sets 1 s and 0.25; tests set their own). */
void auth_set_budget(struct auth *a, double burst_s, double share);

#endif
