/* bpf-load.c — load and attach the BPF collector's programs (bpf-tasks.h).
 *
 * The programs come embedded in bpftool's skeleton (threadlab.skel.h,
 * generated at build time from bpf/threadlab.bpf.c), so there is no object
 * file to find at run time.  Before loading, the reasons a load would fail
 * for are looked for first, so that the fallback note names the cause a
 * person can act on (no BTF, no capability) rather than the verifier's
 * log.  libbpf's own messages never reach the terminal: the last one is
 * kept for the reason of a failure nothing else explains. */
#include "config.h"

#include "bpf-load-impl.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/threadlab.skel.h"
#include "xalloc.h"
#include "heap-huge.h"
#include "bpf-load.h"

bool bpf_load_built(void)
{
	return true;
}

/* libbpf's last message, for a failure without a better reason. */
static char bpf_load_log[256];

static int bpf_load_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	char line[sizeof(bpf_load_log)];
	vsnprintf(line, sizeof(line), fmt, ap);
	line[strcspn(line, "\n")] = '\0';
	if (line[0])
		memcpy(bpf_load_log, line, sizeof(line));
	return 0;
}

/* Whether the effective set holds cap (capget: no library for one bit). */
static bool bpf_load_has_cap(int cap)
{
	struct __user_cap_header_struct h = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
	struct __user_cap_data_struct d[2];
	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d) != 0)
		return false;
	return (d[cap / 32].effective >> (cap % 32)) & 1u;
}

/* A reason the load cannot work, found before trying; 0 when none. */
static int bpf_load_precheck(char *why, size_t whylen)
{
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		snprintf(why, whylen,
			 "no kernel BTF (/sys/kernel/btf/vmlinux): the kernel needs "
			 "CONFIG_DEBUG_INFO_BTF");
		return -ENOENT;
	}
	bool admin = bpf_load_has_cap(CAP_SYS_ADMIN);
	if (!admin && !(bpf_load_has_cap(CAP_BPF) && bpf_load_has_cap(CAP_PERFMON))) {
		snprintf(why, whylen, "not root and no CAP_BPF, CAP_PERFMON");
		return -EPERM;
	}
	return 0;
}

static void bpf_load_failed(int err, const char *step, char *why, size_t whylen)
{
	if (err == -ENOSYS)
		snprintf(why, whylen, "BPF disabled: the kernel has no bpf() system call");
	else if (err == -EPERM)
		snprintf(why, whylen, "BPF disabled by the kernel's policy (%s: %s)", step,
			 strerror(-err));
	else if (bpf_load_log[0])
		snprintf(why, whylen, "the BPF programs did not %s: %s", step, bpf_load_log);
	else
		snprintf(why, whylen, "the BPF programs did not %s: %s", step, strerror(-err));
}

/* libbpf 1.1 reads the kernel's BTF (/sys/kernel/btf/vmlinux, 5.5 MB here)
 * into fresh memory and copies it into more: on a virtual machine, where a
 * page fault costs about 10 us, some 2,700 faults were half of the load
 * (docs/figures.md, "Loading the programs"): it is made on huge pages
 * (heap-huge.h). */
int bpf_load_tasks(unsigned max_threads, struct bpf_tasks **out, char *why, size_t whylen)
{
	*out = NULL;
	why[0] = '\0';
	int rc = bpf_load_precheck(why, whylen);
	if (rc < 0)
		return rc;
	bpf_load_log[0] = '\0';
	libbpf_set_print(bpf_load_print);
	struct threadlab_bpf *skel = threadlab_bpf__open();
	if (!skel) {
		rc = -errno;
		bpf_load_failed(rc, "open", why, whylen);
		return rc;
	}
	unsigned cap = max_threads ? max_threads : bpf_map__max_entries(skel->maps.hist);
	rc = bpf_map__set_max_entries(skel->maps.hist, cap);
	if (rc == 0)
		rc = bpf_map__set_max_entries(skel->maps.free_slots, cap);
	if (rc == 0) {
		heap_huge_begin();
		rc = threadlab_bpf__load(skel);
		heap_huge_end();
		if (rc < 0)
			bpf_load_failed(rc, "load", why, whylen);
	}
	if (rc == 0 && (rc = threadlab_bpf__attach(skel)) < 0)
		bpf_load_failed(rc, "attach", why, whylen);
	if (rc < 0) {
		threadlab_bpf__destroy(skel);
		return rc;
	}
	skel->bss->capacity = cap;
	struct bpf_tasks *b = xcalloc(1, sizeof(*b));
	b->skel = skel;
	b->capacity = cap;
	const char *fail = getenv("THREADLAB_BPF_FAIL_READ");
	if (fail)
		b->fail_read = strtoull(fail, NULL, 10);
	*out = b;
	return 0;
}

