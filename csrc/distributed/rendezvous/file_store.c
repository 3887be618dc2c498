/* csrc/distributed/rendezvous/file_store.c - FileStore: an flock()-guarded append-only log in a shared file. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c10_lite/error.h"
#include "csrc/distributed/rendezvous/kvmap.h"
#include "csrc/distributed/common/net.h"
#include "csrc/distributed/rendezvous/store.h"

/* Note [FileStore log]
 * The file is a sequence of records, only ever appended:
 *     u8 type ('S' set, 'D' delete) | u64 klen | key | u64 vlen | value   (little endian)
 * ('D' records have vlen 0).  Each process keeps a map replayed from the log
 * and the offset it has read up to; before every operation it takes the lock
 * (shared to read, exclusive to write), replays the new records, and for a
 * write appends one record.  add() and compare_set() are read-modify-write
 * under the exclusive lock, so they are atomic across processes.  Waiting
 * (get/wait) re-reads the log every few milliseconds until the deadline.
 *
 * Users count themselves: opening adds 1 to the internal key MT__FS_USERS_KEY,
 * closing subtracts 1 and adds 1 to MT__FS_CLOSED_KEY; num_keys counts the
 * internal keys as one key (torch's count).  The close that leaves no user
 * open, when at least world_size users have closed (world_size >= 0), removes
 * the file, as torch's FileStore does.  Locks are taken with LOCK_NB and
 * retried, so a stuck holder turns into a timeout. */

#define MT__FS_INTERNAL "\x00mt/filestore/"
#define MT__FS_INTERNAL_LEN (sizeof(MT__FS_INTERNAL) - 1)
#define MT__FS_CLOSED_KEY MT__FS_INTERNAL "closed"
#define MT__FS_CLOSED_KEY_LEN (sizeof(MT__FS_CLOSED_KEY) - 1)
#define MT__FS_USERS_KEY MT__FS_INTERNAL "users"
#define MT__FS_USERS_KEY_LEN (sizeof(MT__FS_USERS_KEY) - 1)

typedef struct mt__file_store {
    mt_store base;
    pthread_mutex_t mu; /* one operation at a time within the process */
    char *path;
    int fd;
    int world_size;
    mt__kvmap map;
    off_t pos; /* bytes of the log replayed into map */
    int64_t internal_keys;
} mt__file_store;

#define MT__FS(s) ((mt__file_store *)(s))

static int
mt__fs_lock(mt__file_store *f, int how, int64_t deadline)
{
    int64_t sleep = 1;
    for (;;) {
        if (flock(f->fd, how | LOCK_NB) == 0) {
            return 0;
        }
        if (errno != EWOULDBLOCK && errno != EINTR) {
            return mt_error_set(MT_ERUNTIME, "FileStore: cannot lock '%s': %s", f->path,
                                strerror(errno));
        }
        if (mt__now_ms() >= deadline) {
            return mt_error_set(MT_ETIMEOUT, "FileStore: timed out waiting for the lock on '%s'",
                                f->path);
        }
        mt__sleep_ms(sleep);
        sleep = sleep < 16 ? sleep * 2 : 16;
    }
}

static void
mt__fs_unlock(mt__file_store *f)
{
    flock(f->fd, LOCK_UN);
}

static uint64_t
mt__get_le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) {
        v = (v << 8) | p[i];
    }
    return v;
}

static void
mt__put_le64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        p[i] = (unsigned char)(v >> (8 * i));
    }
}

static bool
mt__fs_is_internal(const char *key, size_t klen)
{
    return klen >= MT__FS_INTERNAL_LEN && memcmp(key, MT__FS_INTERNAL, MT__FS_INTERNAL_LEN) == 0;
}

