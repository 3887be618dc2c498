/* c10_lite/shm.h - storages in shared memory that other processes on this machine can map. */
#ifndef C10_LITE_SHM_H
#define C10_LITE_SHM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "c10_lite/storage.h"

/* Note [Shared memory]
 * A shared storage's bytes live in a segment of shared memory, mapped
 * MAP_SHARED.  Two kinds, after torch's sharing strategies:
 *   - descriptor segments ("file_descriptor", the default): an anonymous
 *     memfd.  The storage keeps the descriptor open so that it can be handed
 *     to another process (SCM_RIGHTS over a Unix socket); the kernel frees the
 *     memory when the last descriptor and the last mapping are gone, however
 *     their processes ended, so nothing can leak past the processes using it.
 *   - named segments ("file_system"): a /dev/shm name (shm_open) that another
 *     process opens by name, so no descriptor stays open.  A header page in
 *     front of the data counts the references: one per process mapping the
 *     segment plus one per handle in flight (taken by mt_shm_ref_for_handle,
 *     given over to the process that opens the handle); the last one to go
 *     unlinks the name.  Processes give theirs back when their storages die
 *     or, at the latest, when they exit (mt_shm_detach_named, run at exit by
 *     minitorch.multiprocessing, also in children that leave by _exit).  A
 *     process killed while it holds a reference leaves the name behind (torch
 *     runs a manager daemon for that; minitorch does not: use the default
 *     strategy where processes may be killed).
 * The segment is reserved in full when it is made (fallocate), so exhausting
 * shared memory is an error that names the size asked for and the limit,
 * never a SIGBUS at the first touch of a page.
 * A segment is identified on this machine by its inode (descriptor segments)
 * or its name; receivers use that to map one segment once, whatever path
 * (and however many views) it came by.
 * Zero-byte storages get a one-page segment, so every shared storage has a
 * mapping and a descriptor or name to hand on. */

typedef enum { MT_SHM_FD = 0, MT_SHM_NAMED = 1 } mt_shm_kind;

/* What a shared storage knows of its segment (the storage's deleter context;
 * owned by the storage, read-only once made). */
typedef struct mt_shm {
    mt_shm_kind kind;
    int fd;          /* owned descriptor of a descriptor segment; -1 for named ones */
    uint64_t inode;  /* the segment's identity on this machine */
    size_t nbytes;   /* bytes of the storage */
    size_t maplen;   /* bytes mapped from `map` (page-rounded; + the header page of named ones) */
    void *map;       /* start of the mapping */
    char name[64];   /* the /dev/shm name of a named segment, "" otherwise */
} mt_shm;

/* A new shared storage of `nbytes` zero bytes in a fresh segment of `kind`.
 * Caller owns the reference; NULL with MT_ENOMEM (shared memory exhausted:
 * the message names the size and the limit) or MT_ERUNTIME on failure. */
mt_storage *mt_shm_storage_new(size_t nbytes, mt_shm_kind kind);
/* A storage over the descriptor segment `fd` (borrowed: it is duplicated) of
 * `nbytes` bytes.  MT_EINVAL when fd is no segment that large. */
mt_storage *mt_shm_storage_from_fd(int fd, size_t nbytes);
/* A storage over the named segment `name` of `nbytes` bytes, taking over the
 * reference its handle holds (see mt_shm_ref_for_handle). */
mt_storage *mt_shm_storage_open(const char *name, size_t nbytes);

/* The storage of this process that maps the segment `inode` (a new
 * reference), or NULL when none does (see Note [Mapped segments]). */
mt_storage *mt_shm_storage_lookup(uint64_t inode);
/* The segment of a shared storage (borrowed), or NULL when s is not shared. */
const mt_shm *mt_storage_shm(const mt_storage *s);
/* Moves s's bytes into a new segment of `kind`, in place: every tensor on s
 * sees the shared copy from then on (torch's share_memory_).  Nothing happens
 * when s is shared already.  The old buffer is freed at once (as torch), so
 * no other thread may be computing on s meanwhile: this is the one place
 * where a storage's data pointer changes (Note [Storage ownership]).  0, or a
 * negative code with s unchanged. */
int mt_storage_share_(mt_storage *s, mt_shm_kind kind);
/* A named segment: one more reference, for a handle about to be sent to
 * another process.  0, or MT_EINVAL for a storage that is not a named one. */
int mt_shm_ref_for_handle(const mt_storage *s);
/* Gives back a reference taken for a handle that will never be opened. */
void mt_shm_unref_name(const char *name);
/* Note [Shared regions]
 * A producer that reuses shared memory (a DataLoader worker's slabs) needs to
 * know when the consumer is done with a piece of it.  mt_shm_region gives the
 * consumer a storage over bytes [offset, offset + nbytes) of a shared storage
 * `segment` (it holds a reference to it); when that storage dies it stores 0
 * (release order) into the 32-bit word at byte `flag_offset` of the segment,
 * which the producer set to nonzero when it handed the region over.  No
 * message and no Python: any thread that drops the last tensor does it.
 * Caller owns the result; NULL with MT_EINVAL when the region or the flag do
 * not fit, or when segment is not shared. */
mt_storage *mt_shm_region(mt_storage *segment, size_t offset, size_t nbytes, size_t flag_offset);
/* At process exit: gives back this process's reference to every named
 * segment it maps (the mappings stay; their storages will not give it back
 * again), since a process that leaves by _exit never frees its storages. */
void mt_shm_detach_named(void);

#endif /* C10_LITE_SHM_H */
