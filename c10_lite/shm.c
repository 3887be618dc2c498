/* c10_lite/shm.c - shared-memory segments (memfd or /dev/shm names) as storages. */
#include "c10_lite/shm.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "c10_lite/cuda_host_alloc.h"
#include "c10_lite/error.h"

/* A segment as this process holds it: the public description and the storage
 * that owns it (set once wrapped; it leaves Note [Mapped segments] with it). */
typedef struct {
    mt_shm pub;
    mt_storage *owner;
    bool detached; /* named: this process's reference was given back already */
} mt__segment;

/* the header page in front of a named segment's data (Note [Shared memory]) */
typedef struct {
    _Atomic int64_t refs;
} mt__shm_header;

static size_t
mt__page(void)
{
    static size_t page;
    if (page == 0) {
        long p = sysconf(_SC_PAGESIZE);
        page = p > 0 ? (size_t)p : 4096;
    }
    return page;
}

/* nbytes rounded up to whole pages (at least one); 0 on overflow */
static size_t
mt__round(size_t nbytes)
{
    size_t p = mt__page(), n = nbytes ? nbytes : 1;
    return n > SIZE_MAX - p ? 0 : (n + p - 1) & ~(p - 1);
}

/* Every descriptor segment keeps a descriptor open, so a process sharing many
 * storages needs many: the soft limit is raised to the hard one, once. */
static pthread_once_t mt__nofile_once = PTHREAD_ONCE_INIT;
static void
mt__raise_nofile(void)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
        r.rlim_cur = r.rlim_max;
        (void)setrlimit(RLIMIT_NOFILE, &r);
    }
}

static int
mt__exhausted(size_t asked, mt_shm_kind kind, int err)
{
    if (kind == MT_SHM_NAMED) {
        struct statvfs v;
        if (statvfs("/dev/shm", &v) == 0) {
            return mt_error_set(MT_ENOMEM,
                                "unable to allocate %zu bytes of shared memory: /dev/shm has "
                                "%llu bytes free of %llu (enlarge it, e.g. docker run "
                                "--shm-size=..., or use the file_descriptor sharing strategy)",
                                asked, (unsigned long long)v.f_bavail * v.f_frsize,
                                (unsigned long long)v.f_blocks * v.f_frsize);
        }
    }
    long avail = sysconf(_SC_AVPHYS_PAGES);
    return mt_error_set(MT_ENOMEM,
                        "unable to allocate %zu bytes of shared memory (%s): about %llu bytes "
                        "of memory are available",
                        asked, strerror(err),
                        (unsigned long long)(avail > 0 ? avail : 0) * mt__page());
}

/* Sizes fd to len bytes and reserves them, so that running out is reported
 * here rather than as SIGBUS on first touch.  0 or a negative code. */
static int
mt__reserve(int fd, size_t len, size_t asked, mt_shm_kind kind)
{
    /* sizes that cannot fit are refused before the kernel starts reserving pages */
    struct statvfs v;
    struct sysinfo si;
    if (kind == MT_SHM_NAMED && statvfs("/dev/shm", &v) == 0 &&
        len > (size_t)v.f_bavail * v.f_frsize) {
        return mt__exhausted(asked, kind, ENOSPC);
    }
    if (sysinfo(&si) == 0 &&
        len / si.mem_unit > (size_t)si.totalram + (size_t)si.totalswap) {
        return mt__exhausted(asked, kind, ENOMEM);
    }
    if (len > (size_t)INT64_MAX || ftruncate(fd, (off_t)len) != 0) {
        return mt__exhausted(asked, kind, errno);
    }
    int rc = posix_fallocate(fd, 0, (off_t)len);
    if (rc == ENOSPC || rc == ENOMEM || rc == EFBIG) {
        return mt__exhausted(asked, kind, rc);
    }
    return 0; /* EOPNOTSUPP/EINVAL: a file system without fallocate; pages come on demand */
}

/* Note [Mapped segments]
 * Every shared storage of this process is listed by its segment's inode, so
 * that a handle naming a segment mapped here already gets that storage back
 * (mt_shm_storage_lookup): views sent separately share one storage again.
 * The list holds no references; a storage leaves it in its deleter, and a
 * lookup only revives a storage whose count is still above zero. */
typedef struct mt__entry {
    uint64_t inode;
    mt_storage *storage;
    struct mt__entry *next;
} mt__entry;
#define MT__BUCKETS 256
static mt__entry *mt__mapped[MT__BUCKETS];
static pthread_mutex_t mt__mapped_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t mt__atfork_once = PTHREAD_ONCE_INIT;

