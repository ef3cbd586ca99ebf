//! Writes a micro-kernel source per multiplication form (one product in a loop) for counting
//! SASS instructions with NVRTC, ptxas and nvdisasm: `mul_probe -- DIR`.
use zkforge_curve::{bls12_381, bn254};
use zkforge_gpu::cuda_gen::{emit_field, CudaMul};
use zkforge_gpu::GpuCurve;

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    for (name, spec) in [("381", bls12_381::G1Config::spec()), ("254", bn254::G1Config::spec())] {
        for mul in [CudaMul::Ptx, CudaMul::Portable, CudaMul::Wide] {
            let src = format!(
                "typedef unsigned int u32;\ntypedef unsigned long long u64;\n{}\nextern \"C\" __global__ void probe(u32* __restrict__ io, u32 k) {{\n  Fp a, b;\n  for (int j = 0; j < W; j++) {{ a.v[j] = io[threadIdx.x * W + j]; b.v[j] = io[(threadIdx.x + 1) * W + j]; }}\n  for (u32 i = 0; i < k; i++) a = fp_mul(a, b);\n  for (int j = 0; j < W; j++) io[threadIdx.x * W + j] = a.v[j];\n}}\n",
                emit_field(spec, mul)
            );
            std::fs::write(format!("{dir}/{name}_{mul:?}.cu"), src).unwrap();
        }
    }
}
