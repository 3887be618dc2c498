/* csrc/distributed/common/auth.h - the job token and its HMAC challenge-response. */
#ifndef CSRC_DISTRIBUTED_COMMON_AUTH_H
#define CSRC_DISTRIBUTED_COMMON_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Note [Job token]
 * The threat: the TCPStore server and the TCP transport listen on ports that every user and
 * process of a shared host (or of the network) can reach.  Without a token anyone connecting
 * can set, read or wait on the job's keys, publish addresses the ranks then connect to, or
 * join a group's mesh and feed it bytes - bytes that the object collectives unpickle, which
 * runs arbitrary code.
 *
 * With a job token (MINITORCH_DIST_TOKEN, TCPStore(token=...), a `token` attribute of the
 * pg_options given to init_process_group) every connection to the store's server and every
 * connection of the TCP transport starts with a mutual challenge-response, before any other
 * byte is accepted:
 *     client -> server   u32 "MTAU" | 32-byte client nonce cn
 *     server -> client   32-byte server nonce sn | HMAC(token, "minitorch-auth-server" cn sn)
 *     client -> server   HMAC(token, "minitorch-auth-client" sn cn)
 * (HMAC-SHA256; nonces from getrandom).  Each side checks the other's proof in constant time;
 * the nonces make a recorded exchange useless later, and the token never crosses the wire.
 * A connection that sends anything else, a wrong proof, or nothing within
 * MT_AUTH_HANDSHAKE_MS is closed and a line naming its host and port goes to stderr; it has
 * touched no key and no rank.  A client that cannot prove the server knows the token (a
 * server without one, or an impostor) gives up too.  The shared-memory transport needs no
 * handshake: its segment is created 0600 (the job's user only), its name reaches the ranks
 * through the authenticated store only, and it is unlinked as soon as every rank has it.
 * So with a token every peer a collective hears from - object collectives included - proved
 * it knows the token.
 *
 * Without a token nothing changes: the same bytes as before, no extra round trip.  The token
 * is not encryption: traffic after the handshake is in the clear, so a network where others
 * can read or rewrite packets needs a VPN or TLS tunnel as well. */

#define MT_AUTH_MAGIC 0x4d544155u /* "MTAU", big endian on the wire */
#define MT_AUTH_NONCE_BYTES 32
#define MT_AUTH_TOKEN_MAX 1024
#define MT_AUTH_HANDSHAKE_MS 10000
/* bytes a server reads first, and the bytes of its answer */
#define MT_AUTH_HELLO_BYTES (4 + MT_AUTH_NONCE_BYTES)
#define MT_AUTH_REPLY_BYTES (MT_AUTH_NONCE_BYTES + 32)
#define MT_AUTH_PROOF_BYTES 32

/* The token of this process's groups (the transports'): set by the Python layer; until it is,
 * MINITORCH_DIST_TOKEN.  tok NULL: back to the environment variable.  An empty token means
 * none.  MT_EINVAL for a token longer than MT_AUTH_TOKEN_MAX. */
int mt_dist_set_token(const void *tok, size_t n);
/* Copies the current token into buf (MT_AUTH_TOKEN_MAX bytes); its length, 0 for none. */
size_t mt_dist_token(char buf[MT_AUTH_TOKEN_MAX]);

/* Client side on a connected non-blocking socket, before `deadline` (and at most
 * MT_AUTH_HANDSHAKE_MS).  `peer` names the other side in messages.  MT_ECONN when the server
 * does not prove it knows the token or closes the connection, MT_ETIMEOUT. */
int mt_auth_client(int fd, const void *tok, size_t n, int64_t deadline, const char *peer);

/* Server side, blocking on `fd` the same way.  0: authenticated; < 0: refused, the reason in
 * the error message (already logged with the peer's address, `who` naming this side). */
int mt_auth_server(int fd, const void *tok, size_t n, int64_t deadline, const char *who);

/* The server's two steps for event loops.  reply: the client's hello (MT_AUTH_HELLO_BYTES) ->
 * the answer to send (MT_AUTH_REPLY_BYTES) and the expected proof; false when the hello is
 * not one (wrong magic: a client without a token). */
bool mt_auth_server_reply(const void *tok, size_t n, const unsigned char *hello,
                          unsigned char *reply, unsigned char *expect);
/* The client's two steps for event loops.  hello: fills the client's hello (MT_AUTH_HELLO_BYTES,
 * a fresh nonce); < 0 when no nonce could be drawn.  proof: the server's answer
 * (MT_AUTH_REPLY_BYTES) to that hello -> the client's proof (MT_AUTH_PROOF_BYTES); false when
 * the server did not prove it knows the token. */
int mt_auth_client_hello(unsigned char *hello);
bool mt_auth_client_proof(const void *tok, size_t n, const unsigned char *hello,
                          const unsigned char *reply, unsigned char *proof);
/* Constant-time check of the client's proof. */
bool mt_auth_proof_ok(const unsigned char *proof, const unsigned char *expect);

/* One line on stderr: "<who>: refused a connection from <host>:<port>: <why>". */
void mt_auth_log_refused(int fd, const char *who, const char *why);

#endif /* CSRC_DISTRIBUTED_COMMON_AUTH_H */
