/* elfsym.c — an exported variable of a library, read from a process
 * (elfsym.h).  Field offsets are those of <elf.h>'s Elf64 structures. */
#include "config.h"

#include "elfsym.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

#define ELFSYM_TABLE_MAX (64u << 20) /* a .dynsym or .dynstr larger than this is not read */

int elfsym_header_parse(const unsigned char *buf, size_t len, struct elfsym_layout *l)
{
	Elf64_Ehdr h;
	if (len < sizeof(h) || memcmp(buf, ELFMAG, SELFMAG) != 0)
		return -EINVAL;
	memcpy(&h, buf, sizeof(h));
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const int order = ELFDATA2LSB;
#else
	const int order = ELFDATA2MSB;
#endif
	if (h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_ident[EI_DATA] != order)
		return -ENOTSUP;
	memset(l, 0, sizeof(*l));
	l->shoff = h.e_shoff;
	l->shnum = h.e_shnum;
	l->shentsize = h.e_shentsize;
	l->phoff = h.e_phoff;
	l->phnum = h.e_phnum;
	l->phentsize = h.e_phentsize;
	if (l->shentsize < sizeof(Elf64_Shdr) || l->phentsize < sizeof(Elf64_Phdr))
		return -EINVAL;
	return 0;
}

int elfsym_sections_parse(const unsigned char *buf, size_t len, struct elfsym_layout *l)
{
	size_t n = len / l->shentsize;
	for (size_t i = 0; i < n; i++) {
		Elf64_Shdr s;
		memcpy(&s, buf + i * l->shentsize, sizeof(s));
		if (s.sh_type != SHT_DYNSYM || s.sh_link >= n)
			continue;
		Elf64_Shdr str;
		memcpy(&str, buf + (size_t)s.sh_link * l->shentsize, sizeof(str));
		l->dynsym_off = s.sh_offset;
		l->dynsym_size = s.sh_size;
		l->dynstr_off = str.sh_offset;
		l->dynstr_size = str.sh_size;
		return 0;
	}
	return -ENOENT;
}

int elfsym_segments_parse(const unsigned char *buf, size_t len, struct elfsym_layout *l)
{
	size_t n = len / l->phentsize;
	for (size_t i = 0; i < n; i++) {
		Elf64_Phdr p;
		memcpy(&p, buf + i * l->phentsize, sizeof(p));
		if (p.p_type == PT_LOAD && p.p_offset == 0) {
			l->vaddr0 = p.p_vaddr;
			return 0;
		}
	}
	return -ENOENT;
}

int elfsym_lookup(const unsigned char *syms, size_t symlen, const char *strs, size_t nstrs,
		  const char *name, uint64_t *value)
{
	size_t want = strlen(name);
	for (size_t o = 0; o + sizeof(Elf64_Sym) <= symlen; o += sizeof(Elf64_Sym)) {
		Elf64_Sym s;
		memcpy(&s, syms + o, sizeof(s));
		int type = ELF64_ST_TYPE(s.st_info);
		if (s.st_shndx == SHN_UNDEF || (type != STT_OBJECT && type != STT_FUNC) ||
		    s.st_name >= nstrs || nstrs - s.st_name <= want)
			continue;
		if (memcmp(strs + s.st_name, name, want) == 0 && strs[s.st_name + want] == '\0') {
			*value = s.st_value;
			return 0;
		}
	}
	return -ENOENT;
}

/* Reads len bytes at off of fd into a new buffer (*out, owned by the
 * caller).  0 or -errno (-EINVAL for a short read). */
static int elfsym_pread(int fd, uint64_t off, uint64_t len, unsigned char **out)
{
	if (len == 0 || len > ELFSYM_TABLE_MAX)
		return -EINVAL;
	*out = xmalloc((size_t)len + 1);
	ssize_t n = pread(fd, *out, (size_t)len, (off_t)off);
	if (n != (ssize_t)len) {
		int e = n < 0 ? errno : EINVAL;
		free(*out);
		*out = NULL;
		return -e;
	}
	(*out)[len] = 0;
	return 0;
}

/* The symbol's offset from the file's start of loading, from the file fd. */
static int elfsym_file_lookup(int fd, const char *symbol, uint64_t *value, uint64_t *vaddr0)
{
	unsigned char head[sizeof(Elf64_Ehdr)], *sh = NULL, *ph = NULL, *syms = NULL, *strs = NULL;
	struct elfsym_layout l;
	if (pread(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head))
		return -EINVAL;
	int rc = elfsym_header_parse(head, sizeof(head), &l);
	if (rc == 0)
		rc = elfsym_pread(fd, l.shoff, (uint64_t)l.shnum * l.shentsize, &sh);
	if (rc == 0)
		rc = elfsym_sections_parse(sh, (size_t)l.shnum * l.shentsize, &l);
	if (rc == 0)
		rc = elfsym_pread(fd, l.phoff, (uint64_t)l.phnum * l.phentsize, &ph);
	if (rc == 0)
		rc = elfsym_segments_parse(ph, (size_t)l.phnum * l.phentsize, &l);
	if (rc == 0)
		rc = elfsym_pread(fd, l.dynsym_off, l.dynsym_size, &syms);
	if (rc == 0)
		rc = elfsym_pread(fd, l.dynstr_off, l.dynstr_size, &strs);
	if (rc == 0)
		rc = elfsym_lookup(syms, (size_t)l.dynsym_size, (const char *)strs,
				   (size_t)l.dynstr_size, symbol, value);
	*vaddr0 = l.vaddr0;
	free(sh);
	free(ph);
	free(syms);
	free(strs);
	return rc;
}

int elfsym_read_int(const struct sysroot *r, pid_t pid, const char *lib, uint64_t map_start,
		    uint64_t map_offset, const char *symbol, int *out)
{
	char rel[4200];
	if (lib[0] != '/')
		return -ENOENT;
	snprintf(rel, sizeof(rel), "proc/%d/root%s", (int)pid, lib);
	int fd = sysroot_openat(r, rel, O_RDONLY);
	if (fd < 0)
		return fd == -ENOENT && !sysroot_exists(r, "proc") ? -ESRCH : fd;
	uint64_t value, vaddr0;
	int rc = elfsym_file_lookup(fd, symbol, &value, &vaddr0);
	close(fd);
	if (rc < 0)
		return rc;
	/* the mapping of file offset map_offset starts at map_start: the file's
	 * first loaded byte (vaddr0, offset 0) sits map_offset before it */
	uint64_t addr = map_start - map_offset + (value - vaddr0);
	snprintf(rel, sizeof(rel), "proc/%d/mem", (int)pid);
	fd = sysroot_openat(r, rel, O_RDONLY);
	if (fd < 0)
		return fd;
	int32_t v;
	ssize_t n = pread(fd, &v, sizeof(v), (off_t)addr);
	rc = n == (ssize_t)sizeof(v) ? 0 : n < 0 ? -errno : -EIO;
	close(fd);
	if (rc == 0)
		*out = v;
	return rc;
}
