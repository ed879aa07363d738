// SPDX-License-Identifier: GPL-2.0
/*
 * TASK_DIAG_SHOW_VMA_BUILD_ID: each mapping of an ELF file carries the
 * build ID of its notes, of the file that is mapped rather than the one
 * its path names now, across messages; other mappings carry none, and a
 * mapped socket is never read for one.
 */
#include <arpa/inet.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "td_test.h"

#define SHOW_IDS	(TASK_DIAG_SHOW_VMA | TASK_DIAG_SHOW_VMA_BUILD_ID)
#define NR_MAPS		40	/* more than one 4 KiB read holds */

/* The GNU build ID in the PT_NOTE segment @ph: its length, 0 if none */
static int note_build_id(int fd, const Elf64_Phdr *ph, __u8 *id)
{
	size_t n = ph->p_filesz < 4096 ? ph->p_filesz : 4096;
	size_t off = 0, name, desc;
	char buf[4096];
	Elf64_Nhdr nh;

	if (pread(fd, buf, n, ph->p_offset) != (ssize_t)n)
		return -1;
	while (off + sizeof(nh) <= n) {
		memcpy(&nh, buf + off, sizeof(nh));
		name = off + sizeof(nh);
		desc = name + ((nh.n_namesz + 3) & ~3U);
		if (desc + nh.n_descsz > n)
			break;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(buf + name, "GNU", 4) &&
		    nh.n_descsz <= TASK_DIAG_BUILD_ID_MAX) {
			memcpy(id, buf + desc, nh.n_descsz);
			return nh.n_descsz;
		}
		off = desc + ((nh.n_descsz + 3) & ~3U);
	}
	return 0;
}

/* The build ID of the ELF64 file @path, read from its notes: its length */
static int elf_build_id(const char *path, __u8 *id)
{
	int fd, i, len = -1;
	Elf64_Ehdr eh;
	Elf64_Phdr ph;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64)
		goto out;
	len = 0;
	for (i = 0; i < eh.e_phnum && !len; i++) {
		if (pread(fd, &ph, sizeof(ph),
			  eh.e_phoff + (off_t)i * eh.e_phentsize) != sizeof(ph))
			len = -1;
		else if (ph.p_type == PT_NOTE)
			len = note_build_id(fd, &ph, id);
	}
out:
	close(fd);
	return len;
}

static int copy_file(const char *from, const char *to)
{
	int in, out, ret = -1;
	char buf[65536];
	ssize_t n;

	in = open(from, O_RDONLY | O_CLOEXEC);
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (in < 0 || out < 0)
		goto out;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			goto out;
	ret = n ? -1 : 0;
out:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return ret;
}

/* The VMA of @t that holds @addr */
static struct td_vma *find_vma(struct td_task *t, const void *addr)
{
	unsigned long a = (unsigned long)addr;
	size_t i;

	for (i = 0; i < t->nr_vmas; i++)
		if (t->vmas[i].rec.start <= a && a < t->vmas[i].rec.end)
			return &t->vmas[i];
	return NULL;
}

static void dump_self(struct __test_metadata *_metadata, struct td_dump *d,
		      __u64 show, size_t bufsize)
{
	ASSERT_EQ(0, td_dump(d, show, TASK_DIAG_DUMP_ONE, getpid(), bufsize));
	TD_EXPECT_CLEAN(d);
	ASSERT_EQ(1U, d->nr_tasks);
}

/* The executable mappings: each file's own build ID, none for the rest */
TEST(exec_mappings_carry_their_files_build_ids)
{
	__u8 id[TASK_DIAG_BUILD_ID_MAX];
	struct td_vma *v;
	struct td_dump d;
	size_t i, n = 0;
	int len;

	TD_SKIP_IF_MISSING();
	dump_self(_metadata, &d, SHOW_IDS | TASK_DIAG_SHOW_VMA_EXEC, TD_BUF_BIG);
	for (i = 0; i < d.tasks[0].nr_vmas; i++) {
		v = &d.tasks[0].vmas[i];
		if (!v->name || v->name[0] != '/') {
			EXPECT_EQ(0U, v->build_id_len);
			EXPECT_EQ(0, v->rec.build_id_off);
			continue;
		}
		len = elf_build_id(v->name, id);
		ASSERT_LT(0, len) TH_LOG("%s has no build ID", v->name);
		EXPECT_EQ((unsigned int)len, v->build_id_len)
			TH_LOG("%s", v->name);
		EXPECT_EQ(0, memcmp(id, v->build_id, len)) TH_LOG("%s", v->name);
		n++;
	}
	EXPECT_LE(2U, n);		/* this program and libc at least */
	td_dump_free(&d);
}

/*
 * The ID of the file mapped, not of the file its path names after it was
 * replaced (a library upgraded under a running process)
 */