void bpf_load_free(struct bpf_tasks *b)
{
	if (!b)
		return;
	threadlab_bpf__destroy(b->skel);
	free(b->traced);
	free(b);
}

uint64_t bpf_load_dropped(const struct bpf_tasks *b)
{
	return __atomic_load_n(&b->skel->bss->dropped, __ATOMIC_RELAXED);
}

unsigned bpf_load_capacity(const struct bpf_tasks *b)
{
	return b->capacity;
}

uint64_t bpf_load_reads(const struct bpf_tasks *b)
{
	return b->reads;
}

uint64_t bpf_load_generation(const struct bpf_tasks *b)
{
	return __atomic_load_n(&b->skel->bss->gen, __ATOMIC_SEQ_CST);
}

int bpf_load_iter_fd(struct bpf_tasks *b)
{
	b->reads++;
	if (b->fail_read && b->reads >= b->fail_read)
		return -EIO;
	int fd = bpf_iter_create(bpf_link__fd(b->skel->links.tl_tasks));
	return fd < 0 ? -errno : fd;
}

int bpf_load_hist_fd(const struct bpf_tasks *b)
{
	return bpf_map__fd(b->skel->maps.hist);
}

int bpf_load_slots_used(const struct bpf_tasks *b)
{
	return __atomic_load_n(&b->skel->bss->slots_used, __ATOMIC_RELAXED);
}

void bpf_load_trace(struct bpf_tasks *b, pid_t tgid, int delta)
{
	if (tgid <= 0 || (unsigned)tgid >= TL_PID_LIMIT)
		return;
	size_t lo = 0, hi = b->ntraced;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (b->traced[mid].tgid < tgid)
			lo = mid + 1;
		else
			hi = mid;
	}
	bool found = lo < b->ntraced && b->traced[lo].tgid == tgid;
	if (!found && delta < 0)
		return;
	if (!found) {
		b->traced = xreallocarray_grow(b->traced, &b->traced_cap, b->ntraced + 1,
					       sizeof(*b->traced));
		memmove(&b->traced[lo + 1], &b->traced[lo], (b->ntraced - lo) * sizeof(*b->traced));
		b->traced[lo] = (struct bpf_tasks_traced){tgid, 0};
		b->ntraced++;
	}
	b->traced[lo].readers += delta;
	__u64 bit = 1ull << (tgid & 63), *w = &b->skel->bss->traced_bits[tgid >> 6];
	if (b->traced[lo].readers > 0) {
		__atomic_or_fetch(w, bit, __ATOMIC_RELAXED);
		return;
	}
	__atomic_and_fetch(w, ~bit, __ATOMIC_RELAXED);
	memmove(&b->traced[lo], &b->traced[lo + 1], (b->ntraced - lo - 1) * sizeof(*b->traced));
	b->ntraced--;
}

uint64_t bpf_load_begin(struct bpf_tasks *b, uint64_t since, pid_t root, bool tree, bool all,
			const struct bpf_tasks_cadence *c)
{
	struct threadlab_bpf__bss *v = b->skel->bss;
	v->lite = c && c->lite;
	if (v->lite) {
		v->due_lo = c->due_lo;
		v->due_span = c->due_span;
		v->new_after = c->new_after;
		memset(v->want_bits, 0, sizeof(v->want_bits));
		for (size_t i = 0; i < c->nwant; i++) {
			uint32_t tid = c->want[i];
			v->want_bits[(tid / 64) % (TL_WANT_BITS / 64)] |= 1ull << (tid % 64);
		}
	}
	uint64_t g = since == UINT64_MAX ? __atomic_load_n(&v->gen, __ATOMIC_SEQ_CST)
					 : __atomic_add_fetch(&v->gen, 1, __ATOMIC_SEQ_CST);
	v->since_gen = since;
	v->root_tgid = (__u32)root;
	v->want_tree = tree;
	v->want_all = all;
	return g;
}

void bpf_load_trace_all(struct bpf_tasks *b, bool on)
{
	b->readers_all += on ? 1 : -1;
	b->skel->bss->trace_all = b->readers_all > 0;
}
