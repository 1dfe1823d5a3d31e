/* test-fleet-slow.c — a command line that takes --match's expression a
 * second or more holds no tick of the fleet and no stop.  The matcher runs
 * at nice +10, so other load on the machine stretches its answer to
 * minutes: a CPU-share test (SERIAL_TESTS in Makefile.am). */
#include "config.h"

#include "tl-test.h"

#include "fleet.h"
#include "matcher.h"

/* A command line the expression takes a second or more over holds no
 * tick and no stop: its answer comes when the matcher has it.  Times are
 * compared with the slowest match over the same while (a loaded machine
 * slows both). */
static void test_fleet_slow(void **state)
{
	(void)state;
	/* only runs of a and b cost it much: the machine's other command lines
	 * are answered at once, ours (all a and b) in seconds */
	const char *re = "([ab]{1,190}a){1,5}#%";
	char arg[600];
	tl_ab_text(arg, sizeof(arg) - 1, 1);
	arg[sizeof(arg) - 1] = '\0';
	char err[256];
	/* A shell that waits on a pipe we hold, with the text as its $0: no
	 * child of its own (a "sleep" would outlive it, holding our stdout). */
	int gate[2];
	assert_int_equal(pipe(gate), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(gate[0], 0);
		close(gate[0]);
		close(gate[1]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execlp("sh", "sh", "-c", "read _", arg, (char *)NULL);
		_exit(127);
	}
	close(gate[0]);
	tl_sleep_ms(100);
	struct session_config c;
	session_config_default(&c);
	struct fleet f;
	assert_int_equal(fleet_start(&f, &c, re, err, sizeof(err)), EXIT_OK);
	double worst = 0;
	const struct fleet_proc *known = NULL;
	/* its answer comes in seconds; minutes on a loaded machine, as the
	 * matcher runs at nice +10 */
	for (double end = tl_now_s() + 180; !known && tl_now_s() < end;) {
		double t0 = tl_now_s();
		fleet_tick(&f);
		double dt = tl_now_s() - t0;
		worst = dt > worst ? dt : worst;
		for (size_t k = 0; k < f.nprocs; k++)
			if (f.procs[k].pid == pid && f.procs[k].known)
				known = &f.procs[k];
		tl_sleep_ms(50);
	}
	double one = matcher_longest(f.matcher);
	printf("# the slowest tick %.1f ms, the slowest match %.0f ms\n", worst * 1e3, one * 1e3);
	assert_non_null(known);
	assert_false(known ? known->matches : true);
	assert_true(one > 0.1);
	assert_true(worst < one / 4);
	fleet_stop(&f);

	/* stopped while it matches that command line */
	assert_int_equal(fleet_start(&f, &c, re, err, sizeof(err)), EXIT_OK);
	fleet_tick(&f);
	tl_sleep_ms(100);
	assert_true(matcher_busy(f.matcher));
	double t0 = tl_now_s();
	fleet_stop(&f);
	double stop = tl_now_s() - t0;
	printf("# stopped during that match in %.2f ms\n", stop * 1e3);
	assert_true(stop < one / 4);
	close(gate[1]);
	tl_kill_reap(pid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fleet_slow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
