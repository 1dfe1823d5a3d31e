/* runtimes.c — thread-pool runtimes: their files and their default counts.
 *
 * Facts, each checked against the version Debian 12 ships (source package
 * read, or the Debian binary run) unless it says otherwise:
 *  - OpenBLAS 0.3.21 (pthreads build), driver/others/memory.c
 *    blas_get_cpu_number(): OPENBLAS_NUM_THREADS, else GOTO_NUM_THREADS,
 *    else OMP_NUM_THREADS (atoi, first > 0), else MAX_CPU_NUMBER (64 in
 *    Debian's build, debian/rules NUM_THREADS=64); then capped at
 *    get_num_procs() = min(configured CPUs, CPUs in the affinity mask).
 *    Nothing reads a cgroup: a 0.5-CPU quota still gets the affinity
 *    count.  The pool (count - 1 threads, the caller is the first) starts
 *    when the library loads (gotoblas_init).  Threads are never named.
 *  - OpenBLAS OpenMP build, common_thread.h num_cpu_avail(): every call
 *    follows omp_get_max_threads() (OMP_NUM_THREADS, else libgomp's
 *    default); OPENBLAS_NUM_THREADS is overridden; not capped at the CPUs.
 *  - libgomp (GCC 12), config/linux/proc.c gomp_init_num_threads(): the
 *    CPUs of the affinity mask; env.c: OMP_NUM_THREADS (first of its list)
 *    overrides, OMP_THREAD_LIMIT caps the team (parallel.c).  No cgroup.
 *  - LLVM libomp 14 (and Intel's libiomp5, the same code base),
 *    kmp_runtime.cpp __kmp_middle_initialize(): __kmp_avail_proc, the
 *    affinity mask's CPUs, unless OMP_NUM_THREADS.  Debian's libiomp5.so
 *    is a link to LLVM's libomp, so maps shows libomp.so.5.
 *  - BLIS 0.9, frame/thread/bli_thread.c bli_thread_init_rntm_from_env():
 *    BLIS_NUM_THREADS, else OMP_NUM_THREADS, else one thread (upstream
 *    source; the Debian binaries behave so).
 *  - oneMKL (not in Debian main; Developer Guide for Linux, "oneMKL-specific
 *    Environment Variables for OpenMP Threading Control"): MKL_NUM_THREADS
 *    takes precedence over OMP_NUM_THREADS; unset, the physical cores
 *    (MKL_DYNAMIC, default true, scales requests down to them).
 *  - oneTBB 2021.8, src/tbb/misc_ex.cpp initialize_hardware_concurrency_info():
 *    the affinity mask's CPUs; no variable sets it; no cgroup.
 *  - PyTorch 2.x (upstream), aten/src/ATen/ParallelCommon.cpp
 *    intraop_default_num_threads(): MKL_NUM_THREADS, else OMP_NUM_THREADS,
 *    else c10 defaultNumThreads(): the host's physical cores from cpuinfo
 *    (not the mask, not the quota).  DataLoader workers call
 *    torch.set_num_threads(1) (torch/utils/data/_utils/worker.py).
 *  - TensorFlow 2.x (upstream), core/common_runtime/process_util.cc:
 *    TF_NUM_INTRAOP_THREADS / TF_NUM_INTEROP_THREADS, else
 *    port::MaxParallelism() = the affinity mask's CPUs.
 *  - ONNX Runtime (upstream docs, threading.md): intra_op_num_threads 0 =
 *    the physical cores; set only through the session options.
 *  - OpenCV 4.6 (Debian), modules/core/src/parallel.cpp:
 *    OPENCV_FOR_THREADS_NUM, else getNumberOfCPUs(): the mask and a cgroup
 *    v1 quota, not v2's cpu.max (read from 4.10 on).
 * No runtime on Debian 12 reads a cgroup v2 quota: a Kubernetes CPU limit
 * is seen by none of them. */
#include "config.h"

#include "runtimes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* call: how the code sets the count (a printf format of one %d), the
 * lever that wins over the environment once a program uses it. */
struct runtime_info {
	const char *name, *key;
	enum runtime_kind kind;
	const char *call;
};

