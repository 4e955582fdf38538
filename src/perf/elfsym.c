// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * elfsym.c: the symbols and loadable segments of an ELF file, read with
 * libelf (elfutils), so that a breakpoint can be given as a variable's name
 * or as an address of the binary it lives in. Only what a watch needs is
 * read: .symtab and .dynsym entries, and PT_LOAD program headers.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

#include "ptop/perf.h"

static int elf_open(const char *path, int *fd, Elf **elf)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return -errno;
	*elf = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!*elf || elf_kind(*elf) != ELF_K_ELF) {
		elf_end(*elf);
		close(*fd);
		return -ENOEXEC;
	}
	return 0;
}

static void elf_close(int fd, Elf *elf)
{
	elf_end(elf);
	close(fd);
}

/* Every defined entry of one symbol table section; stops at a callback's non-zero. */
static int scan_table(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, perf_elf_sym_fn fn, void *ctx)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n;

	if (!data || !sh->sh_entsize)
		return 0;
	n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 1; i < n; i++) {
		struct perf_elf_sym s;
		GElf_Sym sym;
		const char *name;
		int t, ret;

		if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF)
			continue;
		t = GELF_ST_TYPE(sym.st_info);
		if (t != STT_OBJECT && t != STT_FUNC && t != STT_NOTYPE)
			continue; /* thread-local variables have no one address */
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		s.name = name;
		s.value = sym.st_value;
		s.size = sym.st_size;
		s.func = t == STT_FUNC;
		s.object = t == STT_OBJECT;
		ret = fn(ctx, &s);
		if (ret)
			return ret;
	}
	return 0;
}

int perf_elf_symbols(const char *path, perf_elf_sym_fn fn, void *ctx)
{
	Elf_Scn *scn = NULL;
	Elf *elf;
	int fd, err;

	err = elf_open(path, &fd, &elf);
	if (err)
		return err;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		err = scan_table(elf, scn, &sh, fn, ctx);
		if (err)
			break;
	}
	elf_close(fd, elf);
	return err > 0 ? 0 : err;
}

int perf_elf_loads(const char *path, struct perf_elf_load *out, size_t max, size_t *n)
{
	size_t nph;
	Elf *elf;
	int fd, err;

	*n = 0;
	err = elf_open(path, &fd, &elf);
	if (err)
		return err;
	if (elf_getphdrnum(elf, &nph)) {
		elf_close(fd, elf);
		return -ENOEXEC;
	}
	for (size_t i = 0; i < nph && *n < max; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		out[*n].vaddr = ph.p_vaddr;
		out[*n].memsz = ph.p_memsz;
		out[*n].offset = ph.p_offset;
		out[*n].filesz = ph.p_filesz;
		(*n)++;
	}
	elf_close(fd, elf);
	return 0;
}
