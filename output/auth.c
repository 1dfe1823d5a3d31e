/* auth.c — basic-auth users and their password hashes (auth.h). */
#include "config.h"

#include "auth.h"

#include <crypt.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "xalloc.h"

#define AUTH_USERS_MAX 64
#define AUTH_LINE_MAX  512
#define AUTH_CACHE_MAX 8
/* Hashing may take this share of the exporter's thread on average, and
 * a burst of this many seconds of it (auth.h). */
#define AUTH_SHARE   0.25
#define AUTH_BURST_S 1.0

struct auth_user {
	char name[128];
	char hash[CRYPT_OUTPUT_SIZE];
};

/* A password that matched a user's hash, kept as a fast SHA-512 crypt of
 * it under this run's own random salt (never the password itself). */
struct auth_known {
	int user;
	char digest[CRYPT_OUTPUT_SIZE];
};

struct auth {
	struct auth_user user[AUTH_USERS_MAX];
	size_t n;
	pthread_mutex_t lock;	 /* data is one buffer for every check */
	struct crypt_data *data; /* about 32 KiB: allocated once */
	char salt[CRYPT_GENSALT_OUTPUT_SIZE]; /* the cache's; "" when none */
	struct auth_known known[AUTH_CACHE_MAX];
	size_t nknown, next_known;
	double burst_s, share; /* the budget of hashing time */
	double tokens;	       /* seconds of hashing left now; may go below 0 */
	double tokens_at;      /* when tokens was last brought up to date */
};

/* Equal strings, in a time that depends only on the lengths. */
static bool auth_same(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), n = la > lb ? la : lb;
	volatile unsigned char diff = (unsigned char)(la != lb);
	for (size_t i = 0; i < n; i++)
		diff |= (unsigned char)((i < la ? a[i] : 0) ^ (i < lb ? b[i] : 0));
	return diff == 0;
}

static bool auth_supported(const char *hash)
{
	static const char *const prefix[] = {"$2b$", "$2y$", "$2a$", "$6$"};
	for (size_t i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++)
		if (strncmp(hash, prefix[i], strlen(prefix[i])) == 0)
			return crypt_checksalt(hash) == CRYPT_SALT_OK;
	return false;
}

/* One line: 0 when it is a user (added) or nothing, -1 with err set. */
static int auth_line(struct auth *a, char *line, const char *path, int no, char *err, size_t errlen)
{
	size_t len = strlen(line);
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' '))
		line[--len] = '\0';
	if (len == 0 || line[0] == '#')
		return 0;
	char *colon = strchr(line, ':');
	if (!colon || colon == line) {
		snprintf(err, errlen, "--basic-auth %s line %d: not user:HASH", path, no);
		return -1;
	}
	*colon = '\0';
	const char *hash = colon + 1;
	if (!auth_supported(hash)) {
		snprintf(err, errlen,
			 "--basic-auth %s line %d: not a bcrypt ($2b$) or SHA-512 crypt ($6$) "
			 "hash; plain passwords are refused (make one with openssl passwd -6)",
			 path, no);
		return -1;
	}
	if (strlen(line) >= sizeof(a->user[0].name) || strlen(hash) >= sizeof(a->user[0].hash)) {
		snprintf(err, errlen, "--basic-auth %s line %d: too long", path, no);
		return -1;
	}
	if (a->n == AUTH_USERS_MAX) {
		snprintf(err, errlen, "--basic-auth %s: more than %d users", path, AUTH_USERS_MAX);
		return -1;
	}
	snprintf(a->user[a->n].name, sizeof(a->user[a->n].name), "%s", line);
	snprintf(a->user[a->n].hash, sizeof(a->user[a->n].hash), "%s", hash);
	a->n++;
	return 0;
}