static void
mt__lock(void)
{
    pthread_mutex_lock(&mt__mapped_lock);
}
static void
mt__unlock(void)
{
    pthread_mutex_unlock(&mt__mapped_lock);
}
static void
mt__atfork(void)
{
    pthread_atfork(mt__lock, mt__unlock, mt__unlock); /* a fork never copies it held */
}

/* Lists s (0, or MT_ENOMEM with nothing listed). */
static int
mt__list(uint64_t inode, mt_storage *s)
{
    pthread_once(&mt__atfork_once, mt__atfork);
    mt__entry *e = malloc(sizeof(*e));
    if (e == NULL) {
        return mt_error_set(MT_ENOMEM, "out of memory listing a shared-memory segment");
    }
    e->inode = inode;
    e->storage = s;
    mt__lock();
    e->next = mt__mapped[inode % MT__BUCKETS];
    mt__mapped[inode % MT__BUCKETS] = e;
    mt__unlock();
    return 0;
}

static void
mt__unlist(uint64_t inode, const mt_storage *s)
{
    mt__lock();
    for (mt__entry **p = &mt__mapped[inode % MT__BUCKETS]; *p != NULL; p = &(*p)->next) {
        if ((*p)->storage == s) {
            mt__entry *dead = *p;
            *p = dead->next;
            free(dead);
            break;
        }
    }
    mt__unlock();
}

mt_storage *
mt_shm_storage_lookup(uint64_t inode)
{
    mt_storage *found = NULL;
    mt__lock();
    for (mt__entry *e = mt__mapped[inode % MT__BUCKETS]; e != NULL && found == NULL; e = e->next) {
        if (e->inode != inode) {
            continue;
        }
        int64_t n = mt_storage_refcount(e->storage);
        while (n > 0 && !atomic_compare_exchange_weak(&e->storage->refcount, &n, n + 1)) {
        }
        if (n > 0) {
            found = e->storage;
        }
    }
    mt__unlock();
    return found;
}

static void
mt__segment_free(mt_shm *m)
{
    mt_storage *owner = ((mt__segment *)m)->owner;
    if (owner != NULL) {
        mt__unlist(m->inode, owner);
    }
    if (m->kind == MT_SHM_NAMED && !((mt__segment *)m)->detached) {
        mt__shm_header *h = m->map;
        if (atomic_fetch_sub_explicit(&h->refs, 1, memory_order_acq_rel) == 1) {
            shm_unlink(m->name);
        }
    }
    munmap(m->map, m->maplen);
    if (m->fd >= 0) {
        close(m->fd);
    }
    free(m);
}

static void
mt__shm_deleter(void *ctx, void *data)
{
    (void)data;
    mt__segment_free(ctx);
}

static void *
mt__data(const mt_shm *m)
{
    return m->kind == MT_SHM_NAMED ? (char *)m->map + mt__page() : m->map;
}

/* Maps len bytes of fd into a new mt_shm (fd becomes its descriptor, or is
 * closed for named segments).  NULL with the error set; fd is closed then. */
