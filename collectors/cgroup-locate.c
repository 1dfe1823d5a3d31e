/* cgroup-locate.c — find the directory of a process's cgroup.
 *
 * /proc/PID/cgroup gives the path relative to the reader's cgroup
 * namespace; mountinfo gives, per mount, the hierarchy's root as seen from
 * that namespace and where it is mounted.  The directory is the
 * mount point plus the path with the mount's root stripped.  When that
 * directory is not visible (a namespace whose cgroup lies outside the
 * mount), the mount root stands in and the caller is told (fallback). */
#include "config.h"

#include "cgroup.h"
#include "cgroup-parse.h"
#include "cgroup-locate.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "proc/self" or "proc/PID". */
static void cgroup_locate_piddir(pid_t pid, char *buf, size_t cap)
{
	if (pid == 0)
		snprintf(buf, cap, "proc/self");
	else
		snprintf(buf, cap, "proc/%ld", (long)pid);
}

/* Reads proc/PID/name whole into a malloc'd buffer (mountinfo can be long).
 * -ESRCH when the process directory has gone. */
static int cgroup_locate_slurp(const struct sysroot *r, pid_t pid, const char *name, char **out)
{
	char piddir[64], rel[96];
	size_t cap = 16384;
	cgroup_locate_piddir(pid, piddir, sizeof(piddir));
	snprintf(rel, sizeof(rel), "%s/%s", piddir, name);
	for (;;) {
		char *buf = xmalloc(cap);
		ssize_t n = sysroot_read(r, rel, buf, cap);
		if (n < 0) {
			free(buf);
			if ((n == -ENOENT || n == -ESRCH) && !sysroot_exists(r, piddir))
				return -ESRCH;
			return (int)n;
		}
		if ((size_t)n < cap - 1 || cap >= (64u << 20)) {
			*out = buf;
			return 0;
		}
		free(buf);
		cap *= 2;
	}
}

/* Whose mountinfo to read.  The directories are opened in our own mount
 * namespace, so live it is ours (a process in a container sees other
 * mount points); a fixture tree has only the target's. */
static pid_t cgroup_locate_mnt_pid(const struct sysroot *r, pid_t pid)
{
	return r->live ? 0 : pid;
}

/* True when path holds a ".." component: a cgroup outside the mount. */
static bool cgroup_locate_has_dotdot(const char *path)
{
	for (const char *p = path; (p = strstr(p, "..")) != NULL; p += 2) {
		bool start = p == path || p[-1] == '/';
		bool end = p[2] == '\0' || p[2] == '/';
		if (start && end)
			return true;
	}
	return false;
}

/* How many ".." components path starts with (after its '/'), the rest in
 * *rest (no leading '/'). */
static int cgroup_locate_ups(const char *path, const char **rest)
{
	int n = 0;
	const char *p = path;
	for (;;) {
		while (*p == '/')
			p++;
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || p[2] == '\0')) {
			n++;
			p += 2;
		} else {
			break;
		}
	}
	*rest = p;
	return n;
}

/* Directories depth levels below dir holding rest (all of it): how many
 * (up to 2), the first into found.  visits bounds the walk. */
