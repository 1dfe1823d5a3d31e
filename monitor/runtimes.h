/* runtimes.h — the thread-pool runtimes threadlab recognises in a
 * process's mapped files, and how each one picks its thread count.
 *
 * The table in runtimes.c names, for each runtime, the library files it
 * comes in (Debian 12 paths and pip wheel names, checked against
 * /proc/PID/maps of real processes) and its default-count rule, each rule
 * citing the source it was read from. */
#ifndef THREADLAB_RUNTIMES_H
#define THREADLAB_RUNTIMES_H

#include <stdbool.h>
#include <stddef.h>

enum runtime_id {
	RUNTIME_OPENBLAS,
	RUNTIME_BLIS,
	RUNTIME_MKL,
	RUNTIME_FLEXIBLAS,
	RUNTIME_GOMP,
	RUNTIME_IOMP,
	RUNTIME_LLVM_OMP,
	RUNTIME_TBB,
	RUNTIME_TORCH,
	RUNTIME_TENSORFLOW,
	RUNTIME_ONNXRUNTIME,
	RUNTIME_OPENCV,
	RUNTIME_N,
};

/* What a runtime is. */
enum runtime_kind {
	RUNTIME_KIND_BLAS,	/* a BLAS with a thread pool */
	RUNTIME_KIND_OPENMP,	/* an OpenMP runtime (its pool serves whoever calls it) */
	RUNTIME_KIND_TASKING,	/* a tasking library (oneTBB) */
	RUNTIME_KIND_FRAMEWORK, /* a framework that sets up pools of its own */
};

struct runtime_match {
	enum runtime_id id;
	const char *variant; /* "pthreads", "openmp", "sequential", "intel", "gnu", "tbb", or
			      * "" when the file does not tell */
};

/* Whether the mapped file path is a runtime's library; fills m.  Matches
 * the file's name (and, where the name is shared, its directory): the
 * names a process maps (symlinks resolved) on Debian 12 and from wheels. */
bool runtimes_match(const char *path, struct runtime_match *m);

/* "OpenBLAS", "GNU OpenMP (libgomp)", … */
const char *runtimes_name(enum runtime_id id);
/* Short name for JSON and metrics: "openblas", "libgomp", … */
const char *runtimes_key(enum runtime_id id);
enum runtime_kind runtimes_kind(enum runtime_id id);

/* The thread variables a process's environment may hold (initial
 * environment, /proc/PID/environ). */
struct runtimes_env {
	/* value of each environment_thread_vars entry, NULL when unset */
	const char *(*get)(const void *ctx, const char *name);
	const void *ctx;
};

/* How a program sets the count of runtime id in its code, as a printf
 * format with one %d ("omp_set_num_threads(%d)", "torch.set_num_threads(%d)");
 * NULL when there is none. */
const char *runtimes_call(enum runtime_id id);

/* The exported variable that holds the pool size runtime id uses now,
 * read from the process's memory (collectors/elfsym.h), or NULL when the
 * runtime keeps none that can be read: OpenBLAS's pthreads build has
 * blas_cpu_number. */
const char *runtimes_pool_symbol(enum runtime_id id, const char *variant);

/* How many threads runtime id would run by default in a process with that
 * environment, affinity CPUs (the mask) and physical cores (0: unknown),
 * and why, in one sentence naming the variables and the facts it rests on
 * (into why, cap bytes).  Returns the count; 0 when the runtime has no
 * count to give (FlexiBLAS: it depends on the backend). */
int runtimes_default_count(enum runtime_id id, const char *variant, const struct runtimes_env *env,
			   int affinity, int cores, char *why, size_t cap);

/* The variable a user sets to change that runtime's pool ("OMP_NUM_THREADS",
 * "OPENBLAS_NUM_THREADS", …), given what is set: the one with precedence
 * when several are set, so that a suggestion names the one that works. */
const char *runtimes_knob(enum runtime_id id, const char *variant, const struct runtimes_env *env);

#endif
