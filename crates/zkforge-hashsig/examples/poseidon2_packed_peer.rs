//! Packed Poseidon2 (widths 16 and 24) against Plonky3's packed KoalaBear permutation, sixteen
//! states per call on both sides, alternated in one process; per side the fastest of 15 rounds.
//! Ours: `permute_columns_x16` (run-time detected AVX-512 / AVX2, column layout, no transposes)
//! in four `PackedForm`s (the default; the internal rounds in one pass; also the previous
//! internal diagonal; also the previous cube). Then our eight-lane (AVX2) path on the same
//! columns (`PackedForm::sixteen_lanes` off), with the internal rounds tail first (the default)
//! and in one pass: on an AVX-512 CPU the peer to compare it with is Plonky3 built with
//! `-C target-cpu=native -C target-feature=-avx512f` (eight lanes, into `target/native_avx2`).
//! Plonky3 (p3-koala-bear 0.4.1, `default_koalabear_poseidon2_{16,24}`) packs only when built
//! with the CPU's target features, so run this with them:
//! `RUSTFLAGS="-C target-cpu=native" cargo run --release --target-dir target/native -p
//! zkforge-hashsig --example poseidon2_packed_peer`. Both sides first give the same states.
use std::hint::black_box;
use std::time::Instant;

use p3_field::{Field, PackedValue, PrimeField32};
use p3_koala_bear::{default_koalabear_poseidon2_16, default_koalabear_poseidon2_24, KoalaBear};
use p3_symmetric::Permutation;
use zkforge_hashsig::koalabear::Kb;
use zkforge_hashsig::poseidon2::{set_packed_form, PackedForm, Poseidon2};

type Pk = <KoalaBear as Field>::Packing;

fn run<const W: usize>(ours: &Poseidon2<W>, peer: &impl Permutation<[Pk; W]>) {
    let width = <Pk as PackedValue>::WIDTH;
    let value = |k: usize, i: usize| (k * W + i) as u32 * 7919 + 1;
    let mut cols: [[Kb; 16]; W] = core::array::from_fn(|i| core::array::from_fn(|k| Kb::new(value(k, i))));
    let mut packed: Vec<[Pk; W]> = (0..16 / width).map(|j| core::array::from_fn(|i| Pk::from_fn(|k| KoalaBear::new(value(j * width + k, i))))).collect();
    ours.permute_columns_x16(&mut cols);
    for x in packed.iter_mut() {
        peer.permute_mut(x);
    }
    for k in 0..16 {
        for i in 0..W {
            assert_eq!(cols[i][k].to_canonical(), packed[k / width][i].as_slice()[k % width].as_canonical_u32(), "state {k} element {i}");
        }
    }
    const N: u32 = 20_000;
    // sixteen lanes in four forms, then the eight-lane path tail first and in one pass
    let forms = [
        PackedForm::DEFAULT,
        PackedForm { tail_first: false, ..PackedForm::DEFAULT },
        PackedForm { signed_cube: true, masked_diag: false, tail_first: false, sixteen_lanes: true },
        PackedForm { signed_cube: false, masked_diag: false, tail_first: false, sixteen_lanes: true },
        PackedForm { sixteen_lanes: false, ..PackedForm::DEFAULT },
        PackedForm { sixteen_lanes: false, tail_first: false, ..PackedForm::DEFAULT },
    ];
    let (mut best_ours, mut best_peer) = ([f64::MAX; 6], f64::MAX);
    for _ in 0..15 {
        for (f, form) in forms.iter().enumerate() {
            set_packed_form(*form);
            let t = Instant::now();
            for _ in 0..N {
                ours.permute_columns_x16(black_box(&mut cols));
            }
            best_ours[f] = best_ours[f].min(t.elapsed().as_secs_f64() * 1e9 / f64::from(N));
        }
        let t = Instant::now();
        for _ in 0..N {
            for x in black_box(&mut packed).iter_mut() {
                peer.permute_mut(x);
            }
        }
        best_peer = best_peer.min(t.elapsed().as_secs_f64() * 1e9 / f64::from(N));
    }
    set_packed_form(PackedForm::DEFAULT);
    let best_eight = &best_ours[4..];
    println!(
        "width {W}, ns per sixteen states: zkforge {:.0} (one pass per internal round {:.0}, {:.2}; also signed diagonal {:.0}, {:.2}; also previous cube {:.0}, {:.2}), plonky3 (packing width {width}) {best_peer:.0}; ours / peer {:.2}",
        best_ours[0],
        best_ours[1],
        best_ours[0] / best_ours[1],
        best_ours[2],
        best_ours[0] / best_ours[2],
        best_ours[3],
        best_ours[0] / best_ours[3],
        best_ours[0] / best_peer
    );
    println!(
        "width {W}, eight-lane (AVX2) path, ns per sixteen states: {:.0} (one pass per internal round {:.0}, {:.2}); ours / peer {:.2}",
        best_eight[0],
        best_eight[1],
        best_eight[0] / best_eight[1],
        best_eight[0] / best_peer
    );
}

fn main() {
    if <Pk as PackedValue>::WIDTH == 1 {
        eprintln!("Plonky3 was built without packing (build with RUSTFLAGS=\"-C target-cpu=native\"): its rows are scalar");
    }
    run(&Poseidon2::new_16(), &default_koalabear_poseidon2_16());
    run(&Poseidon2::new_24(), &default_koalabear_poseidon2_24());
}
