/* zombie-leader.c — a process whose leader thread has exited while another
 * runs on (pthread_exit from main): its /proc/PID/environ reads "no such
 * process" and its maps empty, through the live thread they read.  The
 * live thread keeps one CPU busy inside an OpenMP region of one thread,
 * so libgomp is mapped.  Runs until killed. */
#include <omp.h>
#include <pthread.h>

static void *zombie_leader_spin(void *arg)
{
	(void)arg;
	volatile unsigned long x = 0;
	for (;;) {
#pragma omp parallel num_threads(1)
		for (int i = 0; i < 1000000; i++)
			x += (unsigned long)omp_get_thread_num() + 1;
	}
	return NULL;
}

int main(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, zombie_leader_spin, NULL) != 0)
		return 1;
	pthread_exit(NULL);
}
