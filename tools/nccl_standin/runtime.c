/* tools/nccl_standin/runtime.c - the emulated runtime the stand-in queues work on (Note
 * [Libraries on the emulator]), and the deadline of every wait. */
#include <stdlib.h>
#include <time.h>

#include "standin.h"

const mt_emu_runtime *si_rt;

__attribute__((visibility("default"))) int
mtEmuAttachRuntime(const mt_emu_runtime *runtime)
{
    if (runtime == NULL || runtime->version != MT_EMU_RUNTIME_VERSION) {
        return -1;
    }
    si_rt = runtime;
    return 0;
}

double
si_timeout_s(void)
{
    const char *s = getenv("MT_NCCL_STANDIN_TIMEOUT");
    double t = s != NULL ? atof(s) : 0.0;
    return t > 0.0 ? t : 300.0;
}

double
si_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