static mt_shm *
mt__map(int fd, mt_shm_kind kind, size_t nbytes, size_t len, const char *name)
{
    struct stat st;
    mt_shm *m = calloc(1, sizeof(mt__segment));
    void *map = MAP_FAILED;
    if (m == NULL || fstat(fd, &st) != 0 ||
        (map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED) {
        int err = errno;
        free(m);
        close(fd);
        if (m == NULL) {
            mt_error_set(MT_ENOMEM, "out of memory describing a shared-memory segment");
        } else {
            mt_error_set(err == ENOMEM ? MT_ENOMEM : MT_ERUNTIME,
                         "mapping a shared-memory segment of %zu bytes failed: %s", len,
                         strerror(err));
        }
        return NULL;
    }
    m->kind = kind;
    m->inode = (uint64_t)st.st_ino;
    m->nbytes = nbytes;
    m->maplen = len;
    m->map = map;
    if (kind == MT_SHM_NAMED) {
        snprintf(m->name, sizeof(m->name), "%s", name);
        close(fd);
        m->fd = -1;
    } else {
        m->fd = fd;
    }
    return m;
}

static mt_storage *
mt__wrap(mt_shm *m)
{
    mt_storage *s = mt_storage_from_blob(mt__data(m), m->nbytes, MT_DEVICE_CPU, mt__shm_deleter, m);
    if (s == NULL || mt__list(m->inode, s) < 0) {
        if (s != NULL) {
            s->deleter = NULL; /* the segment is freed here, not listed */
            mt_storage_decref(s);
        }
        mt__segment_free(m);
        return NULL;
    }
    ((mt__segment *)m)->owner = s;
    return s;
}

/* A new segment of nbytes zero bytes.  NULL with the error set. */
static mt_shm *
mt__segment_new(size_t nbytes, mt_shm_kind kind)
{
    size_t len = mt__round(nbytes);
    if (len == 0) {
        mt_error_set(MT_ENOMEM, "a shared-memory segment of %zu bytes is too large", nbytes);
        return NULL;
    }
    if (kind == MT_SHM_FD) {
        pthread_once(&mt__nofile_once, mt__raise_nofile);
        int fd = memfd_create("minitorch", MFD_CLOEXEC);
        if (fd < 0) {
            int err = errno;
            mt_error_set(err == EMFILE || err == ENFILE ? MT_ERUNTIME : MT_ENOMEM,
                         "memfd_create for %zu bytes of shared memory failed: %s%s", nbytes,
                         strerror(err),
                         err == EMFILE ? " (each shared storage holds a descriptor: raise "
                                         "`ulimit -n`, or use the file_system strategy)"
                                       : "");
            return NULL;
        }
        if (mt__reserve(fd, len, nbytes, kind) < 0) {
            close(fd);
            return NULL;
        }
        return mt__map(fd, kind, nbytes, len, NULL);
    }
    static _Atomic uint64_t counter;
    char name[64];
    int fd = -1;
    for (int attempt = 0; attempt < 16 && fd < 0; attempt++) {
        snprintf(name, sizeof(name), "/minitorch_%ld_%llu", (long)getpid(),
                 (unsigned long long)atomic_fetch_add(&counter, 1));
        fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST) {
            break;
        }
    }
    if (fd < 0) {
        mt_error_set(MT_ERUNTIME, "shm_open(%s) failed: %s", name, strerror(errno));
        return NULL;
    }
    if (len > SIZE_MAX - mt__page() || mt__reserve(fd, len + mt__page(), nbytes, kind) < 0) {
        if (len > SIZE_MAX - mt__page()) {
            mt_error_set(MT_ENOMEM, "a shared-memory segment of %zu bytes is too large", nbytes);
        }
        close(fd);
        shm_unlink(name);
        return NULL;
    }
    mt_shm *m = mt__map(fd, kind, nbytes, len + mt__page(), name);
    if (m == NULL) {
        shm_unlink(name);
        return NULL;
    }
    atomic_store(&((mt__shm_header *)m->map)->refs, 1);
    return m;
}

mt_storage *
mt_shm_storage_new(size_t nbytes, mt_shm_kind kind)
{
    mt_shm *m = mt__segment_new(nbytes, kind);
    return m != NULL ? mt__wrap(m) : NULL;
}

mt_storage *
mt_shm_storage_from_fd(int fd, size_t nbytes)
{
    struct stat st;
    size_t len = mt__round(nbytes);
    if (len == 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
        (size_t)st.st_size < len) {
        mt_error_set(MT_EINVAL, "descriptor %d is not a shared-memory segment of %zu bytes", fd,
                     nbytes);
        return NULL;
    }
    int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (own < 0) {
        mt_error_set(MT_ERUNTIME, "duplicating a shared-memory descriptor failed: %s",
                     strerror(errno));
        return NULL;
    }
    mt_shm *m = mt__map(own, MT_SHM_FD, nbytes, len, NULL);
    return m != NULL ? mt__wrap(m) : NULL;
}

mt_storage *
mt_shm_storage_open(const char *name, size_t nbytes)
{
    size_t len = mt__round(nbytes);
    if (name[0] != '/' || strchr(name + 1, '/') != NULL || strlen(name) >= 64) {
        mt_error_set(MT_EINVAL, "'%s' is not the name of a shared-memory segment", name);
        return NULL;
    }
    int fd = shm_open(name, O_RDWR | O_CLOEXEC, 0);
    struct stat st;
    if (fd < 0) {
        mt_error_set(MT_ERUNTIME, "opening shared memory %s failed: %s (did its last holder exit?)",
                     name, strerror(errno));
        return NULL;
    }
    if (len == 0 || len > SIZE_MAX - mt__page() || fstat(fd, &st) != 0 ||
        (size_t)st.st_size < len + mt__page()) {
        close(fd);
        mt_error_set(MT_EINVAL, "shared memory %s is not a segment of %zu bytes", name, nbytes);
        return NULL;
    }
    mt_shm *m = mt__map(fd, MT_SHM_NAMED, nbytes, len + mt__page(), name);
    return m != NULL ? mt__wrap(m) : NULL;
}

const mt_shm *
mt_storage_shm(const mt_storage *s)
{
    return s->deleter == mt__shm_deleter ? (const mt_shm *)s->deleter_ctx : NULL;
}