static const struct runtime_info runtimes_info[RUNTIME_N] = {
    [RUNTIME_OPENBLAS] = {"OpenBLAS", "openblas", RUNTIME_KIND_BLAS,
			  "openblas_set_num_threads(%d)"},
    [RUNTIME_BLIS] = {"BLIS", "blis", RUNTIME_KIND_BLAS, "bli_thread_set_num_threads(%d)"},
    [RUNTIME_MKL] = {"Intel MKL", "mkl", RUNTIME_KIND_BLAS, "mkl_set_num_threads(%d)"},
    [RUNTIME_FLEXIBLAS] = {"FlexiBLAS", "flexiblas", RUNTIME_KIND_BLAS,
			   "flexiblas_set_num_threads(%d)"},
    [RUNTIME_GOMP] = {"GNU OpenMP (libgomp)", "libgomp", RUNTIME_KIND_OPENMP,
		      "omp_set_num_threads(%d)"},
    [RUNTIME_IOMP] = {"Intel OpenMP (libiomp5)", "libiomp5", RUNTIME_KIND_OPENMP,
		      "omp_set_num_threads(%d)"},
    [RUNTIME_LLVM_OMP] = {"LLVM OpenMP (libomp)", "libomp", RUNTIME_KIND_OPENMP,
			  "omp_set_num_threads(%d)"},
    [RUNTIME_TBB] = {"oneTBB", "tbb", RUNTIME_KIND_TASKING,
		     "tbb::global_control(max_allowed_parallelism, %d)"},
    [RUNTIME_TORCH] = {"PyTorch", "torch", RUNTIME_KIND_FRAMEWORK, "torch.set_num_threads(%d)"},
    [RUNTIME_TENSORFLOW] = {"TensorFlow", "tensorflow", RUNTIME_KIND_FRAMEWORK,
			    "tf.config.threading.set_intra_op_parallelism_threads(%d)"},
    [RUNTIME_ONNXRUNTIME] = {"ONNX Runtime", "onnxruntime", RUNTIME_KIND_FRAMEWORK,
			     "SessionOptions.intra_op_num_threads = %d"},
    [RUNTIME_OPENCV] = {"OpenCV", "opencv", RUNTIME_KIND_FRAMEWORK, "cv2.setNumThreads(%d)"},
};

const char *runtimes_call(enum runtime_id id)
{
	return id < RUNTIME_N ? runtimes_info[id].call : NULL;
}

const char *runtimes_pool_symbol(enum runtime_id id, const char *variant)
{
	/* OpenBLAS 0.3.21 driver/others/blas_server.c: blas_cpu_number is the
	 * pthreads pool's size, set at load from the environment and by
	 * openblas_set_num_threads (what openblas_get_num_threads returns).
	 * The OpenMP build asks omp_get_max_threads() at every call instead. */
	if (id == RUNTIME_OPENBLAS && (!variant || strcmp(variant, "openmp") != 0) &&
	    !(variant && strcmp(variant, "sequential") == 0))
		return "blas_cpu_number";
	return NULL;
}

const char *runtimes_name(enum runtime_id id)
{
	return id < RUNTIME_N ? runtimes_info[id].name : "?";
}

const char *runtimes_key(enum runtime_id id)
{
	return id < RUNTIME_N ? runtimes_info[id].key : "?";
}

