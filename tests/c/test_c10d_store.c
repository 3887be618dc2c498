/* tests/c/test_c10d_store.c - HashStore, PrefixStore, FileStore and TCPStore, in one and in several processes. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c10_lite/error.h"
#include "csrc/distributed/rendezvous/store.h"
#include "tests/c/test_c10d_util.h"

static bool
mt_str_eq(const char *a, size_t alen, const char *b)
{
    return alen == strlen(b) && memcmp(a, b, alen) == 0;
}

/* Every operation of Note [Store semantics] on an empty-ish store. */
static void
test_store_semantics(mt_store *s, const char *name)
{
    char *v = NULL;
    size_t n = 0;
    int64_t keys0 = -1;
    REQUIRE(mt_store_num_keys(s, &keys0) == 0, "%s num_keys", name);

    CHECK(mt_store_set_str(s, "k1", "hello") == 0, "%s set", name);
    CHECK(mt_store_get(s, "k1", 2, 1000, &v, &n) == 0 && mt_str_eq(v, n, "hello"), "%s get", name);
    free(v);
    CHECK(mt_store_set_str(s, "k1", "world!") == 0, "%s overwrite", name);
    CHECK(mt_store_get(s, "k1", 2, 1000, &v, &n) == 0 && mt_str_eq(v, n, "world!"),
          "%s get after overwrite", name);
    free(v);

    /* Binary-safe keys and values. */
    const char bkey[] = {'b', '\0', 'k', (char)0xff};
    const char bval[] = {'\0', '\1', '\0', (char)0x80, 'x'};
    CHECK(mt_store_set(s, bkey, sizeof(bkey), bval, sizeof(bval)) == 0, "%s binary set", name);
    CHECK(mt_store_get(s, bkey, sizeof(bkey), 1000, &v, &n) == 0 && n == sizeof(bval) &&
              memcmp(v, bval, n) == 0,
          "%s binary get", name);
    free(v);
    CHECK(mt_store_set(s, "empty", 5, "", 0) == 0, "%s empty value", name);
    CHECK(mt_store_get(s, "empty", 5, 1000, &v, &n) == 0 && n == 0, "%s get empty value", name);
    free(v);

    int64_t sum = 0;
    CHECK(mt_store_add(s, "ctr", 3, 5, &sum) == 0 && sum == 5, "%s add to missing key", name);
    CHECK(mt_store_add(s, "ctr", 3, -7, &sum) == 0 && sum == -2, "%s add negative", name);
    CHECK(mt_store_get(s, "ctr", 3, 1000, &v, &n) == 0 && mt_str_eq(v, n, "-2"),
          "%s added value reads as text", name);
    free(v);
    CHECK(mt_store_add(s, "k1", 2, 1, &sum) == MT_EINVAL, "%s add to a non-integer value", name);

    /* compare_set, torch semantics. */
    CHECK(mt_store_compare_set(s, "cs", 2, "x", 1, "y", 1, &v, &n) == 0 && mt_str_eq(v, n, "x"),
          "%s compare_set on a missing key returns expected", name);
    free(v);
    int exists = -1;
    const char *cs = "cs";
    size_t cslen = 2;
    CHECK(mt_store_check(s, 1, &cs, &cslen, &exists) == 0 && exists == 0,
          "%s compare_set with expected did not create the key", name);
    CHECK(mt_store_compare_set(s, "cs", 2, "", 0, "first", 5, &v, &n) == 0 &&
              mt_str_eq(v, n, "first"),
          "%s compare_set with empty expected creates", name);
    free(v);
    CHECK(mt_store_compare_set(s, "cs", 2, "nope", 4, "second", 6, &v, &n) == 0 &&
              mt_str_eq(v, n, "first"),
          "%s compare_set mismatch keeps the value", name);
    free(v);
    CHECK(mt_store_compare_set(s, "cs", 2, "first", 5, "second", 6, &v, &n) == 0 &&
              mt_str_eq(v, n, "second"),
          "%s compare_set match swaps", name);
    free(v);

    const char *ks[] = {"k1", "ctr", "cs"};
    size_t kl[] = {2, 3, 2};
    CHECK(mt_store_check(s, 3, ks, kl, &exists) == 0 && exists == 1, "%s check all", name);
    const char *ks2[] = {"ctr", "missing"};
    size_t kl2[] = {3, 7};
    CHECK(mt_store_check(s, 2, ks2, kl2, &exists) == 0 && exists == 0, "%s check missing", name);
    CHECK(mt_store_wait(s, 3, ks, kl, 1000) == 0, "%s wait on present keys", name);

    int64_t keys1 = -1;
    CHECK(mt_store_num_keys(s, &keys1) == 0 && keys1 == keys0 + 5, "%s num_keys %lld vs %lld",
          name, (long long)keys1, (long long)keys0);
    int deleted = -1;
    CHECK(mt_store_delete_key(s, "k1", 2, &deleted) == 0 && deleted == 1, "%s delete", name);
    CHECK(mt_store_delete_key(s, "k1", 2, &deleted) == 0 && deleted == 0, "%s delete again",
          name);
    CHECK(mt_store_num_keys(s, &keys1) == 0 && keys1 == keys0 + 4, "%s num_keys after delete",
          name);

    /* Timeouts: bounded, MT_ETIMEOUT, the message names the key. */
    double t0 = mt_test_now();
    v = NULL;
    int rc = mt_store_get(s, "never", 5, 200, &v, &n);
    double dt = mt_test_now() - t0;
    CHECK(rc == MT_ETIMEOUT && v == NULL, "%s get timeout code %d", name, rc);
    CHECK(dt >= 0.19 && dt < 2.0, "%s get timeout took %.3f s", name, dt);
    CHECK(strstr(mt_error_message(), "never") != NULL, "%s timeout names the key: %s", name,
          mt_error_message());
    t0 = mt_test_now();
    rc = mt_store_wait(s, 2, ks2, kl2, 150);
    dt = mt_test_now() - t0;
    CHECK(rc == MT_ETIMEOUT && dt >= 0.14 && dt < 2.0, "%s wait timeout rc %d after %.3f s",
          name, rc, dt);
    CHECK(strstr(mt_error_message(), "missing") != NULL, "%s wait names the missing key: %s",
          name, mt_error_message());
}