int
mt_storage_share_(mt_storage *s, mt_shm_kind kind)
{
    if (mt_storage_shm(s) != NULL) {
        return 0;
    }
    if (s->device.type != MT_CPU) {
        return mt_error_set(MT_ENOTIMPL, "share_memory_: only cpu storages can be shared so far");
    }
    mt_shm *m = mt__segment_new(s->nbytes, kind);
    if (m == NULL) {
        return mt_error_code();
    }
    if (mt__list(m->inode, s) < 0) {
        mt__segment_free(m);
        return MT_ENOMEM;
    }
    ((mt__segment *)m)->owner = s;
    void *data = mt__data(m);
    if (s->nbytes != 0) {
        memcpy(data, s->data, s->nbytes);
    }
    void *old = s->data, *old_ctx = s->deleter_ctx;
    mt_deleter_fn old_deleter = s->deleter;
    s->data = data;
    s->deleter = mt__shm_deleter;
    s->deleter_ctx = m;
    atomic_store(&s->resizable, false); /* the bytes are now the segment's */
    if (old_deleter != NULL) {
        old_deleter(old_ctx, old);
    }
    return 0;
}

int
mt_shm_ref_for_handle(const mt_storage *s)
{
    const mt_shm *m = mt_storage_shm(s);
    if (m == NULL || m->kind != MT_SHM_NAMED) {
        return mt_error_set(MT_EINVAL, "the storage is not in a named shared-memory segment");
    }
    atomic_fetch_add_explicit(&((mt__shm_header *)m->map)->refs, 1, memory_order_relaxed);
    return 0;
}

void
mt_shm_unref_name(const char *name)
{
    int fd = shm_open(name, O_RDWR | O_CLOEXEC, 0);
    if (fd < 0) {
        return;
    }
    mt__shm_header *h = mmap(NULL, mt__page(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (h == MAP_FAILED) {
        return;
    }
    if (atomic_fetch_sub_explicit(&h->refs, 1, memory_order_acq_rel) == 1) {
        shm_unlink(name);
    }
    munmap(h, mt__page());
}

void
mt_shm_detach_named(void)
{
    mt__lock();
    for (int b = 0; b < MT__BUCKETS; b++) {
        for (mt__entry *e = mt__mapped[b]; e != NULL; e = e->next) {
            mt__segment *seg = e->storage->deleter_ctx;
            if (seg->pub.kind != MT_SHM_NAMED || seg->detached) {
                continue;
            }
            seg->detached = true;
            mt__shm_header *h = seg->pub.map;
            if (atomic_fetch_sub_explicit(&h->refs, 1, memory_order_acq_rel) == 1) {
                shm_unlink(seg->pub.name);
            }
        }
    }
    mt__unlock();
}

/* what a region storage holds: its segment and the word to clear when it dies */
typedef struct {
    mt_storage *segment;
    _Atomic uint32_t *flag;
} mt__region;

static void
mt__region_deleter(void *ctx, void *data)
{
    (void)data;
    mt__region *r = ctx;
    /* a copy to a device may still read the region when its slab is page-locked (Note
     * [Pinned host memory]): the writer may have it back only once that copy is done */
    mt_cuda_host_wait_uses(data);
    atomic_store_explicit(r->flag, 0, memory_order_release);
    mt_storage_decref(r->segment);
    free(r);
}

mt_storage *
mt_shm_region(mt_storage *segment, size_t offset, size_t nbytes, size_t flag_offset)
{
    if (mt_storage_shm(segment) == NULL || offset > segment->nbytes ||
        nbytes > segment->nbytes - offset || flag_offset % 4 != 0 ||
        flag_offset > segment->nbytes - 4 || segment->nbytes < 4) {
        mt_error_set(MT_EINVAL,
                     "region [%zu, +%zu) with flag at %zu does not fit a shared storage of %zu "
                     "bytes",
                     offset, nbytes, flag_offset, segment->nbytes);
        return NULL;
    }
    mt__region *r = malloc(sizeof(*r));
    if (r == NULL) {
        mt_error_set(MT_ENOMEM, "out of memory describing a shared-memory region");
        return NULL;
    }
    r->segment = segment;
    r->flag = (_Atomic uint32_t *)((char *)segment->data + flag_offset);
    mt_storage *s = mt_storage_from_blob((char *)segment->data + offset, nbytes, MT_DEVICE_CPU,
                                         mt__region_deleter, r);
    if (s == NULL) {
        free(r);
        return NULL;
    }
    mt_storage_incref(segment);
    return s;
}