TEST(the_id_of_the_mapped_file_not_of_its_path)
{
	char path[] = "/tmp/td_bid_XXXXXX", other[] = "/tmp/td_bid_XXXXXX";
	__u8 self_id[TASK_DIAG_BUILD_ID_MAX], id[TASK_DIAG_BUILD_ID_MAX];
	long pg = sysconf(_SC_PAGESIZE);
	const char *lib = NULL;
	struct td_vma *v;
	struct td_dump d;
	int fd, len;
	size_t i;
	void *p;

	TD_SKIP_IF_MISSING();
	len = elf_build_id("/proc/self/exe", self_id);
	ASSERT_LT(0, len);

	/* another ELF file with a build ID: a library this program maps */
	dump_self(_metadata, &d, SHOW_IDS | TASK_DIAG_SHOW_VMA_EXEC, TD_BUF_BIG);
	for (i = 0; i < d.tasks[0].nr_vmas && !lib; i++) {
		v = &d.tasks[0].vmas[i];
		if (v->name && v->name[0] == '/' && v->build_id_len &&
		    memcmp(v->build_id, self_id, len))
			lib = strdup(v->name);
	}
	td_dump_free(&d);
	ASSERT_NE(NULL, lib);

	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, copy_file("/proc/self/exe", path));
	fd = mkstemp(other);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, copy_file(lib, other));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	p = mmap(NULL, pg, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, rename(other, path));	/* the path names the library */

	dump_self(_metadata, &d, SHOW_IDS, TD_BUF_BIG);
	v = find_vma(&d.tasks[0], p);
	ASSERT_NE(NULL, v);
	EXPECT_EQ((unsigned int)len, v->build_id_len);
	EXPECT_EQ(0, memcmp(self_id, v->build_id, len));
	EXPECT_LT(0, elf_build_id(path, id));
	EXPECT_NE(0, memcmp(id, v->build_id, len));
	td_dump_free(&d);
	munmap(p, pg);
	unlink(path);
	free((void *)lib);
}

/*
 * Many mappings of one file, in one message and split across messages; an
 * anonymous mapping and a file that is not ELF in between get none, and
 * only the former no room for one.
 */
TEST(every_build_id_across_messages)
{
	static const size_t bufs[] = { TD_BUF_BIG, TD_BUF_SMALL };
	char text[] = "/tmp/td_bid_XXXXXX", xs[4096];
	__u8 id[TASK_DIAG_BUILD_ID_MAX];
	long pg = sysconf(_SC_PAGESIZE);
	void *maps[NR_MAPS], *anon, *txt;
	struct td_vma *v;
	struct td_dump d;
	size_t b, i;
	int fd, len;

	TD_SKIP_IF_MISSING();
	len = elf_build_id("/proc/self/exe", id);
	ASSERT_LT(0, len);
	fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	for (i = 0; i < NR_MAPS; i++) {	/* offset 0 each: never merged */
		maps[i] = mmap(NULL, pg, PROT_READ, MAP_PRIVATE, fd, 0);
		ASSERT_NE(MAP_FAILED, maps[i]);
	}
	close(fd);
	anon = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, anon);
	fd = mkstemp(text);
	ASSERT_LE(0, fd);
	memset(xs, 'x', sizeof(xs));
	ASSERT_EQ((ssize_t)sizeof(xs), pwrite(fd, xs, sizeof(xs), 0));
	txt = mmap(NULL, sizeof(xs), PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	ASSERT_NE(MAP_FAILED, txt);

	for (b = 0; b < ARRAY_SIZE(bufs); b++) {
		dump_self(_metadata, &d, SHOW_IDS, bufs[b]);
		for (i = 0; i < NR_MAPS; i++) {
			v = find_vma(&d.tasks[0], maps[i]);
			ASSERT_NE(NULL, v) TH_LOG("mapping %zu missing", i);
			EXPECT_EQ((unsigned int)len, v->build_id_len);
			EXPECT_EQ(0, memcmp(id, v->build_id, len))
				TH_LOG("mapping %zu, read size %zu", i, bufs[b]);
		}
		v = find_vma(&d.tasks[0], anon);
		ASSERT_NE(NULL, v);
		EXPECT_EQ(0U, v->build_id_len);
		EXPECT_EQ(sizeof(struct task_diag_vma), v->rec.vma_len);
		v = find_vma(&d.tasks[0], txt);
		ASSERT_NE(NULL, v);
		EXPECT_EQ(0U, v->build_id_len);
		EXPECT_STREQ(text, v->name);
		if (bufs[b] == TD_BUF_SMALL)
			EXPECT_LT(1U, d.tasks[0].nmsgs);
		td_dump_free(&d);
	}
	for (i = 0; i < NR_MAPS; i++)
		munmap(maps[i], pg);
	munmap(anon, pg);
	munmap(txt, sizeof(xs));
	unlink(text);
}

/*
 * The receive ring of a packet socket, mapped: a file without page cache,
 * whose read would wait for packets.  Its record comes at once, without a
 * build ID.
 */
TEST(a_mapped_socket_is_not_read)
{
	struct tpacket_req req = {
		.tp_block_size = 4096, .tp_block_nr = 1,
		.tp_frame_size = 2048, .tp_frame_nr = 2,
	};
	struct td_vma *v;
	struct td_dump d;
	void *ring;
	int sk;

	TD_SKIP_IF_MISSING();
	TD_SKIP_IF_NOT_ROOT();
	sk = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	ASSERT_LE(0, sk) TH_LOG("packet socket: %s (CONFIG_PACKET?)",
				strerror(errno));
	ASSERT_EQ(0, setsockopt(sk, SOL_PACKET, PACKET_RX_RING, &req,
				sizeof(req)));
	ring = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, sk, 0);
	ASSERT_NE(MAP_FAILED, ring);

	dump_self(_metadata, &d, SHOW_IDS, TD_BUF_BIG);
	v = find_vma(&d.tasks[0], ring);
	ASSERT_NE(NULL, v);
	EXPECT_EQ(0U, v->build_id_len);
	td_dump_free(&d);
	munmap(ring, 4096);
	close(sk);
}

TEST_HARNESS_MAIN
