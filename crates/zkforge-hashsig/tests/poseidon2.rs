//! KoalaBear and Poseidon2 against hash-sig's vectors and against Plonky3 (p3-koala-bear
//! 0.4.1, whose default permutations use the same constants) on fresh random inputs.

use p3_field::{PrimeCharacteristicRing, PrimeField32};
use p3_symmetric::Permutation;
use rand::{Rng, SeedableRng};
use zkforge_hashsig::koalabear::{Kb, P};
use zkforge_hashsig::poseidon2::Poseidon2;

fn vectors() -> serde_json::Value {
    serde_json::from_str(include_str!("vectors/poseidon2_koalabear_permutation.json")).unwrap()
}

/// Held by the tests that set `poseidon1::set_registers` (process-wide), so that each runs
/// the form it names.
static P1_SWITCH: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn rng() -> rand::rngs::StdRng {
    let seed = std::env::var("ZKFORGE_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(rand::random::<u64>);
    eprintln!("ZKFORGE_SEED={seed}");
    rand::rngs::StdRng::seed_from_u64(seed)
}

fn check_vectors<const W: usize>(perm: &Poseidon2<W>, key: &str) -> usize {
    let v = vectors();
    let cases = v[key].as_array().unwrap();
    for c in cases {
        let input: Vec<u32> = c["input"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u32).collect();
        let want: Vec<u32> = c["output"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u32).collect();
        let mut s = [Kb::ZERO; W];
        for (x, i) in s.iter_mut().zip(&input) {
            *x = Kb::new(*i);
        }
        let got: Vec<u32> = perm.permute(s).iter().map(|x| x.to_canonical()).collect();
        assert_eq!(got, want, "{key} input {input:?}");
    }
    cases.len()
}

#[test]
fn permutation_vectors() {
    assert!(check_vectors(&Poseidon2::new_16(), "poseidon2_koalabear_width16") > 0);
    assert!(check_vectors(&Poseidon2::new_24(), "poseidon2_koalabear_width24") > 0);
}

#[test]
fn field_encodings() {
    let v = vectors();
    for e in v["field_element_encodings"].as_array().unwrap() {
        let canonical = e["canonical"].as_u64().unwrap() as u32;
        let monty = e["serde_u32_montgomery"].as_u64().unwrap() as u32;
        let x = Kb::new(canonical);
        assert_eq!(x.to_monty(), monty);
        assert_eq!(Kb::from_monty(monty), Some(x));
        let legacy = e["bincode_legacy_hex"].as_str().unwrap();
        let want: String = monty.to_le_bytes().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(legacy, want);
    }
    assert_eq!(Kb::from_monty(P), None);
    assert_eq!(Kb::from_monty(u32::MAX), None);
}

#[test]
fn permutations_match_plonky3() {
    let mut rng = rng();
    let (p16, p24) = (p3_koala_bear::default_koalabear_poseidon2_16(), p3_koala_bear::default_koalabear_poseidon2_24());
    let (o16, o24) = (Poseidon2::new_16(), Poseidon2::new_24());
    for _ in 0..200 {
        let raw: [u32; 24] = core::array::from_fn(|_| rng.gen_range(0..P));
        let mut a16: [p3_koala_bear::KoalaBear; 16] = core::array::from_fn(|i| p3_koala_bear::KoalaBear::new(raw[i]));
        p16.permute_mut(&mut a16);
        let b16 = o16.permute(core::array::from_fn(|i| Kb::new(raw[i])));
        assert_eq!(a16.map(|x| x.as_canonical_u32()), b16.map(|x| x.to_canonical()));
        let mut a24: [p3_koala_bear::KoalaBear; 24] = core::array::from_fn(|i| p3_koala_bear::KoalaBear::new(raw[i]));
        p24.permute_mut(&mut a24);
        let b24 = o24.permute(raw.map(Kb::new));
        assert_eq!(a24.map(|x| x.as_canonical_u32()), b24.map(|x| x.to_canonical()));
    }
}

#[test]
fn field_ops_match_plonky3() {
    use p3_koala_bear::KoalaBear as K;
    let mut rng = rng();
    let mut vals: Vec<u32> = vec![0, 1, 2, P - 1, P - 2, 1 << 24, (P - 1) / 2];
    vals.extend((0..500).map(|_| rng.gen_range(0..P)));
    for (i, &a) in vals.iter().enumerate() {
        let b = vals[(i * 7 + 3) % vals.len()];
        let (x, y) = (Kb::new(a), Kb::new(b));
        let (u, v) = (K::new(a), K::new(b));
        assert_eq!((x + y).to_canonical(), (u + v).as_canonical_u32());
        assert_eq!((x - y).to_canonical(), (u - v).as_canonical_u32());
        assert_eq!((x * y).to_canonical(), (u * v).as_canonical_u32());
        assert_eq!((-x).to_canonical(), (-u).as_canonical_u32());
        assert_eq!(x.cube().to_canonical(), u.cube().as_canonical_u32());
        if a != 0 {
            assert_eq!((x * x.inverse()), Kb::ONE);
        }
        // the raw Montgomery word is Plonky3's too
        assert_eq!(x.to_monty().to_string(), serde_json::to_string(&u).unwrap());
    }
}

#[test]
fn packed_x8_matches_scalar() {
    let mut rng = rng();
    let perm = Poseidon2::new_16();
    for round in 0..100 {
        let mut states: [[Kb; 16]; 8] = core::array::from_fn(|_| core::array::from_fn(|_| Kb::new(rng.gen_range(0..P))));
        if round == 0 {
            states[0] = [Kb::ZERO; 16];
            states[1] = [-Kb::ONE; 16];
        }
        let mut a = states;
        let mut b = states;
        perm.permute_x8(&mut a);
        perm.permute_x8_scalar(&mut b);
        assert_eq!(a, b);
        let p24 = Poseidon2::new_24();
        let mut c: [[Kb; 24]; 8] = core::array::from_fn(|_| core::array::from_fn(|_| Kb::new(rng.gen_range(0..P))));
        let mut d = c;
        p24.permute_x8(&mut c);
        p24.permute_x8_scalar(&mut d);
        assert_eq!(c, d);
    }
}

#[test]
fn packed_x16_matches_scalar() {
    let mut rng = rng();
    let (p16, p24) = (Poseidon2::new_16(), Poseidon2::new_24());
    #[cfg(target_arch = "x86_64")]
    eprintln!("avx512f: {}", std::is_x86_feature_detected!("avx512f"));
    for _ in 0..50 {
        let mut a: [[Kb; 16]; 16] = core::array::from_fn(|_| core::array::from_fn(|_| Kb::new(rng.gen_range(0..P))));
        let want: Vec<[Kb; 16]> = a.iter().map(|s| p16.permute(*s)).collect();
        p16.permute_x16(&mut a);
        assert_eq!(a.to_vec(), want);
        let mut b: [[Kb; 24]; 16] = core::array::from_fn(|_| core::array::from_fn(|_| Kb::new(rng.gen_range(0..P))));
        let want: Vec<[Kb; 24]> = b.iter().map(|s| p24.permute(*s)).collect();
        p24.permute_x16(&mut b);
        assert_eq!(b.to_vec(), want);
    }
}

/// Every packed form (`PackedForm`) gives the scalar permutation's states, for every
/// sixteen-lane entry point (row-major, column layout, and the chain walks through
/// `chains_lanes`), including all-zero and all-(p - 1) states. The forms are process-wide,
/// and every value gives the same states, so tests running beside this one are not affected.
#[test]
fn packed_every_form_matches_scalar() {
    use zkforge_hashsig::poseidon2::{set_packed_form, PackedForm};
    let mut rng = rng();
    let (p16, p24) = (Poseidon2::new_16(), Poseidon2::new_24());
    for bits in 0..16u8 {
        let (signed_cube, masked_diag, tail_first, sixteen_lanes) = (bits & 1 != 0, bits & 2 != 0, bits & 4 != 0, bits & 8 != 0);
        set_packed_form(PackedForm { signed_cube, masked_diag, tail_first, sixteen_lanes });
        for round in 0..20 {
            let mut a: [[Kb; 16]; 16] = core::array::from_fn(|_| core::array::from_fn(|_| Kb::new(rng.gen_range(0..P))));
            if round == 0 {
                a[0] = [Kb::ZERO; 16];
                a[1] = [-Kb::ONE; 16];
            }
            let want: Vec<[Kb; 16]> = a.iter().map(|s| p16.permute(*s)).collect();
            let mut cols: [[Kb; 16]; 16] = core::array::from_fn(|j| core::array::from_fn(|i| a[i][j]));
            // the eight-lane (AVX2) path on the first eight states
            let mut eight: [[Kb; 16]; 8] = core::array::from_fn(|i| a[i]);
            p16.permute_x8(&mut eight);
            assert_eq!(eight.to_vec(), want[..8].to_vec(), "x8, form bits {bits}");
            p16.permute_x16(&mut a);
            assert_eq!(a.to_vec(), want, "form bits {bits}");
            p16.permute_columns_x16(&mut cols);
            assert!((0..16).all(|i| (0..16).all(|j| cols[j][i] == want[i][j])), "form bits {bits}");
            let mut b: [[Kb; 24]; 16] = core::array::from_fn(|_| core::array::from_fn(|_| Kb::new(rng.gen_range(0..P))));
            if round == 0 {
                b[2] = [Kb::ZERO; 24];
                b[3] = [-Kb::ONE; 24];
            }
            let want: Vec<[Kb; 24]> = b.iter().map(|s| p24.permute(*s)).collect();
            let mut eight: [[Kb; 24]; 8] = core::array::from_fn(|i| b[i]);
            p24.permute_x8(&mut eight);
            assert_eq!(eight.to_vec(), want[..8].to_vec(), "x8 width 24, form bits {bits}");
            p24.permute_x16(&mut b);
            assert_eq!(b.to_vec(), want, "form bits {bits}");
        }
        // sixteen chain walks of eight steps (H = 8, parameter 5, tweak 2) against the
        // one-at-a-time walk
        let perms = zkforge_hashsig::tweak_hash::Perms::default();
        let parameter: [Kb; 5] = core::array::from_fn(|_| Kb::new(rng.gen_range(0..P)));
        let epochs: [u32; 16] = core::array::from_fn(|_| rng.gen());
        let chains: [u8; 16] = core::array::from_fn(|i| i as u8 * 3);
        let starts: [[Kb; 8]; 16] = core::array::from_fn(|_| core::array::from_fn(|_| Kb::new(rng.gen_range(0..P))));
        let mut values = starts;
        perms.chains_lanes::<5, 2, 8, 16>(&parameter, epochs, chains, 1, 8, &mut values);
        for i in 0..16 {
            assert_eq!(values[i], perms.chain::<5, 2, 8>(&parameter, epochs[i], chains[i], 1, 8, &starts[i]), "form bits {bits}, chain {i}");
        }
    }
    set_packed_form(PackedForm::DEFAULT);
}

/// The column-layout entry point equals the row-major one on the transposed states.
#[test]
fn packed_columns_match_rows() {
    let mut rng = rng();
    let (p16, p24) = (Poseidon2::new_16(), Poseidon2::new_24());
    for _ in 0..20 {
        let rows: [[Kb; 16]; 16] = core::array::from_fn(|_| core::array::from_fn(|_| Kb::new(rng.gen_range(0..P))));
        let mut cols: [[Kb; 16]; 16] = core::array::from_fn(|j| core::array::from_fn(|i| rows[i][j]));
        p16.permute_columns_x16(&mut cols);
        for (i, r) in rows.iter().enumerate() {
            let want = p16.permute(*r);
            assert!((0..16).all(|j| cols[j][i] == want[j]));
        }
        let rows: [[Kb; 24]; 16] = core::array::from_fn(|_| core::array::from_fn(|_| Kb::new(rng.gen_range(0..P))));
        let mut cols: [[Kb; 16]; 24] = core::array::from_fn(|j| core::array::from_fn(|i| rows[i][j]));
        p24.permute_columns_x16(&mut cols);
        for (i, r) in rows.iter().enumerate() {
            let want = p24.permute(*r);
            assert!((0..24).all(|j| cols[j][i] == want[j]));
        }
    }
}

/// The run-time selected scalar permutation (AVX2 build where available) equals the portable
/// build, including the all-zero and all-(p-1) states.
#[test]
fn selected_scalar_matches_portable() {
    let mut rng = rng();
    let (p16, p24) = (Poseidon2::new_16(), Poseidon2::new_24());
    for round in 0..200 {
        let mut a: [Kb; 16] = core::array::from_fn(|_| Kb::new(rng.gen_range(0..P)));
        let mut c: [Kb; 24] = core::array::from_fn(|_| Kb::new(rng.gen_range(0..P)));
        if round == 0 {
            a = [-Kb::ONE; 16];
            c = [Kb::ZERO; 24];
        }
        let (mut b, mut d) = (a, c);
        p16.permute_mut(&mut a);
        p16.permute_mut_portable(&mut b);
        assert_eq!(a, b);
        p24.permute_mut(&mut c);
        p24.permute_mut_portable(&mut d);
        assert_eq!(c, d);
    }
}

/// Every `ScalarForm` of the one-state permutation (fused internal rounds, lazy S-box square,
/// the state in AVX-512, AVX2 or no registers; all sixteen combinations) against Plonky3 on random
/// states and on the edge states 0, 1 and p - 1 in every lane, through `permute_mut` (the
/// selected build) and `permute_mut_portable`; then the vectors under each form.
#[test]
fn every_scalar_form_matches_plonky3() {
    use zkforge_hashsig::poseidon2::{scalar_form, set_scalar_form, Registers, ScalarForm};
    let mut rng = rng();
    let (p16, p24) = (p3_koala_bear::default_koalabear_poseidon2_16(), p3_koala_bear::default_koalabear_poseidon2_24());
    let (o16, o24) = (Poseidon2::new_16(), Poseidon2::new_24());
    for bits in 0..16u8 {
        let registers = [Registers::Auto, Registers::Avx512, Registers::Avx2, Registers::Portable][bits as usize >> 2];
        let form = ScalarForm { fused_internal: bits & 1 != 0, lazy_cube: bits & 2 != 0, registers };
        set_scalar_form(form);
        assert_eq!(scalar_form(), form);
        for round in 0..150 {
            let raw: [u32; 24] = match round {
                0 => [0; 24],
                1 => [1; 24],
                2 => [P - 1; 24],
                _ => core::array::from_fn(|_| rng.gen_range(0..P)),
            };
            let mut a16: [p3_koala_bear::KoalaBear; 16] = core::array::from_fn(|i| p3_koala_bear::KoalaBear::new(raw[i]));
            p16.permute_mut(&mut a16);
            let want16 = a16.map(|x| x.as_canonical_u32());
            let mut b16: [Kb; 16] = core::array::from_fn(|i| Kb::new(raw[i]));
            let mut c16 = b16;
            o16.permute_mut(&mut b16);
            o16.permute_mut_portable(&mut c16);
            assert_eq!(b16.map(|x| x.to_canonical()), want16, "{form:?}");
            assert_eq!(c16.map(|x| x.to_canonical()), want16, "{form:?}");
            let mut a24: [p3_koala_bear::KoalaBear; 24] = core::array::from_fn(|i| p3_koala_bear::KoalaBear::new(raw[i]));
            p24.permute_mut(&mut a24);
            let want24 = a24.map(|x| x.as_canonical_u32());
            let mut b24 = raw.map(Kb::new);
            let mut c24 = b24;
            o24.permute_mut(&mut b24);
            o24.permute_mut_portable(&mut c24);
            assert_eq!(b24.map(|x| x.to_canonical()), want24, "{form:?}");
            assert_eq!(c24.map(|x| x.to_canonical()), want24, "{form:?}");
        }
        assert!(check_vectors(&o16, "poseidon2_koalabear_width16") > 0);
        assert!(check_vectors(&o24, "poseidon2_koalabear_width24") > 0);
    }
    set_scalar_form(ScalarForm::DEFAULT);
}

/// Poseidon1 widths 16 and 24: the selected path equals the textbook rounds on random states
/// and on the all-0, all-1 and all-(p-1) states, under every `poseidon1::set_registers` value
/// (AVX-512 and AVX2 registers where the CPU has them).
#[test]
fn poseidon1_registers_match_textbook() {
    use zkforge_hashsig::poseidon1::{registers, set_registers, Poseidon1, Registers};
    let _switch = P1_SWITCH.lock().unwrap_or_else(|e| e.into_inner());
    let mut rng = rng();
    let (p16, p24) = (Poseidon1::new_16(), Poseidon1::new_24());
    for on in [Registers::Auto, Registers::Avx512, Registers::Avx2, Registers::Portable] {
        set_registers(on);
        assert_eq!(registers(), on);
        for round in 0..300 {
            let a: [Kb; 24] = match round {
                0 => [Kb::ZERO; 24],
                1 => [Kb::ONE; 24],
                2 => [-Kb::ONE; 24],
                _ => core::array::from_fn(|_| Kb::new(rng.gen_range(0..P))),
            };
            let a16: [Kb; 16] = core::array::from_fn(|i| a[i]);
            let (mut b, mut c) = (a16, a16);
            p16.permute_mut(&mut b);
            p16.permute_mut_textbook(&mut c);
            assert_eq!(b, c, "width 16, registers {on:?}, round {round}");
            let (mut b, mut c) = (a, a);
            p24.permute_mut(&mut b);
            p24.permute_mut_textbook(&mut c);
            assert_eq!(b, c, "width 24, registers {on:?}, round {round}");
        }
    }
    set_registers(Registers::Auto);
}

/// Poseidon1's sparse partial rounds and packed batches: under every `Registers` value and
/// every `Form` (sparse or dense partial rounds, packed or not, IFMA matrix product or not,
/// width 24's MDS product as a convolution or dense, width 16's split by the CRT or whole,
/// one-state partial rounds deferred or not), `permute_many` on 37 states (packed batches of
/// 16 or 8 and a remainder one by one) and `permute_mut_sparse` and `permute_mut_deferred`
/// equal the textbook rounds, on random states and on the all-0, all-1 and all-(p-1) states.
#[test]
fn poseidon1_every_form_matches_textbook() {
    use zkforge_hashsig::poseidon1::{form, set_form, set_registers, Form, Poseidon1, Registers};
    let _switch = P1_SWITCH.lock().unwrap_or_else(|e| e.into_inner());
    let mut rng = rng();
    let (p16, p24) = (Poseidon1::new_16(), Poseidon1::new_24());
    let states: Vec<[Kb; 24]> = (0..37)
        .map(|i| match i {
            0 => [Kb::ZERO; 24],
            1 => [Kb::ONE; 24],
            2 => [-Kb::ONE; 24],
            _ => core::array::from_fn(|_| Kb::new(rng.gen_range(0..P))),
        })
        .collect();
    let s16: Vec<[Kb; 16]> = states.iter().map(|a| core::array::from_fn(|i| a[i])).collect();
    let want16: Vec<[Kb; 16]> = s16.iter().map(|a| { let mut b = *a; p16.permute_mut_textbook(&mut b); b }).collect();
    let want24: Vec<[Kb; 24]> = states.iter().map(|a| { let mut b = *a; p24.permute_mut_textbook(&mut b); b }).collect();
    for (a, w) in s16.iter().zip(&want16) {
        let mut b = *a;
        p16.permute_mut_sparse(&mut b);
        assert_eq!(b, *w, "width 16, sparse scalar");
        let mut b = *a;
        p16.permute_mut_deferred(&mut b);
        assert_eq!(b, *w, "width 16, deferred scalar");
    }
    for (a, w) in states.iter().zip(&want24) {
        let mut b = *a;
        p24.permute_mut_sparse(&mut b);
        assert_eq!(b, *w, "width 24, sparse scalar");
        let mut b = *a;
        p24.permute_mut_deferred(&mut b);
        assert_eq!(b, *w, "width 24, deferred scalar");
    }
    for registers in [Registers::Auto, Registers::Avx512, Registers::Avx2, Registers::Portable] {
        for bits in 0..64u8 {
            set_registers(registers);
            let f = Form { sparse_partial: bits & 1 != 0, packed: bits & 2 != 0, ifma_mds: bits & 4 != 0, circulant_ntt: bits & 8 != 0, mds16_crt: bits & 16 != 0, deferred_partial: bits & 32 != 0 };
            set_form(f);
            assert_eq!(form(), f);
            let mut b16 = s16.clone();
            p16.permute_many(&mut b16);
            assert_eq!(b16, want16, "width 16, {registers:?}, {f:?}");
            let mut b24 = states.clone();
            p24.permute_many(&mut b24);
            assert_eq!(b24, want24, "width 24, {registers:?}, {f:?}");
        }
    }
    set_registers(Registers::Auto);
    set_form(Form::DEFAULT);
}

/// Poseidon1 widths 16 and 24 against Plonky3 369449ef's outputs (leanSig devnet 4).
#[test]
fn poseidon1_vectors() {
    use zkforge_hashsig::poseidon1::{set_registers, Poseidon1, Registers};
    let _switch = P1_SWITCH.lock().unwrap_or_else(|e| e.into_inner());
    let v: serde_json::Value = serde_json::from_str(include_str!("vectors/poseidon1_koalabear_permutation.json")).unwrap();
    let vals = |x: &serde_json::Value| -> Vec<u32> { x.as_array().unwrap().iter().map(|e| e.as_u64().unwrap() as u32).collect() };
    let (p16, p24) = (Poseidon1::new_16(), Poseidon1::new_24());
    let mut n = 0;
    // width 16 under every form (AVX-512 and AVX2 registers where the CPU has them, textbook)
    for registers in [Registers::Portable, Registers::Avx2, Registers::Auto] {
        set_registers(registers);
        for c in v["poseidon1_koalabear_width16"].as_array().unwrap() {
            let i = vals(&c["input"]);
            let out = p16.permute(core::array::from_fn(|k| Kb::new(i[k])));
            assert_eq!(out.iter().map(|x| x.to_canonical()).collect::<Vec<_>>(), vals(&c["output"]), "registers {registers:?}");
        }
    }
    for c in v["poseidon1_koalabear_width16"].as_array().unwrap() {
        let i = vals(&c["input"]);
        let out = p16.permute(core::array::from_fn(|k| Kb::new(i[k])));
        assert_eq!(out.iter().map(|x| x.to_canonical()).collect::<Vec<_>>(), vals(&c["output"]));
        n += 1;
    }
    for c in v["poseidon1_koalabear_width24"].as_array().unwrap() {
        let i = vals(&c["input"]);
        for registers in [Registers::Portable, Registers::Avx2, Registers::Auto] {
            set_registers(registers);
            let out = p24.permute(core::array::from_fn(|k| Kb::new(i[k])));
            assert_eq!(out.iter().map(|x| x.to_canonical()).collect::<Vec<_>>(), vals(&c["output"]), "registers {registers:?}");
        }
        n += 1;
    }
    assert!(n >= 4);
}
