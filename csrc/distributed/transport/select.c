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
 * rank 0's host and none asked for tcp, TCP otherwise; asking for shm where
 * a rank is elsewhere is an error naming it.  When rank 0 cannot create the
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

/* Rank 0: the decision ("shm" or "tcp") from every rank's key. */
static int
mt__decide(mt_store *store, int size, const char *mine, int64_t deadline, char *out, size_t cap)
{
    const char *where0 = strchr(mine, ' ') + 1;
    bool local = true, any_tcp = strncmp(mine, "tcp ", 4) == 0, any_shm = strncmp(mine, "shm ", 4) == 0;
    int away = -1, rc = 0;
    for (int r = 1; r < size && rc == 0; r++) {
        char key[40], *v = NULL;
        snprintf(key, sizeof(key), "transport/host/%d", r);
        rc = mt_store_get_str(store, key, mt__ms_left(deadline), &v);
        if (rc == 0) {
            const char *where = strchr(v, ' ');
            any_tcp |= strncmp(v, "tcp ", 4) == 0;
            any_shm |= strncmp(v, "shm ", 4) == 0;
            if (where == NULL || strcmp(where + 1, where0) != 0) {
                local = false;
                away = away < 0 ? r : away;
            }
        }
        free(v);
    }
    if (rc < 0) {
        return rc;
    }
    if (any_shm && !local) {
        snprintf(out, cap, "error MINITORCH_TRANSPORT=shm needs every rank on one host; rank %d is "
                 "not on rank 0's host", away);
    }
    else if (any_shm && any_tcp) {
        snprintf(out, cap, "error MINITORCH_TRANSPORT=shm on one rank and tcp on another");
    }
    else {
        snprintf(out, cap, "%s", any_shm ? "shm forced" : local && !any_tcp ? "shm auto" : "tcp");
    }
    return 0;
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
    char mine[512], choice[256];
    mt__host_key(mode, mine, sizeof(mine));
    int rc = 0;
    if (rank == 0) {
        rc = mt__decide(store, size, mine, deadline, choice, sizeof(choice));
        if (rc == 0) {
            rc = mt_store_set_str(store, "transport/choice", choice);
        }
    }
    else {
        char key[40], *v = NULL;
        snprintf(key, sizeof(key), "transport/host/%d", rank);
        rc = mt_store_set_str(store, key, mine);
        if (rc == 0) {
            rc = mt_store_get_str(store, "transport/choice", mt__ms_left(deadline), &v);
        }
        if (rc == 0) {
            snprintf(choice, sizeof(choice), "%s", v);
        }
        free(v);
    }
    if (rc < 0) {
        mt_error_prefix(rc, "rank %d: choosing the transport", rank);
        return NULL;
    }
    if (strncmp(choice, "error ", 6) == 0) {
        mt_error_set(MT_EINVAL, "%s", choice + 6);
        return NULL;
    }
    int64_t left = mt__ms_left(deadline);
    left = left > 0 ? left : 1;
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