typedef struct {
    mt_store *s; /* the store the setter thread writes to */
    int delay_ms;
} mt_setter_arg;

static void *
mt_setter_main(void *p)
{
    mt_setter_arg *a = p;
    usleep((useconds_t)a->delay_ms * 1000);
    mt_store_set_str(a->s, "late", "arrived");
    return NULL;
}

/* A get that blocks is answered when another thread sets the key through
 * `writer` (the same store, or for a TCPStore a second client: like torch's,
 * one TCPStore object runs one request at a time). */
static void
test_blocking_get(mt_store *s, mt_store *writer, const char *name)
{
    pthread_t th;
    mt_setter_arg a = {writer, 100};
    pthread_create(&th, NULL, mt_setter_main, &a);
    double t0 = mt_test_now();
    char *v = NULL;
    size_t n = 0;
    int rc = mt_store_get(s, "late", 4, 5000, &v, &n);
    double dt = mt_test_now() - t0;
    CHECK(rc == 0 && mt_str_eq(v, n, "arrived"), "%s blocking get", name);
    CHECK(dt >= 0.09 && dt < 1.0, "%s blocking get returned after %.3f s", name, dt);
    free(v);
    pthread_join(th, NULL);
}

static void
test_hash_and_prefix(void)
{
    mt_store *h = mt_hash_store_new(5000);
    REQUIRE(h != NULL, "HashStore");
    test_store_semantics(h, "HashStore");
    test_blocking_get(h, h, "HashStore");

    mt_store *inner = mt_hash_store_new(5000);
    mt_store *p = mt_prefix_store_new("pre", inner);
    REQUIRE(p != NULL, "PrefixStore");
    test_store_semantics(p, "PrefixStore");
    test_blocking_get(p, p, "PrefixStore");
    char *v = NULL;
    size_t n;
    CHECK(mt_store_get(inner, "pre/cs", 6, 100, &v, &n) == 0 && mt_str_eq(v, n, "second"),
          "PrefixStore writes '<prefix>/<key>' into the inner store");
    free(v);
    mt_store *pp = mt_prefix_store_new("outer", p);
    CHECK(mt_store_set_str(pp, "x", "1") == 0, "nested prefix set");
    CHECK(mt_store_get(inner, "pre/outer/x", 11, 100, &v, &n) == 0 && mt_str_eq(v, n, "1"),
          "nested prefixes compose");
    free(v);
    mt_store_decref(pp);
    mt_store_decref(p);
    mt_store_decref(inner); /* the prefix store's reference was dropped with it */
    CHECK(mt_store_set_timeout(h, 0) == MT_EINVAL, "non-positive timeout rejected");
    mt_store_decref(h);
}