/* Replays records appended since the last call (lock held). */
static int
mt__fs_refresh(mt__file_store *f)
{
    struct stat st;
    if (fstat(f->fd, &st) < 0) {
        return mt_error_set(MT_ERUNTIME, "FileStore: cannot stat '%s': %s", f->path,
                            strerror(errno));
    }
    if (st.st_size <= f->pos) {
        return 0;
    }
    size_t n = (size_t)(st.st_size - f->pos);
    unsigned char *buf = malloc(n);
    if (buf == NULL) {
        return mt_error_set(MT_ENOMEM, "FileStore: out of memory reading '%s'", f->path);
    }
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(f->fd, buf + got, n - got, f->pos + (off_t)got);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            free(buf);
            return mt_error_set(MT_ERUNTIME, "FileStore: cannot read '%s': %s", f->path,
                                r < 0 ? strerror(errno) : "file shrank");
        }
        got += (size_t)r;
    }
    size_t i = 0;
    int rc = 0;
    while (i < n) {
        if (n - i < 17) {
            rc = mt_error_set(MT_ERUNTIME, "FileStore: '%s' is truncated or not a store file",
                              f->path);
            break;
        }
        unsigned char type = buf[i];
        uint64_t klen = mt__get_le64(buf + i + 1);
        if (klen > n - i - 17) {
            rc = mt_error_set(MT_ERUNTIME, "FileStore: corrupt record in '%s'", f->path);
            break;
        }
        const char *key = (const char *)buf + i + 9;
        uint64_t vlen = mt__get_le64(buf + i + 9 + klen);
        if (vlen > n - i - 17 - klen) {
            rc = mt_error_set(MT_ERUNTIME, "FileStore: corrupt record in '%s'", f->path);
            break;
        }
        const char *val = key + klen + 8;
        bool internal = mt__fs_is_internal(key, klen);
        bool existed = mt__kvmap_find(&f->map, key, klen) != NULL;
        if (type == 'S') {
            rc = mt__kvmap_set(&f->map, key, klen, val, vlen);
            if (internal && !existed && rc == 0) {
                f->internal_keys++;
            }
        }
        else if (type == 'D') {
            if (mt__kvmap_delete(&f->map, key, klen) && internal) {
                f->internal_keys--;
            }
        }
        else {
            rc = mt_error_set(MT_ERUNTIME, "FileStore: '%s' is not a store file", f->path);
        }
        if (rc < 0) {
            break;
        }
        i += 17 + klen + vlen;
    }
    free(buf);
    if (rc == 0) {
        f->pos = st.st_size;
    }
    return rc;
}

/* Appends one record (exclusive lock held) and applies it to the local map. */
static int
mt__fs_append(mt__file_store *f, char type, const char *key, size_t klen, const void *val,
              size_t vlen)
{
    size_t n = 17 + klen + vlen;
    unsigned char *rec = malloc(n);
    if (rec == NULL) {
        return mt_error_set(MT_ENOMEM, "FileStore: out of memory");
    }
    rec[0] = (unsigned char)type;
    mt__put_le64(rec + 1, klen);
    memcpy(rec + 9, key, klen);
    mt__put_le64(rec + 9 + klen, vlen);
    if (vlen) {
        memcpy(rec + 17 + klen, val, vlen);
    }
    size_t done = 0;
    while (done < n) {
        ssize_t w = pwrite(f->fd, rec + done, n - done, f->pos + (off_t)done);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            free(rec);
            return mt_error_set(MT_ERUNTIME, "FileStore: cannot write '%s': %s", f->path,
                                w < 0 ? strerror(errno) : "short write");
        }
        done += (size_t)w;
    }
    free(rec);
    /* Our own record is replayed like anyone else's. */
    return mt__fs_refresh(f);
}

/* Takes the file lock (LOCK_SH or LOCK_EX) and replays new records; unlocked on failure. */
static int
mt__fs_begin(mt__file_store *f, int how)
{
    if (f->fd < 0) {
        return mt_error_set(MT_ECLOSED, "FileStore '%s' is closed", f->path);
    }
    int rc = mt__fs_lock(f, how, mt__deadline_after(f->base.timeout_ms));
    if (rc < 0) {
        return rc;
    }
    rc = mt__fs_refresh(f);
    if (rc < 0) {
        mt__fs_unlock(f);
    }
    return rc;
}

