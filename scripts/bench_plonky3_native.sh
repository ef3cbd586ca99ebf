#!/usr/bin/env bash
# Packed Poseidon2 against Plonky3's packed KoalaBear: Plonky3 packs only when built with the
# CPU's target features, so this builds the bench into its own target directory with
# -C target-cpu=native and runs the hashsig group (rows *_packed_peer: ours sixteen lanes,
# run-time detected, against Plonky3's AVX-512 or AVX2 packing in the same run).
set -euo pipefail
cd "$(dirname "$0")/.."
RUSTFLAGS="-C target-cpu=native" cargo run --release --target-dir target/native -p zkforge-cli -- bench hashsig "$@"
