/* csrc/distributed/common/net.c - poll()-bounded socket helpers. See Note [Deadlines]. */
#include "csrc/distributed/common/net.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "c10_lite/error.h"

int64_t
mt_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t
mt__now_ms(void)
{
    return mt_now_us() / 1000;
}

int64_t
mt__deadline_after(int64_t timeout_ms)
{
    int64_t now = mt__now_ms();
    if (timeout_ms < 0) {
        timeout_ms = 0;
    }
    return timeout_ms > INT64_MAX - now ? INT64_MAX : now + timeout_ms;
}

int
mt__ms_left(int64_t deadline)
{
    int64_t left = deadline - mt__now_ms();
    if (left <= 0) {
        return 0;
    }
    return left > INT_MAX ? INT_MAX : (int)left;
}

void
mt__sleep_ms(int64_t ms)
{
    if (ms <= 0) {
        return;
    }
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
    }
}

int
mt__sock_setup(int fd)
{
    int fl = fcntl(fd, F_GETFL, 0);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 ||
        fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) {
        return mt_error_set(MT_ECONN, "could not configure a socket: %s", strerror(errno));
    }
    int one = 1;
    /* Fails harmlessly on non-TCP sockets. */
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    return 0;
}

/* Waits until fd is ready for `events`; MT_ETIMEOUT / MT_ECONN. */
static int
mt__wait_fd(int fd, short events, int64_t deadline, const char *peer, const char *what)
{
    for (;;) {
        struct pollfd p = {.fd = fd, .events = events};
        int left = mt__ms_left(deadline);
        int r = poll(&p, 1, left);
        if (r > 0) {
            return 0; /* errors/hangups surface in the following read/write */
        }
        if (r == 0) {
            return mt_error_set(MT_ETIMEOUT, "timed out %s %s", what, peer);
        }
        if (errno != EINTR) {
            return mt_error_set(MT_ECONN, "poll failed %s %s: %s", what, peer, strerror(errno));
        }
    }
}

int
mt__sock_write_full(int fd, const void *buf, size_t n, int64_t deadline, const char *peer)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w > 0) {
            p += w;
            n -= (size_t)w;
            continue;
        }
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            int rc = mt__wait_fd(fd, POLLOUT, deadline, peer, "sending to");
            if (rc < 0) {
                return rc;
            }
            continue;
        }
        if (w < 0 && errno == EINTR) {
            continue;
        }
        return mt_error_set(MT_ECONN, "connection to %s failed while sending: %s", peer,
                            w < 0 ? strerror(errno) : "no progress");
    }
    return 0;
}

int
mt__sock_read_full(int fd, void *buf, size_t n, int64_t deadline, const char *peer)
{
    char *p = buf;
    while (n > 0) {
        ssize_t r = recv(fd, p, n, 0);
        if (r > 0) {
            p += r;
            n -= (size_t)r;
            continue;
        }
        if (r == 0) {
            return mt_error_set(MT_ECONN, "connection closed by %s", peer);
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            int rc = mt__wait_fd(fd, POLLIN, deadline, peer, "waiting for data from");
            if (rc < 0) {
                return rc;
            }
            continue;
        }
        if (errno == EINTR) {
            continue;
        }
        return mt_error_set(MT_ECONN, "connection to %s failed while receiving: %s", peer,
                            strerror(errno));
    }
    return 0;
}

/* One non-blocking connect attempt to one address.  Returns the fd, or -errno. */
static int
mt__try_connect(const struct addrinfo *ai, int64_t deadline)
{
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
        return -errno;
    }
    if (mt__sock_setup(fd) < 0) {
        close(fd);
        return -EINVAL;
    }
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
        return fd;
    }
    if (errno != EINPROGRESS) {
        int e = errno;
        close(fd);
        return -e;
    }
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    int r;
    do {
        r = poll(&p, 1, mt__ms_left(deadline));
    } while (r < 0 && errno == EINTR);
    if (r <= 0) {
        close(fd);
        return r == 0 ? -ETIMEDOUT : -errno;
    }
    int err = 0;
    socklen_t len = sizeof(err);
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0) {
        err = errno;
    }
    if (err != 0) {
        close(fd);
        return -err;
    }
    return fd;
}

int
mt__sock_connect_once(const char *host, int port, int64_t deadline, int *fd_out)
{
    char portstr[16];
    snprintf(portstr, sizeof(portstr), "%d", port);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    struct addrinfo *res = NULL;
    int g = getaddrinfo(host, portstr, &hints, &res);
    if (g != 0) {
        return mt_error_set(MT_ECONN, "connecting to (%s, %d): %s", host, port, gai_strerror(g));
    }
    int err = ETIMEDOUT;
    for (struct addrinfo *ai = res; ai != NULL; ai = ai->ai_next) {
        int fd = mt__try_connect(ai, deadline);
        if (fd >= 0) {
            freeaddrinfo(res);
            *fd_out = fd;
            return 0;
        }
        err = -fd;
    }
    freeaddrinfo(res);
    return mt_error_set(err == ETIMEDOUT ? MT_ETIMEOUT : MT_ECONN, "connecting to (%s, %d): %s",
                        host, port, strerror(err));
}

