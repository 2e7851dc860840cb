/*
 * random_posix.c - bytes from the OS's cryptographic generator, for the segment's hash key (hash.h).
 *
 * Linux has getrandom() (glibc 2.25+); it blocks only until the kernel's pool is first seeded, which has
 * long happened by the time PHP starts. Where it is missing (ENOSYS: an old kernel or a seccomp filter)
 * /dev/urandom gives the same bytes. Called once per segment creation, never on a hot path.
 */
#ifndef _WIN32
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
# include <sys/random.h>
#endif
#include "hash.h"

static int read_urandom(unsigned char *p, size_t len, char *errbuf, size_t errlen)
{
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(errbuf, errlen, "open(/dev/urandom) failed: %s", strerror(errno));
		return -1;
	}
	while (len) {
		ssize_t n = read(fd, p, len);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			snprintf(errbuf, errlen, "read(/dev/urandom) failed: %s", n < 0 ? strerror(errno) : "end of file");
			close(fd);
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	close(fd);
	return 0;
}

int tbl_os_random(void *buf, size_t len, char *errbuf, size_t errlen)
{
	unsigned char *p = (unsigned char *)buf;

#if defined(__linux__)
	while (len) {
		ssize_t n = getrandom(p, len, 0);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0) {
			if (errno == ENOSYS || errno == EPERM) {
				break;   /* no syscall here: the device has the same bytes */
			}
			snprintf(errbuf, errlen, "getrandom(%zu bytes) failed: %s", len, strerror(errno));
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
#endif
	return len ? read_urandom(p, len, errbuf, errlen) : 0;
}
#endif
