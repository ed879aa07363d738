// SPDX-License-Identifier: GPL-2.0
/*
 * The MMAP2 events of a process from the PROCMAP_QUERY ioctl of its maps
 * file (Linux 6.11): one ioctl per mapping, asking for the executable ones
 * only unless data mappings are wanted, and for the build ID when the
 * events carry it, instead of parsing the text of /proc/PID/task/PID/maps.
 * The tasks still come from the /proc walk.  Selected by the
 * synthesize.procmap-query config key, as a peer of the /proc walk and of
 * task_diag; a kernel without the ioctl gets the text parsed.
 *
 * The ioctl finds the VMAs of the process's mm only: not the gate area
 * that the text lists last, [vsyscall] on x86_64, the same in every 64-bit
 * process.  It is taken once from perf's own maps and sent after the
 * mappings of each process that has one above 4 GiB: 32-bit processes (no
 * gate area) have none there, 64-bit ones have their stack and vDSO there.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/fs.h>

#include "build-id.h"
#include "debug.h"
#include "event.h"
#include "machine.h"
#include "symbol.h"
#include "synthetic-procmap-query.h"
#include "time-utils.h"

bool perf_synthesize_procmap_query;

/* The gate area as /proc/self/maps lists it */
static struct {
	pthread_once_t		once;
	bool			present;
	struct procmap_query	q;
} gate = { .once = PTHREAD_ONCE_INIT };

static void gate__read(void)
{
	char line[256], perms[5], name[32];
	unsigned long long start, end;
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx %4s %*s %*s %*s %31s", &start, &end, perms,
			   name) != 4 || strcmp(name, "[vsyscall]"))
			continue;
		gate.q.vma_start = start;
		gate.q.vma_end = end;
		gate.q.vma_flags = (perms[0] == 'r' ? PROCMAP_QUERY_VMA_READABLE : 0) |
				   (perms[1] == 'w' ? PROCMAP_QUERY_VMA_WRITABLE : 0) |
				   (perms[2] == 'x' ? PROCMAP_QUERY_VMA_EXECUTABLE : 0);
		gate.q.vma_name_size = sizeof("[vsyscall]");
		gate.present = true;
	}
	if (f)
		fclose(f);
}

/**
 * perf_procmap_query__available - whether the kernel answers PROCMAP_QUERY
 *
 * Return: true on Linux 6.11 and later, false when the ioctl is unknown.
 */
bool perf_procmap_query__available(void)
{
	struct procmap_query q = { .size = sizeof(q) };
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = ioctl(fd, PROCMAP_QUERY, &q) == 0 || errno != ENOTTY;
	close(fd);
	return ok;
}

/* Fill @event's mapping from @q; its name is already in the event */
static void mmap2_from_query(struct perf_record_mmap2 *event,
			     const struct procmap_query *q)
{
	event->start = q->vma_start;
	event->len = q->vma_end;	/* the sender subtracts the start */
	event->pgoff = q->vma_offset;
	event->maj = q->dev_major;
	event->min = q->dev_minor;
	event->ino = q->inode;
	event->prot = 0;
	if (q->vma_flags & PROCMAP_QUERY_VMA_READABLE)
		event->prot |= PROT_READ;
	if (q->vma_flags & PROCMAP_QUERY_VMA_WRITABLE)
		event->prot |= PROT_WRITE;
	if (q->vma_flags & PROCMAP_QUERY_VMA_EXECUTABLE)
		event->prot |= PROT_EXEC;
	event->flags = q->vma_flags & PROCMAP_QUERY_VMA_SHARED ? MAP_SHARED : MAP_PRIVATE;
	if (!q->vma_name_size)
		event->filename[0] = '\0';
}

/* The next mapping at or after @addr; false at the end or on an error */
static bool query_next(int fd, __u64 addr, bool mmap_data, struct procmap_query *q,
		       char *name, size_t name_size, struct build_id *bid, int *err)
{
	memset(q, 0, sizeof(*q));
	q->size = sizeof(*q);
	q->query_flags = PROCMAP_QUERY_COVERING_OR_NEXT_VMA;
	if (!mmap_data)
		q->query_flags |= PROCMAP_QUERY_VMA_EXECUTABLE;
	q->query_addr = addr;
	q->vma_name_addr = (unsigned long)name;
	q->vma_name_size = name_size;
	if (bid) {
		q->build_id_addr = (unsigned long)bid->data;
		q->build_id_size = sizeof(bid->data);
	}
	if (ioctl(fd, PROCMAP_QUERY, q) == 0) {
		if (bid)
			bid->size = q->build_id_size;
		return true;
	}
	/* no more mappings; or none at all, the process exited (as its text) */
	*err = errno == ENOENT || errno == ESRCH ? 0 : -errno;
	return false;
}

