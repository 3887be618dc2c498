/* csrc/distributed/transport/select.c - which transport a group uses: shared memory when all its ranks share a host, else TCP. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c10_lite/error.h"
#include "csrc/distributed/common/net.h"
#include "csrc/distributed/transport/transport.h"

/* Note [Choosing a transport]
 * MINITORCH_TRANSPORT = auto (default) | shm | tcp.  Every rank publishes
 * its choice and where it runs: host name, boot id, network namespace and
 * the device and inode of /dev/shm (two containers of one machine share
 * memory only when all of these agree; guessing from LOCAL_WORLD_SIZE would
 * be wrong for them).  Rank 0 decides for the whole group and publishes the
 * decision, so ranks never disagree: shared memory when every rank is on
 * rank 0's host and none asked for tcp; when the ranks are on several hosts
 * and some host has more than one, shared memory among each host's ranks and
 * TCP between hosts (Note [Routing by peer]); TCP otherwise.  Asking for shm
 * where a rank is elsewhere is an error naming it.  MINITORCH_HOST_ID, when
 * set, stands for all of the host's identity (ranks with different ids never
 * share memory; ranks with one id must be able to).  When rank 0 cannot create the
 * segment (no /dev/shm, or too little room: many groups, a small container
 * /dev/shm), auto falls back to TCP on every rank; forced shm is an error.
 * A group of one rank needs no
 * connections (TCP transport with nothing to connect).  Naming a network
 * interface (MINITORCH_SOCKET_IFNAME, GLOO_SOCKET_IFNAME) asks for TCP. */

static int
mt__mode(const char **out)
{
    const char *v = getenv("MINITORCH_TRANSPORT");
    if (v == NULL || v[0] == '\0' || strcmp(v, "auto") == 0) {
        /* an interface named for the TCP backend asks for the network */
        const char *ifn = getenv("MINITORCH_SOCKET_IFNAME"), *gifn = getenv("GLOO_SOCKET_IFNAME");
        bool net = (ifn != NULL && ifn[0] != '\0') || (gifn != NULL && gifn[0] != '\0');
        *out = net ? "tcp" : "auto";
    }
    else if (strcmp(v, "shm") == 0 || strcmp(v, "tcp") == 0) {
        *out = v;
    }
    else {
        return mt_error_set(MT_EINVAL, "MINITORCH_TRANSPORT=%s: expected auto, shm or tcp", v);
    }
    return 0;
}

static void
mt__read_line(const char *path, char *buf, size_t cap)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f != NULL) {
        if (fgets(buf, (int)cap, f) == NULL) {
            buf[0] = '\0';
        }
        fclose(f);
    }
    buf[strcspn(buf, "\n")] = '\0';
}

/* "<mode> <host>|<boot id>|<netns>|<dev:ino of /dev/shm>" */
static void
mt__host_key(const char *mode, char *buf, size_t cap)
{
    const char *id = getenv("MINITORCH_HOST_ID");
    if (id != NULL && id[0] != '\0') {
        snprintf(buf, cap, "%s id:%s", mode, id);
        return;
    }
    char host[256] = "", boot[64], ns[64] = "";
    if (gethostname(host, sizeof(host)) < 0) {
        host[0] = '\0';
    }
    host[sizeof(host) - 1] = '\0';
    mt__read_line("/proc/sys/kernel/random/boot_id", boot, sizeof(boot));
    ssize_t n = readlink("/proc/self/ns/net", ns, sizeof(ns) - 1);
    ns[n > 0 ? n : 0] = '\0';
    struct stat st;
    unsigned long long dev = 0, ino = 0;
    if (stat("/dev/shm", &st) == 0) {
        dev = (unsigned long long)st.st_dev;
        ino = (unsigned long long)st.st_ino;
    }
    snprintf(buf, cap, "%s %s|%s|%s|%llx:%llx", mode, host, boot, ns, dev, ino);
}

/* Rank 0: the decision from every rank's key: "shm auto|forced", "tcp",
 * "route <host of rank 0> <host of rank 1> ..." or "error <why>". */
