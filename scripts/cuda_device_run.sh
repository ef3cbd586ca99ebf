#!/bin/bash
# The CUDA backend's device check (issue 21), for a session lent an NVIDIA machine that reaches
# no package registry. Build here, carry the binaries, run there:
#
#   cargo build --release -p zkforge-gpu --features cuda --example cuda_bench --tests
#   mkdir -p .gpu && cp target/release/examples/cuda_bench .gpu/ \
#     && cp "$(ls -t target/release/deps/cuda_msm-* | grep -v '\.d$' | head -1)" .gpu/cuda_msm \
#     && cp scripts/cuda_device_run.sh .gpu/run.sh
#   (.gpu/ and .gl/ in .git/info/exclude; .gl/ holds the Vulkan loader debs for the wgpu row:
#    apt-get download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
#   device run: bash .gpu/run.sh [all|bench], carry [".gl", ".gpu"]
#
# It runs the CUDA tests (field ops in both multiplication forms, MSM sizes and edges, every
# switch, concurrency, 2^16-2^22 against zkforge-msm), then the sweep of cuda_bench with the
# wgpu/Vulkan MSM on the same inputs, writing tests.txt, large.txt and bench.txt to $OUT.
for f in .gl/*.deb; do dpkg -x "$f" / >/dev/null 2>&1; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json XDG_RUNTIME_DIR=/tmp
NV=$(find /usr /opt -name 'libnvrtc.so.13*' 2>/dev/null | grep -v alt | head -1); echo "nvrtc: $NV"
export LD_LIBRARY_PATH=$(dirname "$NV"):/usr/local/nvidia/lib64:/usr/local/cuda/lib64:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
lscpu | grep -E "Model name|^CPU\(s\)"
cd "$(dirname "$0")"
OUT=${OUT:-/tmp}
MODE=${1:-all}
if [ "$MODE" = all ] || [ "$MODE" = tests ]; then
  echo "== tests"; date
  ZKFORGE_REQUIRE_CUDA=1 timeout 200 ./cuda_msm --test-threads 4 --skip nvrtc_compiles 2>&1 | tee "$OUT/tests.txt" | grep -E "^test |test result|panicked|seed|left|right|device"
  echo "== large"; date
  ZKFORGE_REQUIRE_CUDA=1 timeout 150 ./cuda_msm --ignored --test-threads 2 --nocapture 2>&1 | tee "$OUT/large.txt" | grep -E "^test |test result|panicked|ok$|left|right"
fi
echo "== bench"; date
timeout "${BENCH_TIMEOUT:-200}" ./cuda_bench "${MAX_LOG:-22}" 5 "${SWEEP:-sweep}" 2>&1 | tee "$OUT/bench.txt"
date
