// SPDX-License-Identifier: GPL-2.0
/*
 * What ps reads once rather than per task: kernel.pid_max, the uptime, the
 * boot time, the memory size; and the names of terminals and users, each
 * looked up once.
 */
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ps.h"

#define PS_NAME_MAX	64	/* a terminal's name, as procps cuts it */
#define PS_USER_MAX	33	/* a longer user name is shown as the uid */

/* The first line of @path, without its newline; NULL if unreadable */
static char *ps_read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	char *line;

	if (!f)
		return NULL;
	line = fgets(buf, size, f);
	fclose(f);
	if (line)
		line[strcspn(line, "\n")] = '\0';
	return line;
}

/* The number after "@key" on a line of @path */
static int ps_read_key(const char *path, const char *key,
		       unsigned long long *val)
{
	size_t klen = strlen(key);
	char line[256];
	int ret = -ENOENT;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen)) {
			*val = strtoull(line + klen, NULL, 10);
			ret = 0;
			break;
		}
	fclose(f);
	return ret;
}

/**
 * ps_sys_read() - what ps reads before the tasks
 * @sys: filled
 *
 * The locale must be set.  The uptime is taken now, as procps takes it
 * just before it walks the tasks.
 *
 * Return: 0, or -errno if /proc/uptime, /proc/stat or /proc/meminfo
 * cannot be read.
 */
int ps_sys_read(struct ps_sys *sys)
{
	char line[128], *pid_max;
	double up;
	int err;

	pid_max = ps_read_line("/proc/sys/kernel/pid_max", line, sizeof(line));
	sys->pid_len = pid_max ? strlen(pid_max) : 5;
	sys->hertz = sysconf(_SC_CLK_TCK);
	sys->page_kb = sysconf(_SC_PAGESIZE) / 1024;
	sys->utf8 = !strcasecmp(nl_langinfo(CODESET), "UTF-8") &&
		    MB_CUR_MAX > 1;
	sys->now = time(NULL);
	if (!ps_read_line("/proc/uptime", line, sizeof(line)) ||
	    sscanf(line, "%lf", &up) != 1)
		return -EIO;
	sys->boot_tics = (unsigned long long)(up * sys->hertz);
	err = ps_read_key("/proc/stat", "btime ", &sys->btime);
	if (!err)
		err = ps_read_key("/proc/meminfo", "MemTotal:", &sys->mem_total);
	return err;
}

/* A terminal driver of /proc/tty/drivers: name and device numbers */
struct ps_driver {
	char		name[16];
	bool		devfs;		/* its name ended in %d */
	unsigned int	major;
	unsigned int	lo, hi;		/* minors */
};

static struct ps_driver *ps_drivers;
static size_t ps_nr_drivers;

/* One entry from " /dev/NAME MAJOR LO[-HI]" at @p; the end of it */
static const char *ps_parse_driver(const char *p, struct ps_driver *d)
{
	size_t len = strcspn(p, " ");
	unsigned int major, lo, hi;
	int n = 0;

	if (!p[len])
		return NULL;
	memset(d, 0, sizeof(*d));
	if (len >= 3 && !strncmp(p + len - 2, "%d", 2)) {
		d->devfs = true;
		memcpy(d->name, p, len - 2 < 15 ? len - 2 : 15);
	} else {
		memcpy(d->name, p, len < 15 ? len : 15);
	}
	p += len;
	if (sscanf(p, " %u %u%n", &major, &lo, &n) != 2) {
		d->name[0] = '\0';	/* not an entry */
		return p;
	}
	p += n;
	hi = lo;
	if (*p == '-' && sscanf(p + 1, "%u%n", &hi, &n) == 1)
		p += 1 + n;
	d->major = major & 0xffff;
	d->lo = lo;
	d->hi = hi;
	d->name[15] = '\0';
	return p;
}

