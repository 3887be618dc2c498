/* csrc/distributed/common/net.h - clocks, deadlines and poll()-bounded socket helpers. */
#ifndef CSRC_DISTRIBUTED_COMMON_NET_H
#define CSRC_DISTRIBUTED_COMMON_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* Note [Deadlines]
 * Every blocking step in the distributed code takes an absolute deadline on
 * the monotonic clock (milliseconds) and waits with poll() for at most the
 * time left, so no wait can outlive its timeout.  Sockets are non-blocking. */

int64_t mt__now_ms(void);
/* CLOCK_MONOTONIC in microseconds. */
int64_t mt_now_us(void);
/* now + timeout_ms, saturating. */
int64_t mt__deadline_after(int64_t timeout_ms);
/* Milliseconds left until `deadline` as a poll() timeout (>= 0, <= INT_MAX). */
int mt__ms_left(int64_t deadline);
void mt__sleep_ms(int64_t ms);

/* Sets O_NONBLOCK, O_CLOEXEC-like flags, TCP_NODELAY (for TCP sockets). */
int mt__sock_setup(int fd);
/* Writes/reads exactly n bytes of a non-blocking socket before `deadline`.
 * `peer` names the other side in error messages ("rank 2", "TCPStore server
 * host:port").  Errors: MT_ETIMEOUT, MT_ECONN (closed, reset, ...). */
int mt__sock_write_full(int fd, const void *buf, size_t n, int64_t deadline, const char *peer);
int mt__sock_read_full(int fd, void *buf, size_t n, int64_t deadline, const char *peer);

/* One attempt to connect to host:port (each of its addresses), before `deadline`: a refused
 * or unreachable peer fails at once.  MT_ECONN / MT_ETIMEOUT naming host:port. */
int mt__sock_connect_once(const char *host, int port, int64_t deadline, int *fd_out);
/* Connects to host:port, retrying refused/unreachable attempts with a short
 * backoff until `deadline`.  *fd_out is a set-up socket (caller closes).
 * MT_ETIMEOUT / MT_ECONN / MT_EINVAL (unresolvable host) naming host:port. */
int mt__sock_connect(const char *host, int port, int64_t deadline, int *fd_out);
/* Listens on bind_host:port (bind_host NULL: every interface, dual-stack when
 * IPv6 exists; port 0: a free port).  *fd_out (caller closes), *port_out the
 * bound port.  Port in use: MT_ECONN naming host:port. */
int mt__sock_listen(const char *bind_host, int port, int backlog, int *fd_out, int *port_out);
/* Serves on an existing bound TCP socket `fd` (steals it: closed on failure):
 * listens on it, sets it up like mt__sock_listen's; *port_out its port.
 * MT_EINVAL when fd is not a bound stream socket. */
int mt__sock_adopt_listener(int fd, int backlog, int *fd_out, int *port_out);
/* Accepts one connection before `deadline` (MT_ETIMEOUT). *fd_out is set up. */
int mt__sock_accept(int lfd, int64_t deadline, int *fd_out);
/* Numeric host of a socket address ("10.0.0.1", "fe80::1") into buf. */
int mt__sockaddr_host(const struct sockaddr *sa, char *buf, size_t cap);

#endif /* CSRC_DISTRIBUTED_COMMON_NET_H */
