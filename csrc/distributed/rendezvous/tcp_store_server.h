/* csrc/distributed/rendezvous/tcp_store_server.h - the TCPStore server thread (private). */
#ifndef CSRC_DISTRIBUTED_RENDEZVOUS_TCP_STORE_SERVER_H
#define CSRC_DISTRIBUTED_RENDEZVOUS_TCP_STORE_SERVER_H

#include <stddef.h>

typedef struct mt__ts_server mt__ts_server;

/* Binds 0.0.0.0/[::]:port (0: any free port) and starts the server thread;
 * with listen_fd >= 0, serves on that socket instead (bound, maybe listening:
 * the server owns it from then on, closed on failure too).  Caller owns the
 * result (mt__ts_server_stop); NULL + message on failure (port in use names
 * the port; `host` is only used in messages).  toklen > 0: every client must first prove it
 * knows `token` (copied; Note [Job token]). */
mt__ts_server *mt__ts_server_start(const char *host, int port, int listen_fd, const void *token,
                                   size_t toklen);
int mt__ts_server_port(const mt__ts_server *srv);
/* Stops the thread, closes every client connection, frees everything. */
void mt__ts_server_stop(mt__ts_server *srv);

#endif /* CSRC_DISTRIBUTED_RENDEZVOUS_TCP_STORE_SERVER_H */
