/* fake-cgroupfs.h — a fake cgroup file system for the quota tests.
 *
 * One tree exists at a time, in a temporary directory: proc/self/mountinfo,
 * proc/self/cgroup and a cgroup hierarchy (v2 at sys/fs/cgroup, or v1
 * cpu,cpuacct on a hybrid host).  fake_cg_sys gives the quota code this tree
 * and the fake kernel's mkdir/rmdir/write in place of the real ones.
 *
 * Paths are absolute unless the name says "rel".  Strings returned live in
 * static buffers owned by this module (see each function for how long).
 * The tree builders and the fake_cg_put_rel/new/proc_stat helpers fail the
 * running cmocka test on error; the fake kernel returns 0 or -errno.  Not
 * thread-safe: one test at a time. */
#ifndef THREADLAB_FAKE_CGROUPFS_H
#define THREADLAB_FAKE_CGROUPFS_H

#include <stdbool.h>

#include "lab-quota.h"

/* The quota code's view: root is the tree's directory (empty when there is
 * no tree), mkdir/rmdir/write the fake kernel's below. */
extern const struct lab_quota_sys fake_cg_sys;

/* ---- building and removing a tree ------------------------------------------ */

/* v2 host: cgroup2 at sys/fs/cgroup whose root has root_ctl in
 * cgroup.controllers and root_subtree in cgroup.subtree_control (both
 * space-separated, newline-terminated, as the kernel shows them).  Each cgroup
 * along own ("/" or "/a/b") is made with fake_cg_mkdir, and the test's own
 * pid is put in own's cgroup.procs, as threadlab's would be.  Nothing is
 * denied.  Call fake_cg_remove before building another. */
void fake_cg_tree_v2(const char *own, const char *root_ctl, const char *root_subtree);

/* Hybrid host: v1 cpu,cpuacct at sys/fs/cgroup/cpu,cpuacct (the hierarchy in
 * use) and a cgroup2 at sys/fs/cgroup/unified without the cpu controller;
 * threadlab is in own on the cpu hierarchy, which is made unless "/". */
void fake_cg_tree_v1(const char *own);

/* Removes the tree from disk and forgets it, the denial included.  Does
 * nothing when there is no tree. */
void fake_cg_remove(void);

/* The hierarchy in use; "" when there is no tree.  Valid until the next
 * fake_cg_remove. */
const char *fake_cg_mount(void);

/* The cgroup rel ("/a/b", or "" for the hierarchy's root) as an absolute
 * path.  One of four buffers in turn: valid for the next three calls. */
const char *fake_cg_path(const char *rel);

/* Makes the cgroup rel ("/a/b") with fake_cg_mkdir; its parent must exist. */
void fake_cg_new(const char *rel);

/* Writes text to rel below the tree's root ("proc/self/cgroup"), replacing
 * the file; the directory must exist. */
void fake_cg_put_rel(const char *rel, const char *text);

/* Writes proc/PID/stat in the tree for a "threadlab" process started ago
 * seconds before now (negative: after now, as a reused pid looks). */
void fake_cg_proc_stat(long pid, double ago);

/* From now on, changes at or below deny fail with EACCES, except at or below
 * allow.  NULL deny: nothing denied; NULL allow: no exception.  Both are
 * copied.  fake_cg_tree_* and fake_cg_remove clear it. */
void fake_cg_deny(const char *deny, const char *allow);

/* ---- the fake kernel ------------------------------------------------------- */

/* Makes a cgroup and fills in its interface files: v1 cgroup.procs, tasks
 * and the cfs files; v2 cgroup.controllers (the parent's subtree_control),
 * cgroup.procs, cgroup.events, cpu.stat, and cpu.max and cpu.weight when the
 * parent gives cpu.  Returns 0, -EACCES when denied, or mkdir(2)'s -errno. */
int fake_cg_mkdir(const char *path);

/* Writes one interface file as the kernel would, text without a newline.
 * cgroup.procs/tasks take a pid > 0 and append it (v2: -EBUSY in a non-root
 * cgroup that gives controllers to children); cgroup.subtree_control takes
 * one "+ctl" (-ENOENT when not available, -EBUSY when the non-root cgroup has
 * processes) and passes it to the children; cpu.max and the cfs files are
 * checked for format and range (-EINVAL); anything else is replaced.
 * Returns 0, -EACCES when denied, -ENOENT when the file does not exist. */
int fake_cg_write(const char *path, const char *text);

/* ---- files ----------------------------------------------------------------- */

/* Replaces dir/file with text, creating it.  Returns 0 or -errno. */
int fake_cg_putf(const char *dir, const char *file, const char *text);

/* The contents of dir/file, or "(missing)" when it cannot be read.  One
 * static buffer of 4 KiB: valid until the next call of this function, which
 * the fake kernel and the tree builders also make. */
const char *fake_cg_getf(const char *dir, const char *file);

/* Whether word is one of the space- or newline-separated words of list. */
bool fake_cg_has_word(const char *list, const char *word);

/* Whether path exists. */
bool fake_cg_exists(const char *path);

/* How many directories named threadlab-* are anywhere below dir. */
int fake_cg_count_ours(const char *dir);

#endif
