/* elfsym.h — a variable a shared library exports, read from a running
 * process: the library's dynamic symbol table gives its offset, the
 * process's maps where the library sits, proc/PID/mem the value.
 *
 * Used for settings a runtime keeps in an exported variable, such as
 * OpenBLAS's thread count (blas_cpu_number, what openblas_get_num_threads
 * returns, whatever set it: the environment or openblas_set_num_threads in
 * the code).  The library file is opened as the process sees it
 * (proc/PID/root/PATH, so a container's file is the container's); reading
 * proc/PID/mem needs the ptrace attach check: the target's user (where
 * Yama allows) or root.  Only 64-bit little- or big-endian ELF of the
 * host's byte order is read.  The parsers are pure functions of buffers. */
#ifndef THREADLAB_ELFSYM_H
#define THREADLAB_ELFSYM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sysroot.h"

/* Where the parts of an ELF file are (from its header and section table). */
struct elfsym_layout {
	uint64_t shoff; /* section headers: offset, count, entry size */
	uint16_t shnum, shentsize;
	uint64_t phoff; /* program headers */
	uint16_t phnum, phentsize;
	uint64_t dynsym_off, dynsym_size; /* .dynsym */
	uint64_t dynstr_off, dynstr_size; /* the string table it links to */
	uint64_t vaddr0;		  /* p_vaddr of the PT_LOAD at file offset 0 */
};

/* Pure: the ELF header (at least 64 bytes) into l's shoff/phoff fields.
 * 0, -EINVAL (not ELF), -ENOTSUP (not 64-bit, or another byte order). */
int elfsym_header_parse(const unsigned char *buf, size_t len, struct elfsym_layout *l);
/* Pure: the section headers (shnum x shentsize bytes) into l's dynsym and
 * dynstr fields.  0, or -ENOENT when there is no .dynsym. */
int elfsym_sections_parse(const unsigned char *buf, size_t len, struct elfsym_layout *l);
/* Pure: the program headers into l->vaddr0.  0, or -ENOENT. */
int elfsym_segments_parse(const unsigned char *buf, size_t len, struct elfsym_layout *l);
/* Pure: the value (st_value) of the defined object or function symbol
 * name in a .dynsym (syms) with its string table (strs).  0 or -ENOENT. */
int elfsym_lookup(const unsigned char *syms, size_t symlen, const char *strs, size_t nstrs,
		  const char *name, uint64_t *value);

/* The 4-byte int that symbol holds in process pid, whose maps put the
 * file lib's offset map_offset at address map_start.  0, or -errno:
 * -ENOENT (no such symbol or file), -EACCES / -EPERM (may not read the
 * process's memory), -ESRCH (gone), -ENOTSUP (not a 64-bit ELF). */
int elfsym_read_int(const struct sysroot *r, pid_t pid, const char *lib, uint64_t map_start,
		    uint64_t map_offset, const char *symbol, int *out);

#endif
