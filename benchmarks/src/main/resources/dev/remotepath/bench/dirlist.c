/*
 * The C baseline of the local suite's listing rows: what a directory listing costs with no
 * language runtime in between. One call lists a whole directory with getdents64 (a 64 KiB
 * buffer, as glibc's readdir uses 32 KiB) and, for the stat rows, one statx per entry
 * relative to the directory's descriptor, links not followed. Called once per listing through
 * one FFM downcall; compiled by the suite with the machine's cc (gcc -O2 -shared -fPIC).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

struct linux_dirent64 {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

static int dot(const char *n) {
    return n[0] == '.' && (n[1] == 0 || (n[1] == '.' && n[2] == 0));
}

/* Entries (without . and ..) of dir, with stats when withStats; -1 on error. */
static long list(const char *dir, int withStats) {
    static __thread char buf[65536];
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    long n = 0, dirs = 0, bytes = 0;
    for (;;) {
        long got = syscall(SYS_getdents64, fd, buf, sizeof buf);
        if (got < 0) {
            close(fd);
            return -1;
        }
        if (got == 0) {
            break;
        }
        for (long off = 0; off < got;) {
            struct linux_dirent64 *d = (struct linux_dirent64 *) (buf + off);
            off += d->d_reclen;
            if (dot(d->d_name)) {
                continue;
            }
            n++;
            if (withStats) {
                struct statx sx;
                if (statx(fd, d->d_name, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &sx) == 0) {
                    bytes += (long) sx.stx_size;
                    dirs += S_ISDIR(sx.stx_mode);
                }
            } else {
                dirs += d->d_type == DT_DIR;
            }
        }
    }
    close(fd);
    return dirs > n || bytes < 0 ? -1 : n;
}

long rp_list_types(const char *dir) {
    return list(dir, 0);
}

long rp_list_stats(const char *dir) {
    return list(dir, 1);
}