static char mt_file_path[256];

static void
file_store_rank(int rank, int world, void *arg)
{
    mt_store *s = mt_file_store_new(mt_file_path, world, 5000);
    REQUIRE(s != NULL, "FileStore open on rank %d", rank);
    int64_t v = 0;
    for (int i = 0; i < 50; i++) {
        CHECK(mt_store_add(s, "counter", 7, 1, &v) == 0, "FileStore add");
    }
    char key[32];
    snprintf(key, sizeof(key), "done%d", rank);
    mt_store_set_str(s, key, "1");
    const char *ks[8];
    size_t kl[8];
    char names[8][32];
    for (int r = 0; r < world; r++) {
        snprintf(names[r], sizeof(names[r]), "done%d", r);
        ks[r] = names[r];
        kl[r] = strlen(names[r]);
    }
    CHECK(mt_store_wait(s, world, ks, kl, 5000) == 0, "FileStore wait for every rank");
    char *val = NULL;
    size_t n;
    CHECK(mt_store_get(s, "counter", 7, 1000, &val, &n) == 0 && atoi(val) == 50 * world,
          "FileStore counter %s (want %d)", val ? val : "?", 50 * world);
    free(val);
    int64_t nk = 0;
    /* the ranks' keys, "counter", and the bookkeeping key torch counts too */
    CHECK(mt_store_num_keys(s, &nk) == 0 && nk == world + 2, "FileStore num_keys %lld",
          (long long)nk);
    mt_store_decref(s);
}

static void
test_file_store(void)
{
    snprintf(mt_file_path, sizeof(mt_file_path), "/tmp/mt_filestore_%d", (int)getpid());
    unlink(mt_file_path);
    mt_store *s = mt_file_store_new(mt_file_path, 1, 5000);
    REQUIRE(s != NULL, "FileStore");
    test_store_semantics(s, "FileStore");
    test_blocking_get(s, s, "FileStore");
    struct stat st;
    CHECK(stat(mt_file_path, &st) == 0, "FileStore file exists while open");
    mt_store_decref(s);
    CHECK(stat(mt_file_path, &st) < 0 && errno == ENOENT,
          "FileStore file removed when its only user closes it");

    mt_test_run_ranks(4, file_store_rank, NULL, 15, 0);
    CHECK(stat(mt_file_path, &st) < 0 && errno == ENOENT,
          "FileStore file removed after all 4 users closed it");

    /* A file that is not a store is rejected with a message naming it. */
    FILE *fp = fopen(mt_file_path, "w");
    fputs("this is not a store file at all", fp);
    fclose(fp);
    s = mt_file_store_new(mt_file_path, 1, 1000);
    CHECK(s == NULL && strstr(mt_error_message(), mt_file_path) != NULL,
          "corrupt FileStore rejected: %s", mt_error_message());
    mt_store_decref(s);
    unlink(mt_file_path);
    CHECK(mt_file_store_new("/nonexistent-dir/x/y", 1, 1000) == NULL, "FileStore bad path");
}

static void
tcp_store_rank(int rank, int world, void *arg)
{
    /* Ranks >= 1 are clients; rank 0 runs tcp_store_rank_publish. */
    int port = mt_test_wait_port();
    REQUIRE(port > 0, "master port published");
    mt_store *s = mt_tcp_store_new("127.0.0.1", port, world, false, 5000, false);
    REQUIRE(s != NULL, "TCPStore client %d", rank);
    int64_t v = 0;
    for (int i = 0; i < 100; i++) {
        CHECK(mt_store_add(s, "counter", 7, 1, &v) == 0, "TCPStore add");
    }
    char key[32];
    snprintf(key, sizeof(key), "rank%d", rank);
    CHECK(mt_store_set_str(s, key, "here") == 0, "TCPStore set");
    /* Each rank blocks on the next rank's key: answered server-side. */
    snprintf(key, sizeof(key), "rank%d", (rank + 1) % world);
    char *val = NULL;
    CHECK(mt_store_get_str(s, key, 5000, &val) == 0 && strcmp(val, "here") == 0,
          "TCPStore blocking get of %s", key);
    free(val);
    /* Wait for all ranks' counters, then check the total. */
    const char *ks[8];
    size_t kl[8];
    char names[8][32];
    for (int r = 0; r < world; r++) {
        snprintf(names[r], sizeof(names[r]), "fin%d", r);
        ks[r] = names[r];
        kl[r] = strlen(names[r]);
    }
    snprintf(key, sizeof(key), "fin%d", rank);
    mt_store_set_str(s, key, "1");
    CHECK(mt_store_wait(s, world, ks, kl, 5000) == 0, "TCPStore wait for all ranks");
    CHECK(mt_store_get_str(s, "counter", 1000, &val) == 0 && atoi(val) == 100 * world,
          "TCPStore counter %s", val ? val : "?");
    free(val);
    /* The master must outlive the clients' last request. */
    int64_t left = 0;
    mt_store_add(s, "leaving", 7, 1, &left);
    if (left == world) {
        mt_store_set_str(s, "everyone-left", "1");
    }
    mt_store_decref(s);
}

