//! Prints the generated CUDA source: `cargo run -p zkforge-gpu --example dump_cuda -- [bn254|bls12_381] [ptx|portable|wide]`.
use zkforge_curve::{bls12_381, bn254};
use zkforge_gpu::cuda_gen::{cuda_source, CudaMul};
use zkforge_gpu::GpuCurve;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let curve = args.get(1).map(String::as_str).unwrap_or("bls12_381");
    let mul = match args.get(2).map(String::as_str) {
        Some("portable") => CudaMul::Portable,
        Some("wide") => CudaMul::Wide,
        _ => CudaMul::Ptx,
    };
    let (spec, scalar) = if curve == "bn254" { (bn254::G1Config::spec(), bn254::G1Config::scalar_spec()) } else { (bls12_381::G1Config::spec(), bls12_381::G1Config::scalar_spec()) };
    print!("{}", cuda_source(spec, scalar, mul));
}
