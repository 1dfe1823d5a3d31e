/* lab-find.c — where the lab's programs are (lab.h, lab_find_programs_dir).
 *
 * The lab runs three programs of its own (threadlab-anchor, threadlab-gemm,
 * threadlab-burn), always from one directory, never through $PATH.  The
 * directories tried, first match wins:
 *
 *  1. $THREADLAB_LIBEXECDIR, when set (tests, unusual layouts);
 *  2. the build tree, when this program runs from one: the directory of
 *     /proc/self/exe, its parent (bench/ programs) or the one above that
 *     (tests/<kind>/ programs), holding config.status, which no installed
 *     directory has;
 *  3. the installed layout seen from this program: BINDIR's path to
 *     PKGLIBEXECDIR made relative ("../libexec/threadlab") and taken from
 *     the directory of /proc/self/exe, so a tree staged under DESTDIR or
 *     moved whole finds its own helpers;
 *  4. PKGLIBEXECDIR as configured (a threadlab started through a symlink
 *     from elsewhere). */
#define _GNU_SOURCE
#include "config.h"

#include "lab.h"
#include "lab-find.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PKGLIBEXECDIR
#define PKGLIBEXECDIR "/usr/local/libexec/threadlab"
#endif
#ifndef BINDIR
#define BINDIR "/usr/local/bin"
#endif

static const char *const lab_find_names[] = {"threadlab-anchor", "threadlab-gemm",
					     "threadlab-burn"};

/* Whether dir holds every one of the lab's programs, executable. */
static bool lab_find_all_in(const char *dir)
{
	char path[PATH_MAX];
	for (size_t i = 0; i < sizeof(lab_find_names) / sizeof(lab_find_names[0]); i++) {
		if (snprintf(path, sizeof(path), "%s/%s", dir, lab_find_names[i]) >=
		    (int)sizeof(path))
			return false;
		if (access(path, X_OK) != 0)
			return false;
	}
	return true;
}

static bool lab_find_build_tree(const char *dir)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof(path), "%s/config.status", dir) >= (int)sizeof(path))
		return false;
	return access(path, F_OK) == 0 && lab_find_all_in(dir);
}

/* Takes dir (copied into out, cap bytes, made canonical when it can be). */
static int lab_find_take(const char *dir, char *out, size_t cap, const char **how, const char *why)
{
	char real[PATH_MAX];
	const char *d = realpath(dir, real) ? real : dir;
	if (snprintf(out, cap, "%s", d) >= (int)cap)
		return -ENAMETOOLONG;
	if (how)
		*how = why;
	return 0;
}

int lab_find_relative(const char *from, const char *to, char *out, size_t cap)
{
	if (from[0] != '/' || to[0] != '/')
		return -EINVAL;
	/* The longest common leading run of whole components. */
	size_t common = 0;
	for (size_t i = 0;; i++) {
		bool fend = from[i] == '\0' || from[i] == '/';
		bool tend = to[i] == '\0' || to[i] == '/';
		if (fend && tend)
			common = i;
		if (from[i] != to[i] || from[i] == '\0')
			break;
	}
	size_t len = 0;
	out[0] = '\0';
	/* One ".." for every component of from past the common part. */
	for (const char *p = from + common; *p;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		int w = snprintf(out + len, cap - len, "%s..", len ? "/" : "");
		if (w < 0 || (size_t)w >= cap - len)
			return -ENAMETOOLONG;
		len += (size_t)w;
		while (*p && *p != '/')
			p++;
	}
	const char *rest = to + common;
	while (*rest == '/')
		rest++;
	if (*rest) {
		int w = snprintf(out + len, cap - len, "%s%s", len ? "/" : "", rest);
		if (w < 0 || (size_t)w >= cap - len)
			return -ENAMETOOLONG;
		len += (size_t)w;
	}
	if (!len && snprintf(out, cap, ".") >= (int)cap)
		return -ENAMETOOLONG;
	/* A trailing slash of to is not kept. */
	while (len > 1 && out[len - 1] == '/')
		out[--len] = '\0';
	return 0;
}

int lab_find_programs_dir(char *out, size_t cap, const char **how)
{
	const char *env = getenv("THREADLAB_LIBEXECDIR");
	if (env && *env)
		return lab_find_all_in(env)
			   ? lab_find_take(env, out, cap, how, "THREADLAB_LIBEXECDIR")
			   : -ENOENT;
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash && slash != self) {
			*slash = '\0';
			/* The program's directory, then up to two above it
			 * (bench/x, tests/unit/x). */
			char up[PATH_MAX];
			snprintf(up, sizeof(up), "%s", self);
			for (int level = 0; level < 3; level++) {
				if (lab_find_build_tree(up))
					return lab_find_take(up, out, cap, how, "build tree");
				char *s2 = strrchr(up, '/');
				if (!s2 || s2 == up)
					break;
				*s2 = '\0';
			}
			char rel[PATH_MAX], dir[PATH_MAX];
			if (lab_find_relative(BINDIR, PKGLIBEXECDIR, rel, sizeof(rel)) == 0 &&
			    snprintf(dir, sizeof(dir), "%s/%s", self, rel) < (int)sizeof(dir) &&
			    lab_find_all_in(dir))
				return lab_find_take(dir, out, cap, how, "installed");
		}
	}
	if (lab_find_all_in(PKGLIBEXECDIR))
		return lab_find_take(PKGLIBEXECDIR, out, cap, how, "configured");
	return -ENOENT;
}

const char *lab_find_programs_configured_dir(void)
{
	return PKGLIBEXECDIR;
}
