/* auth.c — basic-auth users and their password hashes (auth.h). */
#include "config.h"

#include "auth.h"

#include <crypt.h>
#include <errno.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "xalloc.h"

#define AUTH_USERS_MAX 64
#define AUTH_LINE_MAX  512
#define AUTH_CACHE_MAX 32
#define AUTH_MAC_LEN   32 /* HMAC-SHA-256 */
/* Hashing may take this share of the exporter's thread on average, and
 * a burst of this many seconds of it (auth.h). */
#define AUTH_SHARE   0.25
#define AUTH_BURST_S 1.0

struct auth_user {
	char name[128];
	char hash[CRYPT_OUTPUT_SIZE];
};

/* A user and password that matched, kept as an HMAC-SHA-256 of
 * "user\0password" under a key drawn at start (never the password). */
struct auth_known {
	unsigned char mac[AUTH_MAC_LEN];
	unsigned long used; /* when last matched (a count of checks): the oldest goes */
};

struct auth {
	struct auth_user user[AUTH_USERS_MAX];
	size_t n;
	size_t decoy;		 /* the costliest user: the hash an unknown name is checked against */
	pthread_mutex_t lock;	 /* data is one buffer for every check */
	struct crypt_data *data; /* about 32 KiB: allocated once */
	unsigned char key[32];	 /* the HMAC's; keyed is false when none could be drawn */
	bool keyed;
	struct auth_known known[AUTH_CACHE_MAX];
	size_t nknown;
	unsigned long checks;
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

/* What a hash costs to check, roughly, in one unit per 60 µs (bcrypt's
 * 2^cost rounds, SHA-512 crypt's rounds at about 0.25 µs each; measured
 * here, the ratio holds across CPUs): only to pick the costliest. */
static double auth_cost(const char *hash)
{
	if (hash[1] == '2') { /* $2b$NN$ */
		int c = atoi(hash + 4);
		return c >= 4 && c <= 31 ? (double)(1ul << c) : 1;
	}
	const char *r = strstr(hash, "rounds=");
	long rounds = r ? atol(r + 7) : 5000; /* $6$: 5000 unless given */
	return (double)rounds * 0.25 / 60;
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
	if (auth_cost(hash) > auth_cost(a->user[a->decoy].hash))
		a->decoy = a->n;
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
	/* Without a key nothing is remembered: every check hashes. */
	a->keyed = gnutls_rnd(GNUTLS_RND_KEY, a->key, sizeof(a->key)) == 0;
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
	explicit_bzero(a->key, sizeof(a->key));
	pthread_mutex_destroy(&a->lock);
	free(a->data);
	free(a);
}

/* The MAC of user and password into mac; false when it cannot be made. */
static bool auth_mac(struct auth *a, const char *user, const char *password,
		     unsigned char mac[AUTH_MAC_LEN])
{
	size_t lu = strlen(user), lp = strlen(password);
	if (!a->keyed || lu >= sizeof(a->user[0].name) || lp > 4096)
		return false;
	char buf[sizeof(a->user[0].name) + 4097];
	memcpy(buf, user, lu + 1); /* the NUL parts the two */
	memcpy(buf + lu + 1, password, lp);
	bool ok = gnutls_hmac_fast(GNUTLS_MAC_SHA256, a->key, sizeof(a->key), buf, lu + 1 + lp,
				   mac) == 0;
	explicit_bzero(buf, lu + 1 + lp);
	return ok;
}

/* The named user's hash is computed, or for a name not in the file the
 * costliest user's (so that an unknown name takes as long as the slowest
 * known one), and every name compared.  True when user and password match. */
static bool auth_hash(struct auth *a, const char *user, const char *password)
{
	size_t which = a->decoy;
	bool named = false;
	for (size_t i = 0; i < a->n; i++)
		if (auth_same(a->user[i].name, user) && !named) {
			which = i;
			named = true;
		}
	const char *out = crypt_rn(password, a->user[which].hash, a->data, (int)sizeof(*a->data));
	return named && out && auth_same(out, a->user[which].hash);
}

enum auth_result auth_check(struct auth *a, const char *user, const char *password)
{
	unsigned char mac[AUTH_MAC_LEN];
	enum auth_result r = AUTH_DENIED;
	pthread_mutex_lock(&a->lock);
	a->checks++;
	bool have_mac = auth_mac(a, user, password, mac);
	for (size_t k = 0; have_mac && k < a->nknown; k++)
		if (gnutls_memcmp(a->known[k].mac, mac, AUTH_MAC_LEN) == 0) { /* constant time */
			a->known[k].used = a->checks;
			r = AUTH_OK;
		}
	if (r == AUTH_OK)
		goto out;
	double now = clock_seconds(CLOCK_MONOTONIC);
	if (now > a->tokens_at) /* a clock that went back adds nothing */
		a->tokens += (now - a->tokens_at) * a->share;
	if (a->tokens > a->burst_s)
		a->tokens = a->burst_s;
	a->tokens_at = now;
	if (a->tokens <= 0) {
		r = AUTH_BUSY;
		goto out;
	}
	/* The hash's own CPU time: what it takes from the thread, whatever
	 * else the machine runs meanwhile. */
	double cpu = clock_seconds(CLOCK_THREAD_CPUTIME_ID);
	bool ok = auth_hash(a, user, password);
	a->tokens -= clock_seconds(CLOCK_THREAD_CPUTIME_ID) - cpu;
	if (ok) {
		r = AUTH_OK;
		if (have_mac) { /* remembered in a free slot, else the least recently used */
			size_t k = 0;
			if (a->nknown < AUTH_CACHE_MAX)
				k = a->nknown++;
			else
				for (size_t i = 1; i < AUTH_CACHE_MAX; i++)
					if (a->known[i].used < a->known[k].used)
						k = i;
			memcpy(a->known[k].mac, mac, AUTH_MAC_LEN);
			a->known[k].used = a->checks;
		}
	}
out:
	pthread_mutex_unlock(&a->lock);
	explicit_bzero(mac, sizeof(mac));
	return r;
}

double auth_retry_after(struct auth *a)
{
	pthread_mutex_lock(&a->lock);
	double wait = a->tokens > 0 ? 0 : a->share > 0 ? -a->tokens / a->share : 3600;
	pthread_mutex_unlock(&a->lock);
	return wait < 3600 ? wait : 3600;
}