static int
mt__decide(mt_store *store, int size, const char *mine, int64_t deadline, char *out, size_t cap)
{
    char **where = calloc((size_t)size, sizeof(*where)); /* rank r's "<where>" */
    int *host = calloc((size_t)size, sizeof(*host));
    if (where == NULL || host == NULL) {
        free(where);
        free(host);
        return mt_error_set(MT_ENOMEM, "out of memory choosing a transport");
    }
    bool local = true, shared = false, any_tcp = strncmp(mine, "tcp ", 4) == 0;
    bool any_shm = strncmp(mine, "shm ", 4) == 0;
    int away = -1, rc = 0;
    where[0] = strdup(strchr(mine, ' ') + 1);
    rc = where[0] ? 0 : mt_error_set(MT_ENOMEM, "out of memory choosing a transport");
    for (int r = 1; r < size && rc == 0; r++) {
        char key[40], *v = NULL;
        snprintf(key, sizeof(key), "transport/host/%d", r);
        rc = mt_store_get_str(store, key, mt__ms_left(deadline), &v);
        if (rc == 0) {
            const char *w = strchr(v, ' ');
            any_tcp |= strncmp(v, "tcp ", 4) == 0;
            any_shm |= strncmp(v, "shm ", 4) == 0;
            where[r] = strdup(w != NULL ? w + 1 : "");
            rc = where[r] ? 0 : mt_error_set(MT_ENOMEM, "out of memory choosing a transport");
        }
        free(v);
    }
    for (int r = 0; r < size && rc == 0; r++) { /* host[r]: the first rank on r's host */
        host[r] = r;
        for (int q = 0; q < r; q++) {
            if (strcmp(where[q], where[r]) == 0) {
                host[r] = host[q];
                shared = true;
                break;
            }
        }
        if (host[r] != 0) {
            local = false;
            away = away < 0 ? r : away;
        }
    }
    if (rc == 0) {
        if (any_shm && !local) {
            snprintf(out, cap, "error MINITORCH_TRANSPORT=shm needs every rank on one host; rank "
                     "%d is not on rank 0's host", away);
        }
        else if (any_shm && any_tcp) {
            snprintf(out, cap, "error MINITORCH_TRANSPORT=shm on one rank and tcp on another");
        }
        else if (any_tcp || (!local && !shared)) {
            snprintf(out, cap, "tcp");
        }
        else if (local) {
            snprintf(out, cap, "%s", any_shm ? "shm forced" : "shm auto");
        }
        else {
            size_t len = (size_t)snprintf(out, cap, "route");
            for (int r = 0; r < size && len < cap; r++) {
                len += (size_t)snprintf(out + len, cap - len, " %d", host[r]);
            }
            if (len >= cap) {
                snprintf(out, cap, "tcp"); /* too many ranks to write down: the network */
            }
        }
    }
    for (int r = 0; r < size; r++) {
        free(where[r]);
    }
    free(where);
    free(host);
    return rc;
}

/* The host numbers of a "route ..." decision into host_of[size]. */
static int
mt__parse_route(const char *choice, int size, int *host_of)
{
    const char *p = choice + strlen("route");
    for (int r = 0; r < size; r++) {
        char *end;
        long h = strtol(p, &end, 10);
        if (end == p || h < 0 || h >= size) {
            return mt_error_set(MT_ERUNTIME, "malformed transport decision \"%.100s\"", choice);
        }
        host_of[r] = (int)h;
        p = end;
    }
    return 0;
}

/* Builds the transport that `choice` (the decision) names. */
static mt_transport *
mt__build(mt_store *store, int rank, int size, const char *choice, int64_t deadline)
{
    if (strncmp(choice, "error ", 6) == 0) {
        mt_error_set(MT_EINVAL, "%s", choice + 6);
        return NULL;
    }
    int64_t left = mt__ms_left(deadline);
    left = left > 0 ? left : 1;
    if (strncmp(choice, "route", 5) == 0) {
        int *host_of = malloc(sizeof(int) * (size_t)size);
        if (host_of == NULL) {
            mt_error_set(MT_ENOMEM, "out of memory choosing a transport");
            return NULL;
        }
        mt_transport *tp = mt__parse_route(choice, size, host_of) == 0
                               ? mt_route_transport_new(store, rank, size, host_of, left)
                               : NULL;
        free(host_of);
        return tp;
    }
    if (strncmp(choice, "shm", 3) == 0) {
        mt_transport *tp = mt_shm_transport_new(store, rank, size, left);
        if (tp != NULL || mt_error_code() != MT_ENOTIMPL) {
            return tp;
        }
        if (strcmp(choice, "shm auto") != 0) { /* asked for: its absence is an error */
            char why[512];
            snprintf(why, sizeof(why), "%s", mt_error_message());
            mt_error_set(MT_ERUNTIME, "%s (MINITORCH_TRANSPORT=shm)", why);
            return NULL;
        }
        /* rank 0 could not make the segment: every rank learns it from the store and
         * falls back to TCP alike */
        left = mt__ms_left(deadline);
        left = left > 0 ? left : 1;
    }
    return mt_tcp_transport_new(store, rank, size, left);
}

mt_transport *
mt_transport_new(mt_store *store, int rank, int size, int64_t timeout_ms)
{
    const char *mode = "auto";
    if (mt__mode(&mode) < 0) {
        return NULL;
    }
    if (size == 1) {
        return mt_tcp_transport_new(store, rank, size, timeout_ms);
    }
    int64_t deadline = mt__deadline_after(timeout_ms);
    char mine[512];
    mt__host_key(mode, mine, sizeof(mine));
    size_t cap = 64 + (size_t)size * 12; /* room for a route decision */
    char *choice = NULL;
    int rc = 0;
    if (rank == 0) {
        choice = malloc(cap);
        rc = choice ? mt__decide(store, size, mine, deadline, choice, cap)
                    : mt_error_set(MT_ENOMEM, "out of memory choosing a transport");
        if (rc == 0) {
            rc = mt_store_set_str(store, "transport/choice", choice);
        }
    }
    else {
        char key[40];
        snprintf(key, sizeof(key), "transport/host/%d", rank);
        rc = mt_store_set_str(store, key, mine);
        if (rc == 0) {
            rc = mt_store_get_str(store, "transport/choice", mt__ms_left(deadline), &choice);
        }
    }
    mt_transport *tp = NULL;
    if (rc < 0) {
        mt_error_prefix(rc, "rank %d: choosing the transport", rank);
    }
    else {
        tp = mt__build(store, rank, size, choice, deadline);
    }
    free(choice);
    return tp;
}