int
mt__sock_connect(const char *host, int port, int64_t deadline, int *fd_out)
{
    char portstr[16];
    snprintf(portstr, sizeof(portstr), "%d", port);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    int64_t start = mt__now_ms();
    int64_t backoff = 10;
    int last_err = 0, last_gai = 0;
    for (;;) {
        struct addrinfo *res = NULL;
        int g = getaddrinfo(host, portstr, &hints, &res);
        if (g != 0) {
            /* a name that does not resolve yet may resolve later (a peer's DNS entry
             * appearing as its container starts): retried until the deadline, as torch */
            last_gai = g;
        }
        else {
            last_gai = 0;
            for (struct addrinfo *ai = res; ai != NULL; ai = ai->ai_next) {
                int fd = mt__try_connect(ai, deadline);
                if (fd >= 0) {
                    freeaddrinfo(res);
                    *fd_out = fd;
                    return 0;
                }
                last_err = -fd;
            }
            freeaddrinfo(res);
        }
        if (mt__now_ms() >= deadline) {
            break;
        }
        mt__sleep_ms(backoff < mt__ms_left(deadline) ? backoff : mt__ms_left(deadline));
        backoff = backoff * 2 > 250 ? 250 : backoff * 2;
    }
    /* torch's wording ("The client socket has timed out after ... while trying to connect
     * to (host, port)"), which scripts match; MT_ECONN: a DistNetworkError */
    return mt_error_set(MT_ECONN,
                        "The client socket has timed out after %lldms while trying to connect to "
                        "(%s, %d) (last error: %s)",
                        (long long)(mt__now_ms() - start), host, port,
                        last_gai ? gai_strerror(last_gai)
                                 : last_err ? strerror(last_err) : "timeout");
}

int
mt__sock_listen(const char *bind_host, int port, int backlog, int *fd_out, int *port_out)
{
    char portstr[16];
    snprintf(portstr, sizeof(portstr), "%d", port);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
    struct addrinfo *res = NULL;
    int g;
    if (bind_host == NULL) {
        /* Prefer a dual-stack IPv6 socket, fall back to IPv4. */
        hints.ai_family = AF_INET6;
        g = getaddrinfo(NULL, portstr, &hints, &res);
        if (g != 0) {
            hints.ai_family = AF_INET;
            g = getaddrinfo(NULL, portstr, &hints, &res);
        }
    }
    else {
        g = getaddrinfo(bind_host, portstr, &hints, &res);
    }
    const char *shown = bind_host ? bind_host : "0.0.0.0";
    if (g != 0) {
        return mt_error_set(MT_EINVAL, "could not resolve address %s:%d to listen on: %s", shown,
                            port, gai_strerror(g));
    }
    int last_err = 0;
    for (struct addrinfo *ai = res; ai != NULL; ai = ai->ai_next) {
        int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            last_err = errno;
            continue;
        }
        int one = 1, zero = 0;
        (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
        if (ai->ai_family == AF_INET6 && bind_host == NULL) {
            (void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
        }
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, backlog) < 0) {
            last_err = errno;
            close(fd);
            continue;
        }
        struct sockaddr_storage ss;
        socklen_t sl = sizeof(ss);
        if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0 || mt__sock_setup(fd) < 0) {
            last_err = errno;
            close(fd);
            continue;
        }
        *port_out = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                                  : ((struct sockaddr_in *)&ss)->sin_port);
        *fd_out = fd;
        freeaddrinfo(res);
        return 0;
    }
    freeaddrinfo(res);
    if (last_err == EADDRINUSE) {
        /* torch's words (its libuv server's), which launchers and tests match */
        (void)shown;
        return mt_error_set(MT_ECONN,
                            "The server socket has failed to listen on any local network address. "
                            "port: %d, useIpv6: false, code: -98, name: EADDRINUSE, message: "
                            "address already in use",
                            port);
    }
    return mt_error_set(MT_ECONN, "failed to listen on %s:%d: %s", shown, port,
                        strerror(last_err ? last_err : EINVAL));
}

int
mt__sock_adopt_listener(int fd, int backlog, int *fd_out, int *port_out)
{
    struct sockaddr_storage ss;
    socklen_t sl = sizeof(ss);
    int type = 0;
    socklen_t tl = sizeof(type);
    errno = 0;
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tl) < 0 || type != SOCK_STREAM ||
        listen(fd, backlog) < 0 || getsockname(fd, (struct sockaddr *)&ss, &sl) < 0 ||
        (ss.ss_family != AF_INET && ss.ss_family != AF_INET6) || mt__sock_setup(fd) < 0) {
        int err = errno ? errno : EINVAL;
        close(fd);
        return mt_error_set(MT_EINVAL, "cannot serve on the given listening socket (fd %d): %s",
                            fd, strerror(err));
    }
    (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
    *port_out = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                              : ((struct sockaddr_in *)&ss)->sin_port);
    *fd_out = fd;
    return 0;
}

int
mt__sock_accept(int lfd, int64_t deadline, int *fd_out)
{
    for (;;) {
        int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        if (fd >= 0) {
            int rc = mt__sock_setup(fd);
            if (rc < 0) {
                close(fd);
                return rc;
            }
            *fd_out = fd;
            return 0;
        }
        if (errno == EINTR || errno == ECONNABORTED) {
            continue;
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
            return mt_error_set(MT_ECONN, "accept failed: %s", strerror(errno));
        }
        int rc = mt__wait_fd(lfd, POLLIN, deadline, "peers", "waiting for connections from");
        if (rc < 0) {
            return rc;
        }
    }
}

int
mt__sockaddr_host(const struct sockaddr *sa, char *buf, size_t cap)
{
    const void *src = sa->sa_family == AF_INET6 ? (const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr
                                                : (const void *)&((const struct sockaddr_in *)sa)->sin_addr;
    if (inet_ntop(sa->sa_family, src, buf, (socklen_t)cap) == NULL) {
        return mt_error_set(MT_EINVAL, "could not format a socket address: %s", strerror(errno));
    }
    /* An IPv4 peer seen through a dual-stack socket: report plain IPv4. */
    if (strncmp(buf, "::ffff:", 7) == 0 && strchr(buf + 7, '.') != NULL) {
        memmove(buf, buf + 7, strlen(buf + 7) + 1);
    }
    return 0;
}
