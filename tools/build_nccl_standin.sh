#!/usr/bin/env bash
# tools/build_nccl_standin.sh DIR - builds the test-only NCCL stand-in (Note [The NCCL stand-in]
# in tools/nccl_standin/standin.h) into DIR/libnccl.so.2, to be loaded by minitorch's emulated
# CUDA build through MINITORCH_NCCL_LIBRARY=DIR/libnccl.so.2.  It is never part of the package.
# Needs a C compiler and NCCL's header (nccl.h: $NCCL_INCLUDE_DIR, the CUDA toolkit's include
# directory, /usr/local/include or /usr/include); exits 2 saying so when there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: build_nccl_standin.sh DIR}
inc=""
for d in ${NCCL_INCLUDE_DIR:-} ${CUDA_HOME:+$CUDA_HOME/include} /usr/local/cuda/include \
         /usr/local/include /usr/include; do
    if [ -f "$d/nccl.h" ]; then inc=$d; break; fi
done
if [ -z "$inc" ]; then
    echo "build_nccl_standin.sh: nccl.h not found (set NCCL_INCLUDE_DIR)" >&2
    exit 2
fi
mkdir -p "$out/include"
# nccl.h alone, so that its <cuda_runtime.h> is the emulator's
cp "$inc/nccl.h" "$out/include/nccl.h"
cc=${CC:-cc}
"$cc" -std=c11 -O2 -g -fPIC -shared -D_GNU_SOURCE -Wall -Wextra -Werror -fwrapv \
    -I aten_lite/cuda/emu/include -I "$out/include" \
    -Wl,-soname,libnccl.so.2 -o "$out/libnccl.so.2.tmp" tools/nccl_standin/*.c -lrt -lpthread
mv "$out/libnccl.so.2.tmp" "$out/libnccl.so.2"