struct auth *auth_load(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	if (!f) {
		snprintf(err, errlen, "cannot read --basic-auth %s: %s", path, strerror(errno));
		return NULL;
	}
	struct auth *a = xcalloc(1, sizeof(*a));
	char line[AUTH_LINE_MAX];
	int no = 0, rc = 0;
	while (rc == 0 && fgets(line, sizeof(line), f)) {
		no++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errlen, "--basic-auth %s line %d: too long", path, no);
			rc = -1;
			break;
		}
		rc = auth_line(a, line, path, no, err, errlen);
	}
	fclose(f);
	if (rc == 0 && a->n == 0) {
		snprintf(err, errlen, "--basic-auth %s: no user:HASH line", path);
		rc = -1;
	}
	if (rc < 0) {
		free(a);
		return NULL;
	}
	a->data = xcalloc(1, sizeof(*a->data));
	pthread_mutex_init(&a->lock, NULL);
	/* 1,000 rounds: about 0.3 ms a request (the hashes of the file take
	 * 1 to 250 ms each).  Without a random salt nothing is cached. */
	if (!crypt_gensalt_rn("$6$", 1000, NULL, 0, a->salt, (int)sizeof(a->salt)))
		a->salt[0] = '\0';
	auth_set_budget(a, AUTH_BURST_S, AUTH_SHARE);
	return a;
}

void auth_set_budget(struct auth *a, double burst_s, double share)
{
	pthread_mutex_lock(&a->lock);
	a->burst_s = a->tokens = burst_s;
	a->share = share;
	a->tokens_at = clock_seconds(CLOCK_MONOTONIC);
	pthread_mutex_unlock(&a->lock);
}

void auth_free(struct auth *a)
{
	if (!a)
		return;
	pthread_mutex_destroy(&a->lock);
	free(a->data);
	free(a);
}

/* The cache's digest of password into out ("" when it cannot be made). */
static void auth_digest(struct auth *a, const char *password, char *out, size_t cap)
{
	const char *d = a->salt[0] ? crypt_rn(password, a->salt, a->data, (int)sizeof(*a->data)) : NULL;
	snprintf(out, cap, "%s", d && d[0] != '*' ? d : "");
}

/* Every user's hash is computed and every name compared, whoever asks:
 * the time an answer takes is the same for every user name, known or not
 * (the file may mix bcrypt and SHA-512 costs).  The user's index, or -1. */
static int auth_hash_all(struct auth *a, const char *user, const char *password)
{
	int found = -1;
	for (size_t i = 0; i < a->n; i++) {
		const char *out =
		    crypt_rn(password, a->user[i].hash, a->data, (int)sizeof(*a->data));
		bool name = auth_same(a->user[i].name, user);
		bool pass = out && auth_same(out, a->user[i].hash);
		if (name & pass)
			found = (int)i;
	}
	return found;
}

enum auth_result auth_check(struct auth *a, const char *user, const char *password)
{
	char digest[CRYPT_OUTPUT_SIZE];
	enum auth_result r = AUTH_DENIED;
	pthread_mutex_lock(&a->lock);
	auth_digest(a, password, digest, sizeof(digest));
	for (size_t k = 0; digest[0] && k < a->nknown; k++) {
		const struct auth_known *e = &a->known[k];
		if (auth_same(e->digest, digest) & auth_same(a->user[e->user].name, user))
			r = AUTH_OK;
	}
	if (r == AUTH_OK)
		goto out;
	double now = clock_seconds(CLOCK_MONOTONIC);
	a->tokens += (now - a->tokens_at) * a->share;
	if (a->tokens > a->burst_s)
		a->tokens = a->burst_s;
	a->tokens_at = now;
	if (a->tokens <= 0) {
		r = AUTH_BUSY;
		goto out;
	}
	/* The hashes' own CPU time: what they take from the thread, whatever
	 * else the machine runs meanwhile. */
	double cpu = clock_seconds(CLOCK_THREAD_CPUTIME_ID);
	int found = auth_hash_all(a, user, password);
	a->tokens -= clock_seconds(CLOCK_THREAD_CPUTIME_ID) - cpu;
	if (found >= 0) {
		r = AUTH_OK;
		if (digest[0]) {
			struct auth_known *e = &a->known[a->next_known];
			e->user = found;
			snprintf(e->digest, sizeof(e->digest), "%s", digest);
			a->next_known = (a->next_known + 1) % AUTH_CACHE_MAX;
			if (a->nknown < AUTH_CACHE_MAX)
				a->nknown++;
		}
	}
out:
	pthread_mutex_unlock(&a->lock);
	explicit_bzero(digest, sizeof(digest));
	return r;
}

double auth_retry_after(struct auth *a)
{
	pthread_mutex_lock(&a->lock);
	double wait = a->tokens > 0 || a->share <= 0 ? 0 : -a->tokens / a->share;
	pthread_mutex_unlock(&a->lock);
	return wait;
}
