/* auth.h — HTTP basic authentication for the exporter (--basic-auth FILE).
 *
 * FILE has one "user:HASH" per line (blank lines and lines starting with
 * '#' are skipped).  HASH must be a bcrypt ($2b$, $2y$, $2a$) or SHA-512
 * crypt ($6$) hash, checked with libcrypt: a plain password, or any other
 * scheme, is refused when the file is read.  A check takes as long for a
 * user who does not exist as for one who does (a hash of the same kind is
 * computed either way) and compares in constant time, so the answer's
 * timing does not reveal user names. */
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

/* Whether user and password match a line of the file.  Thread-safe. */
bool auth_check(struct auth *a, const char *user, const char *password);

#endif
