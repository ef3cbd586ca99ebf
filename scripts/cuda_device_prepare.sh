#!/bin/bash
# Prepares everything scripts/cuda_device_run.sh needs on an NVIDIA machine that reaches no
# package registry (issue 21), in one step on this (networked) machine, so that a session lent
# a GPU spends its device minutes running, not building:
#   - .gpu/cuda_bench, .gpu/cuda_msm (release builds with the `cuda` feature) and .gpu/run.sh;
#   - .gpu/kernels/: every generated CUDA source compiled ahead of time (NVRTC 13.0 from the
#     nvidia-cuda-nvrtc wheel, then ptxas 13.0 -arch=$ARCH -O3 from the nvidia-cuda-nvcc wheel),
#     named by a hash of the source so a stale one never loads;
#   - .gl/: the Vulkan loader and GL/EGL libraries (Debian packages) for the wgpu/Vulkan rows.
# .gpu/ and .gl/ go into .git/info/exclude (ignored, so they travel only as `carry`).
#
#   bash scripts/cuda_device_prepare.sh            # ARCH=sm_90 (H100, H200)
#   then, with the device: run `bash .gpu/run.sh all` with carry [".gl", ".gpu"]
#
# The wheels are cached in $WHEELS (default /tmp/zkforge-cuda-wheels). The working tree that
# travels with a device run must stay small: if the run refuses it, move
# crates/zkforge-kzg/tests/vectors aside for the run and put it back after.
set -euo pipefail
cd "$(dirname "$0")/.."
ARCH=${ARCH:-sm_90}
WHEELS=${WHEELS:-/tmp/zkforge-cuda-wheels}
CUDA_WHEEL_VERSION=${CUDA_WHEEL_VERSION:-13.0.88}

echo "== wheels ($WHEELS)"
mkdir -p "$WHEELS"
for pkg in nvidia-cuda-nvrtc nvidia-cuda-nvcc; do
  if ! ls "$WHEELS"/"${pkg//-/_}"-"$CUDA_WHEEL_VERSION"-*.whl >/dev/null 2>&1; then
    pip download "$pkg==$CUDA_WHEEL_VERSION" --no-deps -d "$WHEELS" -q
  fi
  unzip -o -q "$WHEELS"/"${pkg//-/_}"-"$CUDA_WHEEL_VERSION"-*.whl -d "$WHEELS/x"
done
NVRTC_LIB=$(dirname "$(find "$WHEELS/x" -name 'libnvrtc.so.13' | head -1)")
PTXAS=$(find "$WHEELS/x" -name ptxas -type f | head -1)
chmod +x "$PTXAS"
echo "nvrtc: $NVRTC_LIB"; echo "ptxas: $PTXAS"

echo "== build"
cargo build --release -p zkforge-gpu --features cuda --example cuda_bench --tests
rm -rf .gpu && mkdir -p .gpu/kernels
cp target/release/examples/cuda_bench .gpu/
cp "$(ls -t target/release/deps/cuda_msm-* | grep -v '\.d$' | head -1)" .gpu/cuda_msm
cp scripts/cuda_device_run.sh .gpu/run.sh

echo "== kernels ($ARCH)"
ZKFORGE_PTX_DIR=$PWD/.gpu/kernels LD_LIBRARY_PATH=$NVRTC_LIB ZKFORGE_REQUIRE_NVRTC=1 .gpu/cuda_msm nvrtc_compiles --nocapture > /tmp/zkforge-nvrtc.log 2>&1 \
  || { tail -20 /tmp/zkforge-nvrtc.log; echo "NVRTC failed: see /tmp/zkforge-nvrtc.log"; exit 1; }
(cd .gpu/kernels && for f in *.ptx; do "$PTXAS" -arch="$ARCH" -O3 "$f" -o "${f%.ptx}.cubin"; done)
echo "$(ls .gpu/kernels/*.cubin | wc -l) kernels assembled for $ARCH"

echo "== Vulkan loader (.gl)"
mkdir -p .gl
(cd .gl && apt-get download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 >/dev/null)
ls .gl

mkdir -p .git/info
for d in .gpu/ .gl/; do grep -qxF "$d" .git/info/exclude 2>/dev/null || echo "$d" >> .git/info/exclude; done
du -sh .gpu .gl
echo "ready: run 'bash .gpu/run.sh all' on the device with carry [\".gl\", \".gpu\"]"