static int
mt__fs_set(mt_store *s, const char *key, size_t klen, const void *val, size_t vlen)
{
    mt__file_store *f = MT__FS(s);
    pthread_mutex_lock(&f->mu);
    int rc = mt__fs_begin(f, LOCK_EX);
    if (rc == 0) {
        rc = mt__fs_append(f, 'S', key, klen, val, vlen);
        mt__fs_unlock(f);
    }
    pthread_mutex_unlock(&f->mu);
    return rc;
}

/* add() with the process mutex held. */
static int
mt__fs_add_locked(mt__file_store *f, const char *key, size_t klen, int64_t delta, int64_t *out)
{
    int rc = mt__fs_begin(f, LOCK_EX);
    if (rc == 0) {
        /* Compute on a scratch copy so a failed append leaves the map as the file. */
        int64_t sum;
        mt__kvmap tmp;
        mt__kvmap_init(&tmp);
        mt__kv_entry *e = mt__kvmap_find(&f->map, key, klen);
        rc = e ? mt__kvmap_set(&tmp, key, klen, e->val, e->vlen) : 0;
        if (rc == 0) {
            rc = mt__kvmap_add(&tmp, key, klen, delta, &sum);
        }
        if (rc == 0) {
            e = mt__kvmap_find(&tmp, key, klen);
            rc = mt__fs_append(f, 'S', key, klen, e->val, e->vlen);
        }
        if (rc == 0) {
            *out = sum;
        }
        mt__kvmap_clear(&tmp);
        mt__fs_unlock(f);
    }
    return rc;
}

static int
mt__fs_add(mt_store *s, const char *key, size_t klen, int64_t delta, int64_t *out)
{
    mt__file_store *f = MT__FS(s);
    pthread_mutex_lock(&f->mu);
    int rc = mt__fs_add_locked(f, key, klen, delta, out);
    pthread_mutex_unlock(&f->mu);
    return rc;
}

static int
mt__fs_compare_set(mt_store *s, const char *key, size_t klen, const void *expected, size_t elen,
                   const void *desired, size_t dlen, char **out, size_t *outlen)
{
    mt__file_store *f = MT__FS(s);
    pthread_mutex_lock(&f->mu);
    int rc = mt__fs_begin(f, LOCK_EX);
    if (rc == 0) {
        mt__kv_entry *e = mt__kvmap_find(&f->map, key, klen);
        bool store = e ? (e->vlen == elen && memcmp(e->val, expected, elen) == 0) : elen == 0;
        if (store) {
            rc = mt__fs_append(f, 'S', key, klen, desired, dlen);
            e = mt__kvmap_find(&f->map, key, klen);
        }
        if (rc == 0) {
            const void *res = e ? e->val : expected;
            size_t rlen = e ? e->vlen : elen;
            char *c = mt__memdup(res, rlen);
            if (c == NULL) {
                rc = MT_ENOMEM;
            }
            else {
                *out = c;
                *outlen = rlen;
            }
        }
        mt__fs_unlock(f);
    }
    pthread_mutex_unlock(&f->mu);
    return rc;
}

/* Polls until all keys exist; takes the process mutex for each look and
 * releases it while sleeping, so other threads of this process can write.
 * With `out` given, copies the first key's value out. */
