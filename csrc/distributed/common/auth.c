/* csrc/distributed/common/auth.c - the job token and its HMAC challenge-response (Note [Job token]). */
#include "csrc/distributed/common/auth.h"

#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>

#include "c10_lite/error.h"
#include "csrc/distributed/common/net.h"
#include "csrc/distributed/common/sha256.h"

static pthread_mutex_t mt__tok_mu = PTHREAD_MUTEX_INITIALIZER;
static bool mt__tok_set;
static size_t mt__tok_len;
static char mt__tok[MT_AUTH_TOKEN_MAX];

int
mt_dist_set_token(const void *tok, size_t n)
{
    if (n > MT_AUTH_TOKEN_MAX) {
        return mt_error_set(MT_EINVAL, "the job token is %zu bytes; at most %d are allowed", n,
                            MT_AUTH_TOKEN_MAX);
    }
    pthread_mutex_lock(&mt__tok_mu);
    mt__tok_set = tok != NULL;
    mt__tok_len = tok != NULL ? n : 0;
    if (n) {
        memcpy(mt__tok, tok, n);
    }
    pthread_mutex_unlock(&mt__tok_mu);
    return 0;
}

size_t
mt_dist_token(char buf[MT_AUTH_TOKEN_MAX])
{
    size_t n;
    pthread_mutex_lock(&mt__tok_mu);
    if (mt__tok_set) {
        n = mt__tok_len;
        memcpy(buf, mt__tok, n);
    }
    else {
        const char *e = getenv("MINITORCH_DIST_TOKEN");
        n = e ? strlen(e) : 0;
        n = n > MT_AUTH_TOKEN_MAX ? MT_AUTH_TOKEN_MAX : n;
        memcpy(buf, e ? e : "", n);
    }
    pthread_mutex_unlock(&mt__tok_mu);
    return n;
}

static int
mt__nonce(unsigned char *out)
{
    size_t got = 0;
    while (got < MT_AUTH_NONCE_BYTES) {
        ssize_t r = getrandom(out + got, MT_AUTH_NONCE_BYTES - got, 0);
        if (r < 0 && errno != EINTR) {
            return mt_error_set(MT_ERUNTIME, "getrandom failed: %s", strerror(errno));
        }
        got += r > 0 ? (size_t)r : 0;
    }
    return 0;
}

/* HMAC(token, label | a | b) */
static void
mt__proof(const void *tok, size_t n, const char *label, const unsigned char *a,
          const unsigned char *b, unsigned char *out)
{
    const void *parts[3] = {label, a, b};
    size_t lens[3] = {strlen(label), MT_AUTH_NONCE_BYTES, MT_AUTH_NONCE_BYTES};
    mt_hmac_sha256(tok, n, 3, parts, lens, out);
}

static int64_t
mt__handshake_deadline(int64_t deadline)
{
    int64_t d = mt__deadline_after(MT_AUTH_HANDSHAKE_MS);
    return deadline < d ? deadline : d;
}

int
mt_auth_client(int fd, const void *tok, size_t n, int64_t deadline, const char *peer)
{
    deadline = mt__handshake_deadline(deadline);
    unsigned char hello[MT_AUTH_HELLO_BYTES], reply[MT_AUTH_REPLY_BYTES];
    unsigned char expect[32], proof[MT_AUTH_PROOF_BYTES];
    uint32_t magic = htonl(MT_AUTH_MAGIC);
    memcpy(hello, &magic, 4);
    int rc = mt__nonce(hello + 4);
    if (rc == 0) {
        rc = mt__sock_write_full(fd, hello, sizeof(hello), deadline, peer);
    }
    if (rc == 0) {
        rc = mt__sock_read_full(fd, reply, sizeof(reply), deadline, peer);
    }
    if (rc < 0) {
        return mt_error_prefix(rc == MT_ETIMEOUT ? rc : MT_ECONN,
                               "authenticating with the job token to %s (does it use the same "
                               "MINITORCH_DIST_TOKEN?)", peer);
    }
    mt__proof(tok, n, "minitorch-auth-server", hello + 4, reply, expect);
    if (!mt_consttime_equal(expect, reply + MT_AUTH_NONCE_BYTES, sizeof(expect))) {
        return mt_error_set(MT_ECONN, "authenticating with the job token to %s: its proof is "
                            "wrong (it has another token)", peer);
    }
    mt__proof(tok, n, "minitorch-auth-client", reply, hello + 4, proof);
    return mt__sock_write_full(fd, proof, sizeof(proof), deadline, peer);
}

