//! The process-wide IFMA gate (`zkforge_field::backend::set_ifma_allowed`, the
//! `ZKFORGE_NO_IFMA` environment variable): closed, the lane kernels report themselves
//! unavailable and every operation that has a lane form (variable-time and constant-time
//! MSMs of both curves, many products by scalars, G2 cofactor clearing and subgroup checks in
//! batches, the batched hashes to G1 and G2, Fp exponentiations in groups) gives the same
//! answers as with the gate open. On a CPU without IFMA both runs take the 64-bit paths. One
//! test function toggles the gate (it is process-wide).

use rand::{rngs::StdRng, Rng, SeedableRng};
use zkforge_curve::point::{Affine, Jacobian};
use zkforge_curve::{bls12_381, bn254, hash_to_curve, sample_points};
use zkforge_field::backend::{ifma_allowed, set_ifma_allowed};

fn random_scalars(rng: &mut StdRng, n: usize) -> Vec<[u64; 4]> {
    (0..n).map(|_| [rng.gen(), rng.gen(), rng.gen(), rng.gen()]).collect()
}

/// Every lane-capable result, in one comparable value.
#[derive(Debug, PartialEq)]
struct Results {
    msm_bls: Vec<Affine<bls12_381::G1Config>>,
    msm_bn: Vec<Affine<bn254::G1Config>>,
    msm_ct_bls: Vec<Affine<bls12_381::G1Config>>,
    mul_many_bls: Vec<Affine<bls12_381::G1Config>>,
    g2_cofactor: Vec<bls12_381::G2Projective>,
    g2_subgroup: Vec<bool>,
    hash_g1: Vec<Affine<bls12_381::G1Config>>,
    hash_g2: Vec<Affine<bls12_381::G2Config>>,
    pow: Vec<zkforge_field::bls12_381::Fp>,
}

fn run(seed: u64) -> Results {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut msm_bls = Vec::new();
    let mut msm_bn = Vec::new();
    let mut msm_ct_bls = Vec::new();
    for n in [1usize, 5, 8, 40, 300, 3000] {
        let pts = sample_points::<bls12_381::G1Config>(&mut rng, n);
        let ks = random_scalars(&mut rng, n);
        msm_bls.push(zkforge_msm::msm(&pts, &ks).unwrap().to_affine());
        if n <= 300 {
            msm_ct_bls.push(zkforge_msm::msm_ct::msm_ct(&pts, &ks).unwrap().to_affine());
        }
        let pts = sample_points::<bn254::G1Config>(&mut rng, n);
        msm_bn.push(zkforge_msm::msm(&pts, &ks).unwrap().to_affine());
    }
    let pts = sample_points::<bls12_381::G1Config>(&mut rng, 11);
    let ks = random_scalars(&mut rng, 11);
    let jac: Vec<Jacobian<bls12_381::G1Config>> = pts.iter().map(|p| p.to_jacobian()).collect();
    let mul_many_bls = zkforge_msm::mul_many::mul_many_vartime(&jac, &ks).unwrap().iter().map(|p| p.to_affine()).collect();
    let g2: Vec<bls12_381::G2Projective> = (0..9).map(|_| bls12_381::G2Projective::generator().mul_limbs_vartime(&[rng.gen(), rng.gen(), 0, 0])).collect();
    let g2_cofactor = bls12_381::clear_cofactor_g2_batch_vartime(&g2);
    let g2_affine: Vec<bls12_381::G2Affine> = g2.iter().map(|p| p.to_affine()).collect();
    let g2_subgroup = bls12_381::g2_in_subgroup_batch_vartime(&g2_affine);
    let msgs: Vec<[u8; 16]> = (0..9).map(|_| rng.gen()).collect();
    let hash_g1 = hash_to_curve::hash_to_g1_batch_vartime(&msgs, b"GATE-G1").unwrap();
    let hash_g2 = hash_to_curve::hash_to_g2_batch_vartime(&msgs, b"GATE-G2").unwrap();
    let xs: Vec<zkforge_field::bls12_381::Fp> = (0..12).map(|i| zkforge_field::bls12_381::Fp::from_u64(1000 + i)).collect();
    let pow = zkforge_field::tower::pow_p_minus_3_over_4_many(&xs);
    Results { msm_bls, msm_bn, msm_ct_bls, mul_many_bls, g2_cofactor, g2_subgroup, hash_g1, hash_g2, pow }
}

#[test]
fn closed_gate_gives_the_same_answers() {
    let seed: u64 = std::env::var("ZKFORGE_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(rand::random);
    eprintln!("ZKFORGE_SEED={seed}");
    set_ifma_allowed(true);
    assert!(ifma_allowed());
    let open = run(seed);
    set_ifma_allowed(false);
    assert!(!ifma_allowed());
    assert!(!zkforge_msm::ifma::available(), "a closed gate hides the lanes");
    assert!(zkforge_field::tower::Fp12Lanes::<zkforge_field::bls12_381::FpConfig, 6>::one().is_none(), "and the tower's");
    let closed = run(seed);
    set_ifma_allowed(true);
    assert_eq!(open, closed);
    // and the gate reopens
    #[cfg(target_arch = "x86_64")]
    assert_eq!(zkforge_msm::ifma::available(), std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512ifma"));
}

/// `ZKFORGE_NO_IFMA` closes the gate when it is first read (`1`, any other non-empty value
/// but `0`), and `0` or empty leave it open: this test runs itself as a child process with the
/// variable set (the gate is read once per process).
#[test]
fn environment_variable_closes_the_gate() {
    if let Ok(want) = std::env::var("ZKFORGE_GATE_CHILD_EXPECTS") {
        assert_eq!(ifma_allowed().to_string(), want, "ZKFORGE_NO_IFMA={:?}", std::env::var_os("ZKFORGE_NO_IFMA"));
        return;
    }
    let exe = std::env::current_exe().unwrap();
    for (value, allowed) in [("1", false), ("yes", false), ("0", true), ("", true)] {
        let out = std::process::Command::new(&exe)
            .args(["--exact", "environment_variable_closes_the_gate", "--test-threads", "1"])
            .env("ZKFORGE_NO_IFMA", value)
            .env("ZKFORGE_GATE_CHILD_EXPECTS", allowed.to_string())
            .output()
            .unwrap();
        assert!(out.status.success(), "ZKFORGE_NO_IFMA={value:?}: {}", String::from_utf8_lossy(&out.stdout));
        assert!(String::from_utf8_lossy(&out.stdout).contains("1 passed"), "the child ran the test");
    }
}