enum runtime_kind runtimes_kind(enum runtime_id id)
{
	return id < RUNTIME_N ? runtimes_info[id].kind : RUNTIME_KIND_FRAMEWORK;
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Whether base is "<stem>" followed by "-<hex>" (a wheel's hashed copy),
 * then ".so" (and a version). */
static bool lib_named(const char *base, const char *stem)
{
	size_t n = strlen(stem);
	if (strncmp(base, stem, n) != 0)
		return false;
	const char *p = base + n;
	if (*p == '-')
		for (p++; (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'); p++)
			;
	return starts(p, ".so");
}

static bool in_dir(const char *path, const char *dir)
{
	return strstr(path, dir) != NULL;
}

/* OpenBLAS's build, from the Debian directory it lives in (the file name
 * is libopenblasp-r0.3.21.so in both threaded builds: the p means
 * "threaded"); wheels ship the pthreads build. */
static const char *openblas_variant(const char *path, const char *base)
{
	if (in_dir(path, "openblas-openmp/") || in_dir(path, "openblas64-openmp/"))
		return "openmp";
	if (in_dir(path, "openblas-serial/") || in_dir(path, "openblas64-serial/") ||
	    starts(base, "libopenblas-r") || starts(base, "libopenblas64-r"))
		return "sequential";
	return "pthreads";
}

bool runtimes_match(const char *path, struct runtime_match *m)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	m->variant = "";
	if (starts(base, "libopenblas") || starts(base, "libscipy_openblas")) {
		m->id = RUNTIME_OPENBLAS;
		m->variant = openblas_variant(path, base);
		return true;
	}
	if (starts(base, "libblis") || (in_dir(path, "/blis-") && starts(base, "libblas.so"))) {
		m->id = RUNTIME_BLIS;
		m->variant = in_dir(path, "blis-openmp/") ? "openmp" : "pthreads";
		return true;
	}
	if (starts(base, "libmkl_")) {
		static const struct {
			const char *lib, *variant;
		} mkl[] = {{"libmkl_rt", ""},
			   {"libmkl_core", ""},
			   {"libmkl_intel_thread", "intel"},
			   {"libmkl_gnu_thread", "gnu"},
			   {"libmkl_sequential", "sequential"},
			   {"libmkl_tbb_thread", "tbb"}};
		for (size_t i = 0; i < sizeof(mkl) / sizeof(mkl[0]); i++)
			if (starts(base, mkl[i].lib)) {
				m->id = RUNTIME_MKL;
				m->variant = mkl[i].variant;
				return true;
			}
		return false;
	}
	if (starts(base, "libflexiblas")) {
		m->id = RUNTIME_FLEXIBLAS;
		return true;
	}
	if (lib_named(base, "libgomp")) {
		m->id = RUNTIME_GOMP;
		return true;
	}
	if (lib_named(base, "libiomp5")) {
		m->id = RUNTIME_IOMP;
		return true;
	}
	if (lib_named(base, "libomp") || lib_named(base, "libomp5")) {
		m->id = RUNTIME_LLVM_OMP;
		return true;
	}
	if ((lib_named(base, "libtbb") || lib_named(base, "libtbb12")) &&
	    !starts(base, "libtbbmalloc")) {
		m->id = RUNTIME_TBB;
		return true;
	}
	if (starts(base, "libtorch_cpu.so")) {
		m->id = RUNTIME_TORCH;
		return true;
	}
	if (starts(base, "libtensorflow_framework.so") ||
	    starts(base, "_pywrap_tensorflow_internal")) {
		m->id = RUNTIME_TENSORFLOW;
		return true;
	}
	if (starts(base, "libonnxruntime.so") || starts(base, "onnxruntime_pybind11_state")) {
		m->id = RUNTIME_ONNXRUNTIME;
		return true;
	}
	if (starts(base, "libopencv_core.so") || (starts(base, "cv2.") && strstr(base, ".so"))) {
		m->id = RUNTIME_OPENCV;
		return true;
	}
	return false;
}

/* A variable as the runtimes read it: atoi of its first list element, so
 * "4,2" is 4; unset, empty or not > 0 gives 0. */
static int env_count(const struct runtimes_env *env, const char *name, const char **raw)
{
	const char *v = env && env->get ? env->get(env->ctx, name) : NULL;
	if (raw)
		*raw = v;
	if (!v)
		return 0;
	int n = atoi(v);
	return n > 0 ? n : 0;
}

/* The first variable of names[] that is set to a count > 0. */
static int env_first(const struct runtimes_env *env, const char *const *names, const char **which)
{
	for (size_t i = 0; names[i]; i++) {
		int n = env_count(env, names[i], NULL);
		if (n > 0) {
			*which = names[i];
			return n;
		}
	}
	*which = NULL;
	return 0;
}

#define OPENBLAS_MAX_THREADS 64 /* Debian's build: NUM_THREADS=64 */

static int count_openblas(const char *variant, const struct runtimes_env *env, int affinity,
			  char *why, size_t cap)
{
	static const char *const vars[] = {"OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS",
					   "OMP_NUM_THREADS", NULL};
	const char *which;
	if (strcmp(variant, "sequential") == 0) {
		snprintf(why, cap, "OpenBLAS (sequential build): one thread, no pool");
		return 1;
	}
	if (strcmp(variant, "openmp") == 0) {
		int n = env_count(env, "OMP_NUM_THREADS", NULL);
		if (n)
			snprintf(why, cap,
				 "OpenBLAS (OpenMP build) follows OpenMP: OMP_NUM_THREADS=%d, not "
				 "capped at the %d CPUs (OPENBLAS_NUM_THREADS is ignored)",
				 n, affinity);
		else
			snprintf(
			    why, cap,
			    "OpenBLAS (OpenMP build) follows OpenMP: OMP_NUM_THREADS unset, so "
			    "the %d CPUs of the affinity mask; a quota is not seen",
			    affinity);
		return n ? n : affinity;
	}
	int asked = env_first(env, vars, &which);
	int n = asked ? asked : OPENBLAS_MAX_THREADS;
	int cpus = affinity > 0 ? affinity : n;
	if (n > cpus)
		n = cpus;
	if (n > OPENBLAS_MAX_THREADS)
		n = OPENBLAS_MAX_THREADS;
	if (asked && asked > n)
		snprintf(
		    why, cap,
		    "OpenBLAS (pthreads) pool of %d: %s=%d asked for %d, capped at the %d CPUs "
		    "of the affinity mask; a quota is not seen",
		    n, which, asked, asked, cpus);
	else if (asked)
		snprintf(why, cap, "OpenBLAS (pthreads) pool of %d: %s=%d", n, which, asked);
	else
		snprintf(
		    why, cap,
		    "OpenBLAS (pthreads) pool of %d: OPENBLAS_NUM_THREADS, GOTO_NUM_THREADS and "
		    "OMP_NUM_THREADS unset, so the %d CPUs of the affinity mask; a quota is "
		    "not seen",
		    n, cpus);
	return n;
}

static int count_openmp(const char *who, const struct runtimes_env *env, int affinity, char *why,
			size_t cap)
{
	int n = env_count(env, "OMP_NUM_THREADS", NULL);
	int limit = env_count(env, "OMP_THREAD_LIMIT", NULL);
	int got = n ? n : affinity;
	if (limit && got > limit)
		got = limit;
	if (n)
		snprintf(why, cap, "%s: %d thread%s per parallel region (OMP_NUM_THREADS=%d%s)",
			 who, got, got == 1 ? "" : "s", n,
			 limit && n > limit ? ", OMP_THREAD_LIMIT caps it" : "");
	else
		snprintf(
		    why, cap,
		    "%s: OMP_NUM_THREADS unset, so %d threads, the CPUs of the affinity mask; a "
		    "quota is not seen",
		    who, got);
	return got;
}

int runtimes_default_count(enum runtime_id id, const char *variant, const struct runtimes_env *env,
			   int affinity, int cores, char *why, size_t cap)
{
	const char *which;
	int n;
	if (cap)
		why[0] = '\0';
	if (!variant)
		variant = "";
	switch (id) {
	case RUNTIME_OPENBLAS:
		return count_openblas(variant, env, affinity, why, cap);
	case RUNTIME_GOMP:
		return count_openmp("libgomp", env, affinity, why, cap);
	case RUNTIME_IOMP:
	case RUNTIME_LLVM_OMP:
		return count_openmp(id == RUNTIME_IOMP ? "libiomp5" : "libomp", env, affinity, why,
				    cap);
	case RUNTIME_BLIS: {
		static const char *const vars[] = {"BLIS_NUM_THREADS", "OMP_NUM_THREADS", NULL};
		n = env_first(env, vars, &which);
		if (n)
			snprintf(why, cap, "BLIS: %d threads (%s=%d), not capped at the CPUs", n,
				 which, n);
		else
			snprintf(why, cap,
				 "BLIS: single-threaded (BLIS_NUM_THREADS and "
				 "OMP_NUM_THREADS unset)");
		return n ? n : 1;
	}
	case RUNTIME_MKL: {
		static const char *const vars[] = {"MKL_NUM_THREADS", "OMP_NUM_THREADS", NULL};
		if (strcmp(variant, "sequential") == 0) {
			snprintf(why, cap, "MKL (sequential layer): one thread");
			return 1;
		}
		n = env_first(env, vars, &which);
		int c = cores > 0 ? cores : affinity;
		if (n)
			snprintf(why, cap,
				 "MKL: %d threads (%s=%d; MKL_NUM_THREADS wins over "
				 "OMP_NUM_THREADS)",
				 n, which, n);
		else
			snprintf(why, cap,
				 "MKL: MKL_NUM_THREADS and OMP_NUM_THREADS unset, so %d, "
				 "the physical cores",
				 c);
		return n ? n : c;
	}
	case RUNTIME_TBB:
		snprintf(
		    why, cap,
		    "oneTBB: %d workers at most, the CPUs of the affinity mask (no variable; a "
		    "quota is not seen)",
		    affinity);
		return affinity;
	case RUNTIME_TORCH: {
		static const char *const vars[] = {"MKL_NUM_THREADS", "OMP_NUM_THREADS", NULL};
		n = env_first(env, vars, &which);
		int c = cores > 0 ? cores : affinity;
		if (n)
			snprintf(why, cap,
				 "PyTorch: %d intra-op threads from %s=%d (unless the "
				 "program calls torch.set_num_threads)",
				 n, which, n);
		else
			snprintf(
			    why, cap,
			    "PyTorch: OMP_NUM_THREADS unset, so %d intra-op threads, the host's "
			    "physical cores (not the mask, not the quota), unless the program "
			    "calls torch.set_num_threads",
			    c);
		return n ? n : c; /* its OpenMP runtime's team runs them */
	}
	case RUNTIME_TENSORFLOW:
		n = env_count(env, "TF_NUM_INTRAOP_THREADS", NULL);
		if (n)
			snprintf(why, cap,
				 "TensorFlow: %d intra-op threads (TF_NUM_INTRAOP_THREADS)", n);
		else
			snprintf(why, cap,
				 "TensorFlow: TF_NUM_INTRAOP_THREADS unset, so %d intra-op and %d "
				 "inter-op threads, the affinity mask's CPUs; a quota is not seen",
				 affinity, affinity);
		return n ? n : affinity;
	case RUNTIME_ONNXRUNTIME:
		snprintf(why, cap,
			 "ONNX Runtime: intra_op_num_threads 0 means %d, the physical cores (a "
			 "session option; no variable)",
			 cores > 0 ? cores : affinity);
		return cores > 0 ? cores : affinity;
	case RUNTIME_OPENCV:
		n = env_count(env, "OPENCV_FOR_THREADS_NUM", NULL);
		snprintf(
		    why, cap,
		    n ? "OpenCV: %d threads (OPENCV_FOR_THREADS_NUM)"
		      : "OpenCV: %d threads, the affinity mask's CPUs (4.6 reads only a v1 quota)",
		    n ? n : affinity);
		return n ? n : affinity;
	case RUNTIME_FLEXIBLAS:
	case RUNTIME_N:
		break;
	}
	snprintf(why, cap, "%s: the count depends on its backend", runtimes_name(id));
	return 0;
}

const char *runtimes_knob(enum runtime_id id, const char *variant, const struct runtimes_env *env)
{
	switch (id) {
	case RUNTIME_OPENBLAS:
		if (variant && strcmp(variant, "openmp") == 0)
			return "OMP_NUM_THREADS";
		if (env_count(env, "OPENBLAS_NUM_THREADS", NULL))
			return "OPENBLAS_NUM_THREADS";
		if (env_count(env, "GOTO_NUM_THREADS", NULL))
			return "GOTO_NUM_THREADS";
		if (env_count(env, "OMP_NUM_THREADS", NULL))
			return "OMP_NUM_THREADS";
		return "OPENBLAS_NUM_THREADS";
	case RUNTIME_BLIS:
		return env_count(env, "BLIS_NUM_THREADS", NULL) ? "BLIS_NUM_THREADS"
								: "OMP_NUM_THREADS";
	case RUNTIME_MKL:
	case RUNTIME_TORCH:
		return env_count(env, "MKL_NUM_THREADS", NULL) ? "MKL_NUM_THREADS"
							       : "OMP_NUM_THREADS";
	case RUNTIME_GOMP:
	case RUNTIME_IOMP:
	case RUNTIME_LLVM_OMP:
		return "OMP_NUM_THREADS";
	case RUNTIME_TENSORFLOW:
		return "TF_NUM_INTRAOP_THREADS";
	case RUNTIME_OPENCV:
		return "OPENCV_FOR_THREADS_NUM";
	case RUNTIME_TBB:
	case RUNTIME_ONNXRUNTIME:
	case RUNTIME_FLEXIBLAS:
	case RUNTIME_N:
		break;
	}
	return NULL;
}
