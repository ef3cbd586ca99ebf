//! Writes the generated WGSL of every kernel, both curves and both multiplication forms to one
//! file, for reading or diffing the generator's output:
//! `cargo run --release -p zkforge-gpu --example dump_wgsl -- out.wgsl.txt`.

use zkforge_gpu::kernels::{source, Kernel};
use zkforge_gpu::GpuCurve;
fn main() {
    let mut out = String::new();
    for spec in [<zkforge_curve::bls12_381::G1Config as GpuCurve>::spec(), <zkforge_curve::bn254::G1Config as GpuCurve>::spec()] {
        for k in [Kernel::ToMont, Kernel::AccumulateXyzz, Kernel::AccumulateAffine, Kernel::Merge, Kernel::Reduce, Kernel::FieldOps] {
            for u in [false, true] { out.push_str(&source(spec, k, 64, u)); }
        }
    }
    std::fs::write(std::env::args().nth(1).unwrap(), out).unwrap();
}