int
mt_auth_client_hello(unsigned char *hello)
{
    uint32_t magic = htonl(MT_AUTH_MAGIC);
    memcpy(hello, &magic, 4);
    return mt__nonce(hello + 4);
}

bool
mt_auth_client_proof(const void *tok, size_t n, const unsigned char *hello,
                     const unsigned char *reply, unsigned char *proof)
{
    unsigned char expect[32];
    mt__proof(tok, n, "minitorch-auth-server", hello + 4, reply, expect);
    if (!mt_consttime_equal(expect, reply + MT_AUTH_NONCE_BYTES, sizeof(expect))) {
        return false;
    }
    mt__proof(tok, n, "minitorch-auth-client", reply, hello + 4, proof);
    return true;
}

bool
mt_auth_server_reply(const void *tok, size_t n, const unsigned char *hello, unsigned char *reply,
                     unsigned char *expect)
{
    uint32_t magic;
    memcpy(&magic, hello, 4);
    if (ntohl(magic) != MT_AUTH_MAGIC || mt__nonce(reply) < 0) {
        return false;
    }
    mt__proof(tok, n, "minitorch-auth-server", hello + 4, reply, reply + MT_AUTH_NONCE_BYTES);
    mt__proof(tok, n, "minitorch-auth-client", reply, hello + 4, expect);
    return true;
}

bool
mt_auth_proof_ok(const unsigned char *proof, const unsigned char *expect)
{
    return mt_consttime_equal(proof, expect, MT_AUTH_PROOF_BYTES) != 0;
}

int
mt_auth_server(int fd, const void *tok, size_t n, int64_t deadline, const char *who)
{
    deadline = mt__handshake_deadline(deadline);
    unsigned char hello[MT_AUTH_HELLO_BYTES], reply[MT_AUTH_REPLY_BYTES];
    unsigned char expect[MT_AUTH_PROOF_BYTES], proof[MT_AUTH_PROOF_BYTES];
    const char *why = NULL;
    /* the magic first: a peer without a token is refused without waiting for more */
    if (mt__sock_read_full(fd, hello, 4, deadline, "a connecting peer") < 0) {
        why = "no authentication before the handshake's timeout or the connection closed";
    }
    else {
        memset(hello + 4, 0, MT_AUTH_NONCE_BYTES);
        uint32_t magic;
        memcpy(&magic, hello, 4);
        if (ntohl(magic) != MT_AUTH_MAGIC) {
            why = "it did not authenticate (no job token)";
        }
        else if (mt__sock_read_full(fd, hello + 4, MT_AUTH_NONCE_BYTES, deadline,
                                    "a connecting peer") < 0) {
            why = "the handshake timed out or the connection closed";
        }
        else if (!mt_auth_server_reply(tok, n, hello, reply, expect)) {
            why = "no random nonce";
        }
        else if (mt__sock_write_full(fd, reply, sizeof(reply), deadline, "a connecting peer") < 0 ||
                 mt__sock_read_full(fd, proof, sizeof(proof), deadline, "a connecting peer") < 0) {
            why = "the handshake timed out or the connection closed";
        }
        else if (!mt_auth_proof_ok(proof, expect)) {
            why = "wrong job token";
        }
    }
    if (why != NULL) {
        mt_auth_log_refused(fd, who, why);
        return mt_error_set(MT_ECONN, "%s: refused a connection: %s", who, why);
    }
    return 0;
}

void
mt_auth_log_refused(int fd, const char *who, const char *why)
{
    struct sockaddr_storage ss;
    socklen_t sl = sizeof(ss);
    char host[128] = "?";
    int port = -1;
    if (getpeername(fd, (struct sockaddr *)&ss, &sl) == 0) {
        (void)mt__sockaddr_host((struct sockaddr *)&ss, host, sizeof(host));
        port = ss.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port)
                                        : ntohs(((struct sockaddr_in *)&ss)->sin_port);
    }
    fprintf(stderr, "[minitorch.distributed] %s: refused a connection from %s:%d: %s\n", who,
            host, port, why);
    fflush(stderr);
}