/* Rank 0 hosts the server (without wait_for_workers, which workers_rank
 * covers), publishes its port and runs the same steps as the clients. */
static void
tcp_store_rank_publish(int rank, int world, void *arg)
{
    if (rank == 0) {
        mt_store *s = mt_tcp_store_new("127.0.0.1", 0, world, true, 5000, false);
        REQUIRE(s != NULL, "TCPStore master");
        atomic_store(&mt_t->port, mt_tcp_store_port(s));
        /* Run the shared body as a client of our own server. */
        mt_store *c = mt_tcp_store_new("127.0.0.1", mt_tcp_store_port(s), world, false, 5000,
                                       false);
        REQUIRE(c != NULL, "master-side client");
        int64_t v = 0;
        for (int i = 0; i < 100; i++) {
            CHECK(mt_store_add(c, "counter", 7, 1, &v) == 0, "TCPStore add");
        }
        mt_store_set_str(c, "rank0", "here");
        char *val = NULL;
        CHECK(mt_store_get_str(c, world > 1 ? "rank1" : "rank0", 5000, &val) == 0,
              "master blocking get");
        free(val);
        mt_store_set_str(c, "fin0", "1");
        const char *ks[8];
        size_t kl[8];
        char names[8][32];
        for (int r = 0; r < world; r++) {
            snprintf(names[r], sizeof(names[r]), "fin%d", r);
            ks[r] = names[r];
            kl[r] = strlen(names[r]);
        }
        CHECK(mt_store_wait(c, world, ks, kl, 5000) == 0, "master wait for all ranks");
        CHECK(mt_store_get_str(c, "counter", 1000, &val) == 0 && atoi(val) == 100 * world,
              "TCPStore counter %s", val ? val : "?");
        free(val);
        int64_t left = 0;
        mt_store_add(c, "leaving", 7, 1, &left);
        const char *k = "everyone-left";
        size_t klen = strlen(k);
        if (left < world) {
            CHECK(mt_store_wait(c, 1, &k, &klen, 5000) == 0, "master waits for clients");
        }
        mt_store_decref(c);
        mt_store_decref(s);
        return;
    }
    tcp_store_rank(rank, world, arg);
}

static void
workers_rank(int rank, int world, void *arg)
{
    if (rank == 0) {
        int port = mt_test_wait_port();
        REQUIRE(port > 0, "port");
        /* A client that connects late: the master must still be waiting. */
        usleep(200000);
        mt_store *s = mt_tcp_store_new("127.0.0.1", port, world, false, 5000, false);
        CHECK(s != NULL, "late client connects");
        const char *k = "go";
        size_t kl = 2;
        CHECK(s && mt_store_wait(s, 1, &k, &kl, 5000) == 0, "client sees master's key");
        mt_store_decref(s);
        return;
    }
    /* rank 1 is the master: publishes a fixed port chosen by binding first. */
    mt_store *probe = mt_tcp_store_new("127.0.0.1", 0, 1, true, 5000, false);
    REQUIRE(probe != NULL, "probe master");
    int port = mt_tcp_store_port(probe);
    mt_store_decref(probe); /* frees the port for the real master below */
    atomic_store(&mt_t->port, port);
    double t0 = mt_test_now();
    mt_store *s = mt_tcp_store_new("127.0.0.1", port, 2, true, 5000, true);
    double dt = mt_test_now() - t0;
    REQUIRE(s != NULL, "wait_for_workers master on port %d", port);
    CHECK(dt >= 0.15, "wait_for_workers returned only after the late worker (%.3f s)", dt);
    mt_store_set_str(s, "go", "1");
    int64_t v;
    /* Keep serving until the client has read "go" and left. */
    usleep(300000);
    mt_store_num_keys(s, &v);
    mt_store_decref(s);
}

