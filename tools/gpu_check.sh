#!/usr/bin/env bash
# tools/gpu_check.sh - the check of the CUDA code on a real GPU, in one run of at most ~8 minutes.
#
# Run from the repository root on a machine with an NVIDIA GPU, its driver, nvcc, cmake and a
# python3 with numpy and pytest (nothing is downloaded).  It builds minitorch's extension and the
# CUDA test programs from this working tree for this GPU's architecture only, then
#   1. runs the CUDA runtime test program (tests/cuda/test_*.cu, built by nvcc) on the GPU,
#   2. runs it again under compute-sanitizer's memcheck,
#   3. runs the CUDA pytest files (tests/test_cuda*.py) against the GPU build,
#   4. runs bench/cuda_ops.py when it exists (figures side by side with torch),
#   5. runs the NCCL tests with the real library at world size 1, the notes' launch program
#      (examples/ddp_launch_nccl.py) at world size 1, then bench/nccl.py,
# writing every log under $OUT (default: ./gpu_check_out) and printing a summary table last.
# Each step's failure is recorded and the next step still runs; the exit status is 1 if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu_check_out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
py=$(command -v python3 || command -v python)
declare -a SUMMARY=()
step() {  # step NAME TIMEOUT_S COMMAND...: runs COMMAND, its output to $OUT/NAME.log
    local name=$1 limit=$2
    shift 2
    local t0=$SECONDS
    timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
    local rc=$?
    SUMMARY+=("$(printf '%-18s rc=%-4s %4ss  %s' "$name" "$rc" "$((SECONDS - t0))" \
        "$(tail -n 1 "$OUT/$name.log" | cut -c1-90)")")
    return $rc
}
failed=0

{
    nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv
    nvcc --version | tail -n 2
    "$py" -c 'import numpy, sys; print("python", sys.version.split()[0], "numpy", numpy.__version__)'
} > "$OUT/machine.txt" 2>&1
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
arch=${cap:-90}

# the extension (in place, as the development build) and the C/CUDA test programs, for this GPU
build=build/gpu_check
step build 420 bash -c "
    cmake -S . -B $build -G Ninja -DPython3_EXECUTABLE=$py -DCMAKE_BUILD_TYPE=Release \
        -DMINITORCH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=$arch -DMINITORCH_C_TESTS=ON \
        -DMINITORCH_OUTPUT_DIR=$PWD/python/minitorch &&
    cmake --build $build -j \$(nproc)" || failed=1

cuda_progs=""
for src in tests/cuda/test_*.cu; do
    name=$(basename "$src" .cu)
    [ -x "$build/$name" ] && cuda_progs="$cuda_progs $build/$name"
done
if [ -n "$cuda_progs" ]; then
    step cuda_programs 120 bash -c "for p in $cuda_progs; do echo \"== \$p\"; \$p || exit 1; done" \
        || failed=1
    if command -v compute-sanitizer > /dev/null || [ -x /usr/local/cuda/bin/compute-sanitizer ]; then
        cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
        step memcheck 180 bash -c "for p in $cuda_progs; do echo \"== \$p\"; \
            $cs --tool memcheck --error-exitcode 9 \$p || exit 1; done" || failed=1
    else
        SUMMARY+=("memcheck           skipped: compute-sanitizer not found")
    fi
else
    SUMMARY+=("cuda_programs      not built (see build.log)")
    failed=1
fi

step pytest_cuda 240 env PYTHONPATH=python "$py" -m pytest -q -p no:cacheprovider \
    tests/test_cuda*.py tests/test_storage.py --ignore=tests/test_cuda_nccl.py || failed=1
# the kernels of a few pytest files under memcheck (the Python side is not instrumented)
if [ -n "${cs:-}" ]; then
    step memcheck_pytest 150 env PYTHONPATH=python "$cs" --tool memcheck --error-exitcode 9 \
        "$py" -m pytest -q -p no:cacheprovider -x tests/test_cuda_tensors.py \
        tests/test_cuda_pinned.py || failed=1
fi

if [ -f bench/cuda_ops.py ]; then
    step bench_cuda_ops 180 env PYTHONPATH=python "$py" bench/cuda_ops.py || failed=1
else
    SUMMARY+=("bench_cuda_ops     skipped: bench/cuda_ops.py does not exist yet")
fi

# NCCL with the real library, one rank (one GPU: NCCL refuses two ranks on one device): its
# tests, the notes' launch program, then all_reduce next to torch's NCCL backend
step nccl_tests 180 env PYTHONPATH=python "$py" -m pytest -q -p no:cacheprovider \
    tests/test_cuda_nccl.py tests/test_nccl_library.py || failed=1
step nccl_launch 120 env PYTHONPATH=python "$py" -m minitorch.distributed.launch \
    --nproc_per_node=1 --use_env examples/ddp_launch_nccl.py || failed=1
step bench_nccl 240 env PYTHONPATH=python "$py" bench/nccl.py --world-size 1 --repeat 2 \
    || failed=1

printf '%s\n' "${SUMMARY[@]}" | tee "$OUT/summary.txt"
exit $failed