static int
mt__fs_wait_keys(mt__file_store *f, int nkeys, const char *const *keys, const size_t *klens,
                 int64_t timeout_ms, char **out, size_t *outlen)
{
    int64_t deadline = mt__deadline_after(timeout_ms);
    int64_t sleep = 1;
    for (;;) {
        pthread_mutex_lock(&f->mu);
        int rc = mt__fs_begin(f, LOCK_SH);
        if (rc < 0) {
            pthread_mutex_unlock(&f->mu);
            return rc;
        }
        int missing = -1;
        for (int i = 0; i < nkeys && missing < 0; i++) {
            if (mt__kvmap_find(&f->map, keys[i], klens[i]) == NULL) {
                missing = i;
            }
        }
        if (missing < 0) {
            if (out != NULL) {
                mt__kv_entry *e = mt__kvmap_find(&f->map, keys[0], klens[0]);
                char *c = mt__memdup(e->val, e->vlen);
                if (c == NULL) {
                    rc = MT_ENOMEM;
                }
                else {
                    *out = c;
                    *outlen = e->vlen;
                }
            }
            mt__fs_unlock(f);
            pthread_mutex_unlock(&f->mu);
            return rc;
        }
        mt__fs_unlock(f);
        pthread_mutex_unlock(&f->mu);
        if (mt__now_ms() >= deadline) {
            char kr[160];
            mt__key_repr(kr, sizeof(kr), keys[missing], klens[missing]);
            /* torch's words: get -> "Timeout waiting for key: K after N ms", wait -> "Wait timeout" */
            if (out != NULL) {
                return mt_error_set(MT_ETIMEOUT, "Timeout waiting for key: %s after %lld ms (FileStore '%s')",
                                    kr, (long long)timeout_ms, f->path);
            }
            return mt_error_set(MT_ETIMEOUT, "Wait timeout (FileStore '%s': %lld ms waiting for key '%s')",
                                f->path, (long long)timeout_ms, kr);
        }
        int64_t left = deadline - mt__now_ms();
        mt__sleep_ms(sleep < left ? sleep : left);
        sleep = sleep < 10 ? sleep * 2 : 10;
    }
}

static int
mt__fs_get(mt_store *s, const char *key, size_t klen, int64_t timeout_ms, char **out,
           size_t *outlen)
{
    return mt__fs_wait_keys(MT__FS(s), 1, &key, &klen, timeout_ms, out, outlen);
}

static int
mt__fs_wait(mt_store *s, int nkeys, const char *const *keys, const size_t *klens,
            int64_t timeout_ms)
{
    return mt__fs_wait_keys(MT__FS(s), nkeys, keys, klens, timeout_ms, NULL, NULL);
}

static int
mt__fs_check(mt_store *s, int nkeys, const char *const *keys, const size_t *klens, int *out)
{
    mt__file_store *f = MT__FS(s);
    pthread_mutex_lock(&f->mu);
    int rc = mt__fs_begin(f, LOCK_SH);
    if (rc == 0) {
        int all = 1;
        for (int i = 0; i < nkeys; i++) {
            if (mt__kvmap_find(&f->map, keys[i], klens[i]) == NULL) {
                all = 0;
            }
        }
        *out = all;
        mt__fs_unlock(f);
    }
    pthread_mutex_unlock(&f->mu);
    return rc;
}

static int
mt__fs_delete_key(mt_store *s, const char *key, size_t klen, int *out)
{
    mt__file_store *f = MT__FS(s);
    pthread_mutex_lock(&f->mu);
    int rc = mt__fs_begin(f, LOCK_EX);
    if (rc == 0) {
        int existed = mt__kvmap_find(&f->map, key, klen) != NULL;
        if (existed) {
            rc = mt__fs_append(f, 'D', key, klen, NULL, 0);
        }
        if (rc == 0) {
            *out = existed;
        }
        mt__fs_unlock(f);
    }
    pthread_mutex_unlock(&f->mu);
    return rc;
}

static int
mt__fs_compare_delete(mt_store *s, const char *key, size_t klen, const void *expected, size_t elen,
                      int *out)
{
    mt__file_store *f = MT__FS(s);
    pthread_mutex_lock(&f->mu);
    int rc = mt__fs_begin(f, LOCK_EX);
    if (rc == 0) {
        mt__kv_entry *e = mt__kvmap_find(&f->map, key, klen);
        int match = e != NULL && e->vlen == elen && (elen == 0 || memcmp(e->val, expected, elen) == 0);
        if (match) {
            rc = mt__fs_append(f, 'D', key, klen, NULL, 0);
        }
        if (rc == 0) {
            *out = match;
        }
        mt__fs_unlock(f);
    }
    pthread_mutex_unlock(&f->mu);
    return rc;
}

