//! Gt membership of a member, each `GtMembership` form (f^r = 1 against the Frobenius test)
//! on both curves, BLS12-381's Frobenius test under each `GtSquarings` value (Granger-Scott
//! chain, compressed run), and blst's `blst_fp12_in_group` on BLS12-381, alternated chunk by
//! chunk in one process: the fastest of 40 chunks of 5 checks each. Run it with
//! `ZKFORGE_NO_IFMA=1` too for the 64-bit tower.
//! `cargo run --release -p zkforge-pairing --example gt_membership`.
use std::hint::black_box;
use std::time::Instant;

use blst::{blst_fp, blst_fp12, blst_fp12_in_group, blst_fp2, blst_fp6};
use zkforge_pairing::config::{set_gt_membership, set_gt_squarings, GtMembership, GtSquarings};
use zkforge_pairing::{bls12_381 as pb, bn254 as pn};

fn blst_fp12_of(f: &zkforge_field::bls12_381::Fp12) -> blst_fp12 {
    let fp = |x: &zkforge_field::bls12_381::Fp| blst_fp { l: x.to_mont_limbs() };
    let fp2 = |x: &zkforge_field::bls12_381::Fp2| blst_fp2 { fp: [fp(&x.c0), fp(&x.c1)] };
    let fp6 = |x: &zkforge_field::tower::Fp6<zkforge_field::bls12_381::FpConfig, 6>| blst_fp6 { fp2: [fp2(&x.c0), fp2(&x.c1), fp2(&x.c2)] };
    blst_fp12 { fp6: [fp6(&f.c0), fp6(&f.c1)] }
}

fn main() {
    let gb = *pb::Gt::generator().pow_vartime(&[777, 0, 0, 0]).as_fp12();
    let gn = *pn::Gt::generator().pow_vartime(&[777, 0, 0, 0]).as_fp12();
    let bb = blst_fp12_of(&gb);
    // SAFETY: a valid blst_fp12.
    assert!(unsafe { blst_fp12_in_group(&bb) });
    let names = ["bls12_381 order", "bls12_381 frobenius", "bls12_381 blst_fp12_in_group", "bn254 order", "bn254 frobenius", "bls12_381 frobenius granger-scott", "bls12_381 frobenius compressed"];
    let mut best = [f64::MAX; 7];
    for _ in 0..40 {
        for (i, b) in best.iter_mut().enumerate() {
            let form = if i == 0 || i == 3 { GtMembership::Order } else { GtMembership::Frobenius };
            set_gt_membership(form);
            set_gt_squarings(match i {
                5 => GtSquarings::GrangerScott,
                6 => GtSquarings::Compressed,
                _ => GtSquarings::Auto,
            });
            let s = Instant::now();
            for _ in 0..5 {
                let ok = match i {
                    0 | 1 | 5 | 6 => pb::Gt::from_fp12(black_box(gb)).is_ok(),
                    // SAFETY: a valid blst_fp12.
                    2 => unsafe { blst_fp12_in_group(black_box(&bb)) },
                    3 | 4 => pn::Gt::from_fp12(black_box(gn)).is_ok(),
                    _ => unreachable!(),
                };
                assert!(ok);
            }
            *b = b.min(s.elapsed().as_secs_f64() / 5.0 * 1e6);
        }
    }
    set_gt_membership(GtMembership::Auto);
    set_gt_squarings(GtSquarings::Auto);
    for (n, b) in names.iter().zip(best) {
        println!("{n:32} {b:9.1} us");
    }
    println!("bls12_381 frobenius / order {:.3}, frobenius / blst {:.3}; bn254 frobenius / order {:.3}", best[1] / best[0], best[1] / best[2], best[4] / best[3]);
    println!("bls12_381 compressed / granger-scott {:.3}, compressed / blst {:.3}, granger-scott / blst {:.3}", best[6] / best[5], best[6] / best[2], best[5] / best[2]);
}