/**
 * perf_event__synthesize_gate_area - the MMAP2 event of the gate area
 * @tool: passed to @process
 * @event: room for one MMAP2 event and the machine's sample id
 * @pid: the thread group leader whose maps file lists it last
 * @tgid: its process
 * @process: sends the event
 * @machine: whose id_hdr_size the event has room for
 * @mmap_data: as for perf_event__synthesize_mmap2_entry()
 *
 * For the sources of a process's mappings that see its VMAs only: the
 * gate area ([vsyscall] on x86_64) that its maps file lists after them,
 * taken from perf's own, for a caller that knows the process has one.
 *
 * Return: 0 when sent or there is none, -1 when @process failed.
 */
int perf_event__synthesize_gate_area(const struct perf_tool *tool,
				     union perf_event *event, pid_t pid,
				     pid_t tgid, perf_event__handler_t process,
				     struct machine *machine, bool mmap_data)
{
	pthread_once(&gate.once, gate__read);
	if (!gate.present)
		return 0;
	memcpy(event->mmap2.filename, "[vsyscall]", sizeof("[vsyscall]"));
	mmap2_from_query(&event->mmap2, &gate.q);
	return perf_event__synthesize_mmap2_entry(tool, event, pid, tgid, process, machine,
						  mmap_data, false, NULL);
}

/**
 * perf_event__synthesize_mmap_events_query - the MMAP2 events of a process
 *	from PROCMAP_QUERY
 * @tool: passed to @process
 * @event: room for one MMAP2 event and the machine's sample id
 * @maps_fd: the maps file of @pid, open for reading, left open
 * @pid: the thread whose maps file it is, the process's leader
 * @tgid: its process
 * @process: sends each event
 * @machine: whose id_hdr_size the events have room for
 * @mmap_data: also the readable mappings that are not executable
 *
 * Sends what perf_event__synthesize_mmap_events() sends from the text of
 * the same maps file, in the same order, within the same time budget.
 *
 * Return: 0 when sent, -ENOTTY when the kernel has no PROCMAP_QUERY
 * (nothing was sent: the caller reads the text), else -1 when the task is
 * gone or @process failed.
 */
int perf_event__synthesize_mmap_events_query(const struct perf_tool *tool,
					     union perf_event *event, int maps_fd,
					     pid_t pid, pid_t tgid,
					     perf_event__handler_t process,
					     struct machine *machine,
					     bool mmap_data)
{
	unsigned long long timeout = proc_map_timeout * 1000000ULL, t;
	struct build_id bid, *want_bid = symbol_conf.buildid_mmap2 ? &bid : NULL;
	bool truncation = false, first = true;
	struct procmap_query q;
	__u64 addr = 0;
	int err = 0;

	t = rdclock();
	while (!truncation && query_next(maps_fd, addr, mmap_data, &q, event->mmap2.filename,
					 sizeof(event->mmap2.filename), want_bid, &err)) {
		first = false;
		addr = q.vma_end;
		mmap2_from_query(&event->mmap2, &q);
		if (rdclock() - t > timeout) {
			pr_warning("Reading %s/proc/%d/task/%d/maps timed out. You may want to increase the time limit by --proc-map-timeout\n",
				   machine->root_dir, pid, pid);
			truncation = true;
		}
		if (perf_event__synthesize_mmap2_entry(tool, event, pid, tgid, process,
						       machine, mmap_data, truncation,
						       want_bid && bid.size ? want_bid : NULL)) {
			err = -1;
			break;
		}
	}
	if (err == -ENOTTY && first)
		return -ENOTTY;
	if (!err && !truncation && addr > 1ULL << 32)
		err = perf_event__synthesize_gate_area(tool, event, pid, tgid, process,
						       machine, mmap_data);
	return err ? -1 : 0;
}