static int
mt__fs_num_keys(mt_store *s, int64_t *out)
{
    mt__file_store *f = MT__FS(s);
    pthread_mutex_lock(&f->mu);
    int rc = mt__fs_begin(f, LOCK_SH);
    if (rc == 0) {
        /* torch counts its one bookkeeping key (the users counter) in num_keys; so do we,
         * whatever our internal keys are, so that counts match torch's */
        *out = (int64_t)f->map.count - f->internal_keys + 1;
        mt__fs_unlock(f);
    }
    pthread_mutex_unlock(&f->mu);
    return rc;
}

static void
mt__fs_close(mt_store *s)
{
    mt__file_store *f = MT__FS(s);
    pthread_mutex_lock(&f->mu);
    if (f->fd >= 0) {
        /* a file someone already removed is left alone (torch's FileStore too) */
        struct stat st;
        if (stat(f->path, &st) == 0) {
            int64_t closed = 0, users = 1;
            int rc = mt__fs_add_locked(f, MT__FS_CLOSED_KEY, MT__FS_CLOSED_KEY_LEN, 1, &closed);
            if (rc == 0) {
                rc = mt__fs_add_locked(f, MT__FS_USERS_KEY, MT__FS_USERS_KEY_LEN, -1, &users);
            }
            if (rc == 0 && users == 0 && f->world_size >= 0 && closed >= f->world_size) {
                unlink(f->path);
            }
        }
        close(f->fd);
        f->fd = -1;
    }
    pthread_mutex_unlock(&f->mu);
}

static void
mt__fs_free(mt_store *s)
{
    mt__file_store *f = MT__FS(s);
    mt__kvmap_clear(&f->map);
    pthread_mutex_destroy(&f->mu);
    free(f->path);
    free(f);
}

static const mt_store_vtable mt__file_store_vt = {
    .name = "FileStore",
    .set = mt__fs_set,
    .get = mt__fs_get,
    .add = mt__fs_add,
    .compare_set = mt__fs_compare_set,
    .wait = mt__fs_wait,
    .check = mt__fs_check,
    .delete_key = mt__fs_delete_key,
    .compare_delete = mt__fs_compare_delete,
    .num_keys = mt__fs_num_keys,
    .local_addr = NULL,
    .close = mt__fs_close,
    .free = mt__fs_free,
};

mt_store *
mt_file_store_new(const char *path, int world_size, int64_t timeout_ms)
{
    if (path == NULL || path[0] == '\0') {
        mt_error_set(MT_EINVAL, "FileStore needs a file path");
        return NULL;
    }
    mt__file_store *f = calloc(1, sizeof(*f));
    char *p = mt__memdup(path, strlen(path));
    if (f == NULL || p == NULL) {
        free(f);
        free(p);
        mt_error_set(MT_ENOMEM, "out of memory creating a FileStore");
        return NULL;
    }
    f->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (f->fd < 0) {
        mt_error_set(MT_ERUNTIME, "FileStore: cannot open '%s': %s", path, strerror(errno));
        free(f);
        free(p);
        return NULL;
    }
    f->path = p;
    f->world_size = world_size;
    pthread_mutex_init(&f->mu, NULL);
    mt__kvmap_init(&f->map);
    mt__store_init(&f->base, &mt__file_store_vt, timeout_ms);
    /* Validates the existing content and counts this user. */
    int64_t users;
    int rc = mt__fs_add_locked(f, MT__FS_USERS_KEY, MT__FS_USERS_KEY_LEN, 1, &users);
    if (rc < 0) {
        close(f->fd);
        f->fd = -1;
        mt__fs_free(&f->base);
        return NULL;
    }
    return &f->base;
}
