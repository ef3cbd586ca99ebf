//! Writes the generated WGSL of every kernel, both curves and both multiplication forms to one
//! file, for reading or diffing the generator's output:
//! `cargo run --release -p zkforge-gpu --example dump_wgsl -- out.wgsl.txt`.

use zkforge_gpu::kernels::{source, Kernel};
use zkforge_gpu::sort_kernels::{sort_source, SortKernel};
use zkforge_gpu::GpuCurve;
fn main() {
    let mut out = String::new();
    for spec in [<zkforge_curve::bls12_381::G1Config as GpuCurve>::spec(), <zkforge_curve::bn254::G1Config as GpuCurve>::spec()] {
        for k in [Kernel::ToMont, Kernel::AccumulateXyzz, Kernel::AccumulateAffine, Kernel::Merge, Kernel::Reduce, Kernel::FieldOps] {
            for u in [false, true] { out.push_str(&source(spec, k, 64, u)); }
        }
    }
    for k in [SortKernel::Count, SortKernel::ScanPartial, SortKernel::ScanTop, SortKernel::ScanFinal, SortKernel::Runs, SortKernel::Scatter] {
        out.push_str(&sort_source(k, 64));
    }
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: dump_wgsl OUT_FILE");
        std::process::exit(2);
    };
    if let Err(e) = std::fs::write(&path, out) {
        eprintln!("could not write {path}: {e}");
        std::process::exit(1);
    }
}
