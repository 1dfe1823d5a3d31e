/* test-lab-find.c — where the lab finds its programs (lab-find.c): the
 * relative path from bindir to pkglibexecdir, $THREADLAB_LIBEXECDIR (all
 * three programs or none), and the build tree this test runs from.  The
 * installed layout is checked on a real install: test-install.sh. */
#include "tl-test.h"

#include "lab.h"
#include "lab-find.h"

#include <limits.h>
#include <sys/stat.h>

static void test_relative(void **state)
{
	(void)state;
	static const struct {
		const char *from, *to, *want;
	} cases[] = {
	    {"/usr/bin", "/usr/libexec/threadlab", "../libexec/threadlab"},
	    {"/usr/local/bin", "/usr/local/lib/threadlab", "../lib/threadlab"},
	    {"/opt/tl/bin", "/opt/tl/libexec/threadlab", "../libexec/threadlab"},
	    {"/usr/bin", "/usr/bin", "."},
	    {"/usr", "/usr/lib", "lib"},
	    {"/usr/lib", "/usr", ".."},
	    {"/a/b", "/a/bc", "../bc"}, /* a shared prefix that is no component */
	    {"/bin", "/usr/libexec/x", "../usr/libexec/x"},
	    {"/", "/usr/libexec", "usr/libexec"},
	    {"/usr//bin/", "/usr/libexec/", "../libexec"}, /* doubled and trailing slashes */
	};
	char out[PATH_MAX];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(lab_find_relative(cases[i].from, cases[i].to, out, sizeof(out)),
				 0);
		assert_string_equal(out, cases[i].want);
	}
	assert_int_equal(lab_find_relative("usr/bin", "/usr/lib", out, sizeof(out)), -EINVAL);
	char small[8];
	assert_int_equal(lab_find_relative("/a/b/c/d", "/x/y", small, sizeof(small)),
			 -ENAMETOOLONG);
}

static void put_exe(const char *dir, const char *name)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\nexit 0\n", f);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
}

static void test_env_dir(void **state)
{
	(void)state;
	char dir[] = "/tmp/tl-find-XXXXXX";
	assert_non_null(mkdtemp(dir));
	put_exe(dir, "threadlab-anchor");
	put_exe(dir, "threadlab-gemm");
	setenv("THREADLAB_LIBEXECDIR", dir, 1);
	char out[PATH_MAX];
	const char *how = NULL;
	/* Two of three: not taken, and nothing else is tried. */
	assert_int_equal(lab_find_programs_dir(out, sizeof(out), &how), -ENOENT);
	put_exe(dir, "threadlab-burn");
	assert_int_equal(lab_find_programs_dir(out, sizeof(out), &how), 0);
	assert_string_equal(out, dir);
	assert_string_equal(how, "THREADLAB_LIBEXECDIR");
	unsetenv("THREADLAB_LIBEXECDIR");
	char path[PATH_MAX];
	for (const char *const *n = (const char *const[]){"threadlab-anchor", "threadlab-gemm",
							  "threadlab-burn", NULL};
	     *n; n++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *n);
		unlink(path);
	}
	rmdir(dir);
}

/* This program runs from tests/unit/ of a build tree: the tree's programs. */
static void test_build_tree(void **state)
{
	(void)state;
	const char *b = getenv("THREADLAB_BUILDDIR");
	if (!b) {
		TL_SKIP("THREADLAB_BUILDDIR is not set (run through make check)");
		return;
	}
	unsetenv("THREADLAB_LIBEXECDIR");
	char out[PATH_MAX], want[PATH_MAX];
	const char *how = NULL;
	assert_non_null(realpath(b, want));
	assert_int_equal(lab_find_programs_dir(out, sizeof(out), &how), 0);
	assert_string_equal(out, want);
	assert_string_equal(how, "build tree");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_relative),
	    cmocka_unit_test(test_env_dir),
	    cmocka_unit_test(test_build_tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
