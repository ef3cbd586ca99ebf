//! Loop a Poseidon permutation (for profiling with perf and A/B timing): `cargo run --release
//! --example perm_loop -- 16|24|88|1616|1|2|116|124 N` (88 / 1616: eight / sixteen row-major width-16 states per call;
//! 1, 2: sixteen width-16 / width-24 states in column layout; 116, 124: scalar Poseidon1; 201,
//! 202: Plonky3's packed width 16 / 24, which packs only in a `-C target-cpu=native` build).
fn main() {
    use zkforge_hashsig::{koalabear::Kb, poseidon2::Poseidon2};
    let args: Vec<String> = std::env::args().collect();
    let w: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(16);
    let n: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let t = std::time::Instant::now();
    if w == 116 || w == 124 {
        // scalar Poseidon1 (leanSig devnet 4), width 16 or 24
        use zkforge_hashsig::poseidon1::Poseidon1;
        let (p16, p24) = (Poseidon1::new_16(), Poseidon1::new_24());
        let mut s16: [Kb; 16] = core::array::from_fn(|i| Kb::new(i as u32));
        let mut s24: [Kb; 24] = core::array::from_fn(|i| Kb::new(i as u32));
        for _ in 0..n {
            if w == 116 {
                p16.permute_mut(&mut s16);
            } else {
                p24.permute_mut(&mut s24);
            }
        }
        println!("{:?} {:?}", s16[0], s24[0]);
    } else if w == 1 || w == 2 {
        // sixteen width-16 (1) or width-24 (2) states in column layout per call
        let (p16, p24) = (Poseidon2::new_16(), Poseidon2::new_24());
        let mut c16: [[Kb; 16]; 16] = core::array::from_fn(|k| core::array::from_fn(|i| Kb::new((k * 16 + i) as u32)));
        let mut c24: [[Kb; 16]; 24] = core::array::from_fn(|k| core::array::from_fn(|i| Kb::new((k * 16 + i) as u32)));
        for _ in 0..n {
            if w == 1 {
                p16.permute_columns_x16(&mut c16);
            } else {
                p24.permute_columns_x16(&mut c24);
            }
        }
        println!("{:?} {:?}", c16[0][0], c24[0][0]);
    } else if w == 201 || w == 202 {
        // Plonky3's packed permutation (sixteen width-16 / width-24 states per call where it
        // packs sixteen lanes: build with -C target-cpu=native), for profiling beside ours
        use p3_field::{Field, PackedValue};
        use p3_koala_bear::{default_koalabear_poseidon2_16, default_koalabear_poseidon2_24, KoalaBear};
        use p3_symmetric::Permutation;
        type Pk = <KoalaBear as Field>::Packing;
        let (p16, p24) = (default_koalabear_poseidon2_16(), default_koalabear_poseidon2_24());
        let mut s16: [Pk; 16] = core::array::from_fn(|i| Pk::from_fn(|k| KoalaBear::new((k * 16 + i) as u32)));
        let mut s24: [Pk; 24] = core::array::from_fn(|i| Pk::from_fn(|k| KoalaBear::new((k * 16 + i) as u32)));
        for _ in 0..n {
            if w == 201 {
                p16.permute_mut(&mut s16);
            } else {
                p24.permute_mut(&mut s24);
            }
        }
        println!("{:?} {:?}", s16[0].as_slice()[0], s24[0].as_slice()[0]);
    } else if w == 88 {
        // eight width-16 states per call (the AVX2 path where the CPU has it)
        let p = Poseidon2::new_16();
        let mut s: [[Kb; 16]; 8] = core::array::from_fn(|k| core::array::from_fn(|i| Kb::new((k * 16 + i) as u32)));
        for _ in 0..n {
            p.permute_x8(&mut s);
        }
        println!("{:?}", s[0][0]);
    } else if w == 1616 {
        // sixteen width-16 states per call
        let p = Poseidon2::new_16();
        let mut s: [[Kb; 16]; 16] = core::array::from_fn(|k| core::array::from_fn(|i| Kb::new((k * 16 + i) as u32)));
        for _ in 0..n {
            p.permute_x16(&mut s);
        }
        println!("{:?}", s[0][0]);
    } else if w == 16 {
        let p = Poseidon2::new_16();
        let mut s: [Kb; 16] = core::array::from_fn(|i| Kb::new(i as u32));
        for _ in 0..n {
            p.permute_mut(&mut s);
        }
        println!("{:?}", s[0]);
    } else {
        let p = Poseidon2::new_24();
        let mut s: [Kb; 24] = core::array::from_fn(|i| Kb::new(i as u32));
        for _ in 0..n {
            p.permute_mut(&mut s);
        }
        println!("{:?}", s[0]);
    }
    println!("{:.1} ns/perm", t.elapsed().as_nanos() as f64 / n as f64);
}
