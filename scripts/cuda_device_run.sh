#!/bin/bash
# The CUDA backend's device check (issue 21), for a session lent an NVIDIA machine that reaches
# no package registry. Build here, carry the binaries, run there. All of the steps below are
# done by `bash scripts/cuda_device_prepare.sh` (on the networked machine, before the device
# is started); by hand:
#
#   cargo build --release -p zkforge-gpu --features cuda --example cuda_bench --tests
#   mkdir -p .gpu/kernels && cp target/release/examples/cuda_bench .gpu/ \
#     && cp "$(ls -t target/release/deps/cuda_msm-* | grep -v '\.d$' | head -1)" .gpu/cuda_msm \
#     && cp scripts/cuda_device_run.sh .gpu/run.sh
#   Precompiled kernels (saves NVRTC and the driver's PTX assembly on the device, a minute of
#   device time a process): with libnvrtc here (the nvidia-cuda-nvrtc wheel),
#     ZKFORGE_PTX_DIR=$PWD/.gpu/kernels .gpu/cuda_msm nvrtc_compiles --nocapture
#     cd .gpu/kernels && for f in *.ptx; do ptxas -arch=sm_90 -O3 $f -o ${f%.ptx}.cubin; done
#   (ptxas from the nvidia-cuda-nvcc wheel; the names carry a hash of the generated source, so
#   a stale kernel is never loaded, and one the driver refuses falls back to NVRTC.)
#   (.gpu/ and .gl/ in .git/info/exclude; .gl/ holds the Vulkan loader debs for the wgpu row:
#    apt-get download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
#   The tree must stay under 64 MiB: move crates/zkforge-kzg/tests/vectors aside for the run.
#   device run: bash .gpu/run.sh [all|bench], carry [".gl", ".gpu"]
#
# It runs the CUDA tests (the quick ones first) (field ops in both multiplication forms, MSM sizes and edges, every
# switch, concurrency, 2^16-2^22 against zkforge-msm), then the sweep of cuda_bench with the
# wgpu/Vulkan MSM on the same inputs, writing tests.txt, large.txt and bench.txt to $OUT.
# cuda_bench's folded-bases rows (to ZKFORGE_FOLD_MAX_LOG, default 2^20) build their copies on
# the device (fold_shift) before timing; ZKFORGE_FOLD_MAX_LOG=18 keeps them short.
for f in .gl/*.deb; do dpkg -x "$f" / >/dev/null 2>&1; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
NV=$(timeout 30 find /usr /opt -name 'libnvrtc.so.13*' 2>/dev/null | grep -v alt | head -1); echo "nvrtc: $NV"
export LD_LIBRARY_PATH=$(dirname "$NV"):/usr/local/nvidia/lib64:/usr/local/cuda/lib64:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
lscpu | grep -E "Model name|^CPU\(s\)"
cd "$(dirname "$0")"
export ZKFORGE_CUDA_KERNELS=$PWD/kernels
OUT=${OUT:-/tmp}
MODE=${1:-all}
# Peak GPU memory: nvidia-smi sampled every 100 ms over the whole run.
nvidia-smi --query-gpu=timestamp,memory.used --format=csv,noheader -lms 100 > "$OUT/gpumem.txt" 2>&1 &
SMI=$!
if [ "$MODE" = all ] || [ "$MODE" = tests ]; then
  echo "== tests"; date
  ZKFORGE_REQUIRE_CUDA=1 timeout "${TEST_TIMEOUT:-120}" ./cuda_msm --test-threads 4 --skip nvrtc_compiles 2>&1 | tee "$OUT/tests.txt" | grep -E "^test |test result|panicked|seed|left|right|device"
fi
echo "== bench"; date
timeout "${BENCH_TIMEOUT:-260}" ./cuda_bench "${MAX_LOG:-22}" 5 "${SWEEP:-sweep}" 2>&1 | tee "$OUT/bench.txt"
if [ "$MODE" = all ]; then
  echo "== large"; date
  ZKFORGE_REQUIRE_CUDA=1 timeout "${LARGE_TIMEOUT:-70}" ./cuda_msm --ignored --test-threads 2 --nocapture 2>&1 | tee "$OUT/large.txt" | grep -E "^test |test result|panicked|ok$|left|right"
fi
kill $SMI 2>/dev/null
echo "peak GPU memory (MiB): $(awk -F', ' '{print $2}' "$OUT/gpumem.txt" | sort -n | tail -1)"
date
