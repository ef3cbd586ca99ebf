#!/usr/bin/env bash
# Build the `zkforge` Python wheels: one abi3 wheel per platform (CPython 3.9 and every later
# version), manylinux2014 (glibc 2.17) compliant, without a container: maturin links with
# zig's cross linker against glibc 2.17 symbol versions and checks the result as auditwheel
# would (`--compatibility manylinux2014` refuses a wheel that needs newer symbols).
#
#   scripts/build_wheels.sh [OUT_DIR] [TARGET...]
#
# OUT_DIR defaults to dist/; TARGETs are Rust target triples, default the host's x86_64 (or
# aarch64) Linux. aarch64-unknown-linux-gnu cross-builds from x86_64 after
# `rustup target add aarch64-unknown-linux-gnu`. The build tools (maturin, ziglang) come from
# PyPI into a private virtualenv under target/wheel-tools.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-dist}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=("$(uname -m)-unknown-linux-gnu")
fi
tools="target/wheel-tools"
if [ ! -x "$tools/bin/maturin" ] || ! "$tools/bin/python" -c "import ziglang" 2>/dev/null; then
  python3 -m venv "$tools"
  "$tools/bin/pip" install -q maturin==1.16.0 ziglang==0.17.1
fi
export PATH="$PWD/$tools/bin:$PATH"
for t in "${targets[@]}"; do
  rustup target list --installed 2>/dev/null | grep -qx "$t" || rustup target add "$t"
  maturin build --release --zig --target "$t" --compatibility manylinux2014 -m crates/zkforge-py/Cargo.toml --out "$out"
done
ls -1 "$out"/zkforge-*.whl
