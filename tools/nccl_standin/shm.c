/* tools/nccl_standin/shm.c - a communicator's shared-memory segment and the waits on it (Note
 * [The NCCL stand-in]). */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "standin.h"

static size_t
si_round(size_t n)
{
    return (n + 4095) & ~(size_t)4095;
}

ncclResult_t
si_segment_open(struct ncclComm *comm)
{
    int n = comm->nranks;
    unsigned long long h = 1469598103934665603ULL; /* FNV-1a of the id */
    for (size_t i = 0; i < sizeof(comm->id.internal); i++) {
        h = (h ^ (unsigned char)comm->id.internal[i]) * 1099511628211ULL;
    }
    snprintf(comm->name, sizeof(comm->name), "/mt-nccl-%016llx", h);
    comm->slot_bytes = (size_t)1 << 20;
    comm->ring_bytes = si_round(((size_t)1 << 20) / (size_t)n); /* 1 MiB per rank's rings */
    size_t hdr = si_round(sizeof(si_header));
    size_t slots = comm->slot_bytes * (size_t)n;
    size_t rings = (sizeof(si_ring) + comm->ring_bytes) * (size_t)n * (size_t)n;
    comm->bytes = hdr + slots + rings;
    int fd = shm_open(comm->name, O_RDWR | O_CREAT, 0600);
    if (fd < 0) {
        return ncclSystemError;
    }
    /* reserved, not only sized: a full /dev/shm is an error here, not a SIGBUS later */
    if (posix_fallocate(fd, 0, (off_t)comm->bytes) != 0) {
        close(fd);
        shm_unlink(comm->name);
        return ncclSystemError;
    }
    void *base = mmap(NULL, comm->bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (base == MAP_FAILED) {
        return ncclSystemError;
    }
    comm->base = base;
    comm->hdr = base;
    comm->slots = (char *)base + hdr;
    comm->rings = comm->slots + slots;
    int expect = 0;
    if (!atomic_compare_exchange_strong(&comm->hdr->nranks, &expect, n) && expect != n) {
        si_segment_close(comm);
        return ncclInvalidUsage; /* the same id with another number of ranks */
    }
    memcpy(comm->hdr->magic, SI_MAGIC, sizeof(SI_MAGIC));
    comm->hdr->pid[comm->rank] = getpid();
    atomic_fetch_add(&comm->hdr->joined, 1);
    /* everyone has opened it: the name can go (the mappings stay), so nothing is left behind */
    double deadline = si_now() + si_timeout_s();
    unsigned spins = 0;
    while (atomic_load(&comm->hdr->joined) < n) {
        if (si_now() > deadline) {
            shm_unlink(comm->name);
            si_segment_close(comm);
            return ncclSystemError;
        }
        si_pause(&spins);
    }
    if (comm->rank == 0) {
        shm_unlink(comm->name);
    }
    return ncclSuccess;
}

void
si_segment_close(struct ncclComm *comm)
{
    if (comm->base != NULL) {
        munmap(comm->base, comm->bytes);
        comm->base = NULL;
    }
}

void
si_pause(unsigned *spins)
{
    if (++*spins < 64) {
        sched_yield();
        return;
    }
    struct timespec ts = {0, *spins < 1024 ? 20000 : 200000};
    nanosleep(&ts, NULL);
}

ncclResult_t
si_check(struct ncclComm *comm, double deadline)
{
    if (atomic_load(&comm->local_abort)) {
        return ncclInvalidUsage;
    }
    if (atomic_load(&comm->hdr->aborted)) {
        return ncclRemoteError;
    }
    if (si_now() > deadline) {
        return ncclSystemError;
    }
    return ncclSuccess;
}

/* whether a peer's process is gone (checked now and then: a kill(2) per call) */
static int
si_peer_died(struct ncclComm *comm)
{
    for (int r = 0; r < comm->nranks; r++) {
        pid_t p = comm->hdr->pid[r];
        if (p > 0 && kill(p, 0) < 0 && errno == ESRCH) {
            return 1;
        }
    }
    return 0;
}

ncclResult_t
si_barrier(struct ncclComm *comm, si_counter *ctr, uint64_t seq)
{
    atomic_store(&ctr[comm->rank].v, seq);
    double deadline = si_now() + si_timeout_s();
    unsigned spins = 0;
    for (int r = 0; r < comm->nranks; r++) {
        while (atomic_load(&ctr[r].v) < seq) {
            ncclResult_t rc = si_check(comm, deadline);
            if (rc == ncclSuccess && (spins & 1023) == 1023 && si_peer_died(comm)) {
                rc = ncclRemoteError;
            }
            if (rc != ncclSuccess) {
                return rc;
            }
            si_pause(&spins);
        }
    }
    return ncclSuccess;
}