static int cgroup_locate_find(const struct sysroot *r, const char *dir, int depth, const char *rest,
			      char *found, int *visits)
{
	char d[CGROUP_PATH_MAX], second[CGROUP_PATH_MAX]; /* a second one only counts */
	if (depth == 0) {
		int n = snprintf(d, sizeof(d), "%s/%s", dir, rest);
		if (n < 0 || n >= (int)sizeof(d) || !sysroot_exists(r, d))
			return 0;
		strcpy(found, d);
		return 1;
	}
	DIR *dh = sysroot_opendir(r, dir);
	if (!dh)
		return 0;
	int count = 0;
	struct dirent *e;
	while (count < 2 && (e = readdir(dh)) != NULL && ++*visits < 20000) {
		if (e->d_type != DT_DIR || strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		int n = snprintf(d, sizeof(d), "%s/%s", dir, e->d_name);
		if (n > 0 && n < (int)sizeof(d))
			count += cgroup_locate_find(r, d, depth - 1, rest, count ? second : found,
						    visits);
	}
	closedir(dh);
	return count;
}

/* Turns (mount, path) into a directory relative to the root.  mount_dir gets
 * the mount point without its leading '/'.  *seen says what dir is: the
 * cgroup's own directory; its nearest ancestor that is there (the cgroup
 * was removed, or is not there yet); or nothing ("": the cgroup lies
 * outside what the mount shows, as from inside another cgroup namespace,
 * and no one place in the mount can be told to be it). */
static int cgroup_locate_resolve(const struct sysroot *r, const struct cgroup_mount *m,
				 const char *path_in, char *dir, char *mount_dir,
				 enum cgroup_seen *seen)
{
	char path[CGROUP_PATH_MAX];
	snprintf(path, sizeof(path), "%s", path_in);
	/* A cgroup removed while its last process exits: " (deleted)". */
	size_t pl = strlen(path), dl = strlen(" (deleted)");
	if (pl > dl && strcmp(path + pl - dl, " (deleted)") == 0)
		path[pl - dl] = '\0';
	const char *mp = m->mountpoint;
	while (*mp == '/')
		mp++;
	if (*mp == '\0')
		mp = ".";
	if (strlen(mp) >= CGROUP_PATH_MAX)
		return -ENAMETOOLONG;
	strcpy(mount_dir, mp);
	*seen = CGROUP_SEEN_OWN;
	const char *prest, *rrest;
	int pu = cgroup_locate_ups(path, &prest), ru = cgroup_locate_ups(m->root, &rrest);
	if (pu || ru) {
		/* Paths read from another cgroup namespace: both relative to
		 * its root.  A mount whose root lies ru levels above it (the
		 * host's tree mounted in a container) holds a path pu levels
		 * up at ru - pu unknown levels below the mount: found when one
		 * directory there, and only one, holds the rest of the path. */
		int visits = 0;
		if (pu <= ru && !*rrest && *prest && !cgroup_locate_has_dotdot(prest) &&
		    cgroup_locate_find(r, mount_dir, ru - pu, prest, dir, &visits) == 1) {
			size_t n = strlen(dir);
			while (n > 0 && dir[n - 1] == '/')
				dir[--n] = '\0';
			return 0;
		}
		*seen = CGROUP_SEEN_HIDDEN;
		dir[0] = '\0';
		return 0;
	}
	const char *rel = path;
	size_t rl = strlen(m->root);
	/* A mount of a sub-tree (container, bind mount) shows its root in field 4:
	 * paths below it are relative to that root. */
	if (strcmp(m->root, "/") != 0) {
		if (strncmp(path, m->root, rl) != 0 || (path[rl] != '/' && path[rl] != '\0')) {
			*seen = CGROUP_SEEN_HIDDEN; /* beside the sub-tree, not in it */
			dir[0] = '\0';
			return 0;
		}
		rel = path + rl;
	}
	while (*rel == '/')
		rel++;
	if (cgroup_locate_has_dotdot(rel)) {
		*seen = CGROUP_SEEN_HIDDEN;
		dir[0] = '\0';
		return 0;
	}
	if (*rel == '\0') {
		strcpy(dir, mount_dir);
		return 0;
	}
	int n = snprintf(dir, CGROUP_PATH_MAX, "%s/%s", mount_dir, rel);
	if (n < 0 || n >= CGROUP_PATH_MAX)
		return -ENAMETOOLONG;
	/* Trailing slashes would break the walk up to the mount. */
	while (n > 0 && dir[n - 1] == '/')
		dir[--n] = '\0';
	/* Not there (removed, or not yet): its nearest ancestor that is, below
	 * the mount, whose quota bounds it too. */
	size_t ml = strlen(mount_dir);
	while (!sysroot_exists(r, dir) && strlen(dir) > ml) {
		*seen = CGROUP_SEEN_ANCESTOR;
		char *slash = strrchr(dir, '/');
		if (!slash || (size_t)(slash - dir) < ml)
			break;
		*slash = '\0';
	}
	if (*seen == CGROUP_SEEN_ANCESTOR && strlen(dir) < ml)
		strcpy(dir, mount_dir);
	return 0;
}

int cgroup_locate_read_file(const struct sysroot *r, pid_t pid, char **out)
{
	return cgroup_locate_slurp(r, pid, "cgroup", out);
}

int cgroup_locate_read_mountinfo(const struct sysroot *r, pid_t pid, char **out)
{
	return cgroup_locate_slurp(r, cgroup_locate_mnt_pid(r, pid), "mountinfo", out);
}

/* Both files of pid; on failure neither is left allocated. */
static int cgroup_locate_read(const struct sysroot *r, pid_t pid, char **cg, char **mi)
{
	int rc = cgroup_locate_read_file(r, pid, cg);
	if (rc < 0)
		return rc;
	rc = cgroup_locate_read_mountinfo(r, pid, mi);
	if (rc < 0)
		free(*cg);
	return rc;
}

int cgroup_locate(const struct sysroot *r, pid_t pid, struct cgroup_loc *out)
{
	char *cg, *mi;
	memset(out, 0, sizeof(*out));
	int rc = cgroup_locate_read(r, pid, &cg, &mi);
	if (rc < 0)
		return rc;
	rc = cgroup_locate_text(r, cg, mi, out);
	free(cg);
	free(mi);
	return rc;
}

int cgroup_locate_text(const struct sysroot *r, const char *cg, const char *mi,
		       struct cgroup_loc *out)
{
	struct cgroup_line l1, l2;
	struct cgroup_mount m1, m2;
	int rc;

	memset(out, 0, sizeof(*out));
	int f1 = cgroup_parse_file(cg, true, &l1);
	int f2 = cgroup_parse_file(cg, false, &l2);
	bool have1 = f1 == 0 && cgroup_parse_mountinfo(mi, 1, &m1) == 0;
	bool have2 = f2 == 0 && cgroup_parse_mountinfo(mi, 2, &m2) == 0;
	if (f1 == -EINVAL || f2 == -EINVAL)
		return -EINVAL;

	if (have2) {
		char mdir[CGROUP_PATH_MAX];
		enum cgroup_seen fb;
		rc = cgroup_locate_resolve(r, &m2, l2.path, out->v2_dir, mdir, &fb);
		if (rc < 0)
			return rc;
		if (!have1) {
			out->version = 2;
			snprintf(out->path, sizeof(out->path), "%s", l2.path);
			strcpy(out->dir, out->v2_dir);
			strcpy(out->mount_dir, mdir);
			out->seen = fb;
			out->fallback = fb != CGROUP_SEEN_OWN;
		}
		/* Pressure only of the cgroup's own directory: an ancestor's
		 * (or, on a hybrid host, the whole machine's) is not its. */
		if (fb != CGROUP_SEEN_OWN)
			out->v2_dir[0] = '\0';
	}
	if (have1) {
		enum cgroup_seen fb;
		out->version = 1;
		snprintf(out->path, sizeof(out->path), "%s", l1.path);
		rc = cgroup_locate_resolve(r, &m1, l1.path, out->dir, out->mount_dir, &fb);
		if (rc < 0)
			return rc;
		out->seen = fb;
		out->fallback = fb != CGROUP_SEEN_OWN;
	}
	return out->version ? 0 : -ENOENT;
}

int cgroup_locate_v1(const struct sysroot *r, pid_t pid, const char *controller, char *dir,
		     size_t cap, bool *fallback)
{
	char *cg, *mi;
	int rc = cgroup_locate_read(r, pid, &cg, &mi);
	if (rc < 0)
		return rc;
	rc = cgroup_locate_v1_text(r, cg, mi, controller, dir, cap, fallback);
	free(cg);
	free(mi);
	return rc;
}

int cgroup_locate_v1_text(const struct sysroot *r, const char *cg, const char *mi,
			  const char *controller, char *dir, size_t cap, bool *fallback)
{
	struct cgroup_line l;
	struct cgroup_mount m;
	char d[CGROUP_PATH_MAX], mdir[CGROUP_PATH_MAX];
	enum cgroup_seen fb = CGROUP_SEEN_OWN;
	int rc = cgroup_parse_file_find(cg, controller, &l);
	if (rc == 0)
		rc = cgroup_parse_mountinfo_find(mi, controller, &m);
	if (rc == 0)
		rc = cgroup_locate_resolve(r, &m, l.path, d, mdir, &fb);
	if (rc < 0)
		return rc;
	if (strlen(d) >= cap)
		return -ENAMETOOLONG;
	strcpy(dir, d);
	if (fallback)
		*fallback = fb != CGROUP_SEEN_OWN;
	return 0;
}
