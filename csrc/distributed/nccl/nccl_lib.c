/* csrc/distributed/nccl/nccl_lib.c - opens NCCL with dlopen (Note [Loading NCCL]). */
#include "csrc/distributed/nccl/nccl_lib.h"

#ifdef MT_WITH_NCCL
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"
#ifdef MT_CUDA_EMULATED
#include <mt_emu_runtime.h>
#endif

#ifndef MT_NCCL_DEFAULT_PATH
#define MT_NCCL_DEFAULT_PATH ""
#endif

static pthread_once_t mt__nccl_once = PTHREAD_ONCE_INIT;
static mt_nccl_api mt__nccl;
static const mt_nccl_api *mt__nccl_table;
static char mt__nccl_why[1024]; /* why loading failed */

/* Resolves every function into the table; 0, or -1 with the missing name in mt__nccl_why. */
static int
mt__nccl_resolve(void *h, const char *path)
{
#define MT__SYM(field, name, required)                                                       \
    do {                                                                                     \
        *(void **)&mt__nccl.field = dlsym(h, name);                                          \
        if ((required) && mt__nccl.field == NULL) {                                          \
            snprintf(mt__nccl_why, sizeof(mt__nccl_why),                                     \
                     "the NCCL library %s lacks %s (NCCL too old for minitorch?)", path, name); \
            return -1;                                                                       \
        }                                                                                    \
    } while (0)
    MT__SYM(GetVersion, "ncclGetVersion", 1);
    MT__SYM(GetUniqueId, "ncclGetUniqueId", 1);
    MT__SYM(GetErrorString, "ncclGetErrorString", 1);
    MT__SYM(CommInitRank, "ncclCommInitRank", 1);
    MT__SYM(CommDestroy, "ncclCommDestroy", 1);
    MT__SYM(CommAbort, "ncclCommAbort", 1);
    MT__SYM(CommGetAsyncError, "ncclCommGetAsyncError", 1);
    MT__SYM(AllReduce, "ncclAllReduce", 1);
    MT__SYM(Broadcast, "ncclBroadcast", 1);
    MT__SYM(Reduce, "ncclReduce", 1);
    MT__SYM(AllGather, "ncclAllGather", 1);
    MT__SYM(ReduceScatter, "ncclReduceScatter", 1);
    MT__SYM(Send, "ncclSend", 1);
    MT__SYM(Recv, "ncclRecv", 1);
    MT__SYM(GroupStart, "ncclGroupStart", 1);
    MT__SYM(GroupEnd, "ncclGroupEnd", 1);
    MT__SYM(CommSplit, "ncclCommSplit", 0);
    MT__SYM(RedOpCreatePreMulSum, "ncclRedOpCreatePreMulSum", 0);
    MT__SYM(RedOpDestroy, "ncclRedOpDestroy", 0);
#undef MT__SYM
    return 0;
}

#ifdef MT_CUDA_EMULATED
/* The emulated build runs NCCL only over a library that takes the emulated runtime's entry
 * points (Note [Libraries on the emulator]): the test stand-in.  0, or -1 with the reason. */
static int
mt__nccl_attach(void *h, const char *path)
{
    static const mt_emu_runtime rt = {MT_EMU_RUNTIME_VERSION, cudaLaunchHostFunc, cudaGetDevice,
                                      cudaStreamSynchronize};
    mt_emu_attach_fn attach;
    *(void **)&attach = dlsym(h, MT_EMU_ATTACH_SYMBOL);
    if (attach == NULL || attach(&rt) != 0) {
        snprintf(mt__nccl_why, sizeof(mt__nccl_why),
                 "the NCCL library %s cannot run on the emulated CUDA device (only the test "
                 "stand-in built by tools/build_nccl_standin.sh can)", path);
        return -1;
    }
    return 0;
}
#else
static int
mt__nccl_attach(void *h, const char *path)
{
    (void)h;
    (void)path;
    return 0;
}
#endif

static void
mt__nccl_open(void)
{
    const char *env = getenv("MINITORCH_NCCL_LIBRARY");
    const char *candidates[3];
    int n = 0;
    if (env != NULL && env[0] != '\0') {
        candidates[n++] = env; /* asked for: only this one */
    }
    else {
        candidates[n++] = "libnccl.so.2";
        if (MT_NCCL_DEFAULT_PATH[0] != '\0') {
            candidates[n++] = MT_NCCL_DEFAULT_PATH;
        }
    }
    char tried[768] = "";
    for (int i = 0; i < n; i++) {
        void *h = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
        if (h == NULL) {
            size_t len = strlen(tried);
            snprintf(tried + len, sizeof(tried) - len, "%s%s", len ? ", " : "", candidates[i]);
            continue;
        }
        char path[512];
        snprintf(path, sizeof(path), "%s", candidates[i]);
        Dl_info info; /* the file the loader chose */
        void *sym = dlsym(h, "ncclGetVersion");
        if (sym != NULL && dladdr(sym, &info) != 0 && info.dli_fname != NULL) {
            snprintf(path, sizeof(path), "%s", info.dli_fname);
        }
        if (mt__nccl_resolve(h, path) < 0 || mt__nccl_attach(h, path) < 0) {
            dlclose(h);
            return;
        }
        int v = 0;
        if (mt__nccl.GetVersion(&v) != ncclSuccess) {
            snprintf(mt__nccl_why, sizeof(mt__nccl_why), "ncclGetVersion failed in %s", path);
            dlclose(h);
            return;
        }
        mt__nccl.version = v;
        mt__nccl.path = strdup(path); /* kept for the life of the process, as the library */
        mt__nccl_table = &mt__nccl;
        return;
    }
    snprintf(mt__nccl_why, sizeof(mt__nccl_why),
             "the NCCL library was not found (tried %s; set MINITORCH_NCCL_LIBRARY to its path)",
             tried);
}

const mt_nccl_api *
mt_nccl_load(void)
{
    pthread_once(&mt__nccl_once, mt__nccl_open);
    if (mt__nccl_table == NULL) {
        mt_error_set(MT_ERUNTIME, "%s", mt__nccl_why);
    }
    return mt__nccl_table;
}

int
mt_nccl_error(const mt_nccl_api *api, ncclResult_t rc, const char *what)
{
    if (rc == ncclSuccess) {
        return 0;
    }
    return mt_error_set(MT_ERUNTIME, "NCCL error in %s: %s (ncclResult_t %d)", what,
                        api->GetErrorString(rc), (int)rc);
}
#else
typedef int mt__nccl_not_built; /* (an empty translation unit is not C11) */
#endif