/* /proc/tty/drivers as procps reads it: one read() of up to 9999 bytes */
static void ps_load_drivers(void)
{
	char buf[10000];
	const char *p, *end;
	struct ps_driver d, *nd;
	ssize_t n = 0;
	int fd;

	ps_nr_drivers = 0;
	fd = open("/proc/tty/drivers", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
	for (p = strstr(buf, " /dev/"); p; p = strstr(p, " /dev/")) {
		end = ps_parse_driver(p + 6, &d);
		if (!end)
			break;
		p = end;
		if (!d.name[0])
			continue;
		nd = realloc(ps_drivers, (ps_nr_drivers + 1) * sizeof(d));
		if (!nd)
			break;
		ps_drivers = nd;
		ps_drivers[ps_nr_drivers++] = d;
	}
}

/* @path is the device @maj:@min */
static bool ps_is_dev(const char *path, unsigned int maj, unsigned int min)
{
	struct stat st;

	return !stat(path, &st) && major(st.st_rdev) == maj &&
	       minor(st.st_rdev) == min;
}

/* By the last driver that has the device, as procps searches them */
static bool ps_driver_path(char *path, size_t size, unsigned int maj,
			   unsigned int min)
{
	const struct ps_driver *d = NULL;
	size_t i;

	for (i = ps_nr_drivers; i-- > 0;)
		if (ps_drivers[i].major == maj && ps_drivers[i].lo <= min &&
		    min <= ps_drivers[i].hi) {
			d = &ps_drivers[i];
			break;
		}
	if (!d)
		return false;
	/* the first of these paths that exists, if it is that device */
	snprintf(path, size, "/dev/%s%u", d->name, min);
	if (access(path, F_OK)) {
		snprintf(path, size, "/dev/%s/%u", d->name, min);
		if (access(path, F_OK)) {
			if (d->devfs)
				return false;
			snprintf(path, size, "/dev/%s", d->name);
		}
	}
	return ps_is_dev(path, maj, min);
}

/* The usual names of the usual majors */
static bool ps_guess_path(char *path, size_t size, unsigned int maj,
			  unsigned int min)
{
	if (maj == 4 && min < 64)
		snprintf(path, size, "/dev/tty%u", min);
	else if (maj == 4)
		snprintf(path, size, "/dev/ttyS%u", min - 64);
	else if (maj >= 136 && maj <= 143)
		snprintf(path, size, "/dev/pts/%u", min + (maj - 136) * 256);
	else if (maj == 188)
		snprintf(path, size, "/dev/ttyUSB%u", min);
	else if (maj == 166)
		snprintf(path, size, "/dev/ttyACM%u", min);
	else
		return false;
	return ps_is_dev(path, maj, min);
}

/* Names looked up once per key: terminals by device, users by uid */
struct ps_names {
	struct {
		__u32	key;
		char	name[PS_NAME_MAX + 1];
	} *e;
	size_t	nr;
};

/* The name of @key in @c, which @lookup writes the first time */
static const char *ps_name_of(struct ps_names *c, __u32 key,
			      void (*lookup)(__u32 key, char *name))
{
	void *n;
	size_t i;

	for (i = 0; i < c->nr; i++)
		if (c->e[i].key == key)
			return c->e[i].name;
	n = realloc(c->e, (c->nr + 1) * sizeof(*c->e));
	if (!n)
		return "?";
	c->e = n;
	c->e[c->nr].key = key;
	lookup(key, c->e[c->nr].name);
	return c->e[c->nr++].name;
}

static void ps_tty_lookup(__u32 dev, char *name)
{
	unsigned int maj = (dev >> 8) & 0xfff;
	unsigned int min = (dev & 0xff) | ((dev >> 12) & 0xfff00);
	char path[128], *p;

	if (!ps_drivers && !ps_nr_drivers)
		ps_load_drivers();
	if (!ps_driver_path(path, sizeof(path), maj, min) &&
	    !ps_guess_path(path, sizeof(path), maj, min)) {
		strcpy(name, "?");
		return;
	}
	p = path;
	if (!strncmp(p, "/dev/", 5) && p[5])
		p += 5;
	snprintf(name, PS_NAME_MAX + 1, "%.*s", PS_NAME_MAX, p);
	for (p = name; *p; p++)
		if ((unsigned char)*p <= ' ' || (unsigned char)*p > 126)
			*p = '?';
}

/**
 * ps_tty_name() - the name ps gives a terminal
 * @tty_nr: its device number, as /proc/PID/stat has it
 *
 * As procps names it from /proc/tty/drivers or from its major number,
 * checked against /dev.  procps also tries the link of the task's fd 2
 * (and 255) before giving up, for a terminal /dev names otherwise: that
 * would be a /proc access per task, and is not done.
 *
 * Return: "pts/3", "ttyS0", or "?" for none or one that has no name.
 */
const char *ps_tty_name(__u32 tty_nr)
{
	static struct ps_names ttys;

	return tty_nr ? ps_name_of(&ttys, tty_nr, ps_tty_lookup) : "?";
}

static void ps_user_lookup(__u32 uid, char *name)
{
	struct passwd *pw = getpwuid(uid);

	if (pw && strlen(pw->pw_name) < PS_USER_MAX)
		strcpy(name, pw->pw_name);
	else
		sprintf(name, "%u", uid);
}

/**
 * ps_user_name() - the name ps gives a user
 * @uid: the user id
 *
 * Return: the user's name, or the uid in decimal when it has none or one
 * of PS_USER_MAX bytes or more.
 */
const char *ps_user_name(__u32 uid)
{
	static struct ps_names users;

	return ps_name_of(&users, uid, ps_user_lookup);
}