static void
dead_server_rank(int rank, int world, void *arg)
{
    if (rank == 0) {
        mt_store *s = mt_tcp_store_new("127.0.0.1", 0, 2, true, 5000, false);
        REQUIRE(s != NULL, "master");
        atomic_store(&mt_t->port, mt_tcp_store_port(s));
        /* Wait until the client is blocked in a get, then die abruptly. */
        while (atomic_load(&mt_t->flag) == 0) {
            usleep(1000);
        }
        usleep(100000);
        _exit(0);
    }
    int port = mt_test_wait_port();
    mt_store *s = mt_tcp_store_new("127.0.0.1", port, 2, false, 30000, false);
    REQUIRE(s != NULL, "client");
    atomic_store(&mt_t->flag, 1);
    double t0 = mt_test_now();
    char *v = NULL;
    int rc = mt_store_get_str(s, "never", 30000, &v);
    double dt = mt_test_now() - t0;
    CHECK(rc == MT_ECONN, "get on a dead server fails with MT_ECONN (rc %d)", rc);
    CHECK(dt < 3.0, "dead server detected in %.3f s, not after the 30 s timeout", dt);
    CHECK(strstr(mt_error_message(), "127.0.0.1") != NULL, "message names the server: %s",
          mt_error_message());
    /* Later calls fail fast with the stored error. */
    rc = mt_store_set_str(s, "x", "y");
    CHECK(rc == MT_ECONN, "set after the server died (rc %d)", rc);
    mt_store_decref(s);
}

static void
test_tcp_store(void)
{
    /* Single process: the master is its own client. */
    mt_store *s = mt_tcp_store_new("127.0.0.1", 0, 1, true, 5000, true);
    REQUIRE(s != NULL, "TCPStore master on a free port");
    int port = mt_tcp_store_port(s);
    CHECK(port > 0, "port 0 picks a free port (%d)", port);
    test_store_semantics(s, "TCPStore");
    mt_store *w = mt_tcp_store_new("127.0.0.1", port, 1, false, 5000, false);
    CHECK(w != NULL, "second client");
    test_blocking_get(s, w, "TCPStore");
    mt_store_decref(w);
    int64_t nk = -1;
    CHECK(mt_store_num_keys(s, &nk) == 0 && nk > 0, "TCPStore num_keys");

    /* A second master on the same port: a clear error naming host:port. */
    mt_store *s2 = mt_tcp_store_new("127.0.0.1", port, 1, true, 1000, false);
    char want[32];
    snprintf(want, sizeof(want), "%d", port);
    CHECK(s2 == NULL && mt_error_code() == MT_ECONN, "port in use is an error");
    CHECK(strstr(mt_error_message(), want) != NULL && strstr(mt_error_message(), "in use"),
          "port-in-use message names the port: %s", mt_error_message());
    mt_store_decref(s);

    /* Nobody listening: the client retries until its timeout, then fails. */
    double t0 = mt_test_now();
    s2 = mt_tcp_store_new("127.0.0.1", port, 1, false, 300, false);
    double dt = mt_test_now() - t0;
    CHECK(s2 == NULL && mt_error_code() == MT_ECONN, "connect timeout");
    CHECK(dt >= 0.25 && dt < 3.0, "connect retried for the timeout (%.3f s)", dt);
    CHECK(strstr(mt_error_message(), want) != NULL, "connect error names host:port: %s",
          mt_error_message());
    CHECK(mt_tcp_store_new("127.0.0.1", 0, 1, false, 300, false) == NULL &&
              mt_error_code() == MT_EINVAL,
          "client with port 0 rejected");
    CHECK(mt_tcp_store_new("no-such-host.invalid", 1234, 1, false, 300, false) == NULL,
          "unresolvable host rejected");

    for (int world = 1; world <= 4; world++) {
        mt_test_run_ranks(world, tcp_store_rank_publish, NULL, 15, 0);
    }
    mt_test_run_ranks(2, workers_rank, NULL, 15, 0);
    mt_test_run_ranks(2, dead_server_rank, NULL, 15, 1u << 0);

    /* wait_for_workers times out when nobody comes. */
    t0 = mt_test_now();
    s2 = mt_tcp_store_new("127.0.0.1", 0, 3, true, 300, true);
    dt = mt_test_now() - t0;
    CHECK(s2 == NULL && mt_error_code() == MT_ETIMEOUT && dt < 3.0,
          "wait_for_workers timeout (%.3f s): %s", dt, mt_error_message());
}

int
main(void)
{
    mt_test_init();
    test_hash_and_prefix();
    test_file_store();
    test_tcp_store();
    return mt_test_report();
}
