//! hash_to_g1 in both forms of `set_g1_ro_form`, each with both values of
//! `set_sswu_exponentiations` (the two maps' exponentiations interleaved or one by one), and
//! blst's `blst_hash_to_g1`; then hash_to_g2 with both values of `set_sswu_exponentiations`
//! against `blst_hash_to_g2`; interleaved in one process (fastest of 15 chunks of 200 calls, three rounds), each output checked equal to
//! blst's first. `cargo run --release -p zkforge-curve --example hash_to_g1_ab` (add the bench
//! aliases' `+bmi2,+adx` flags for the build the benchmark table uses).
use std::hint::black_box;
use std::time::Instant;
use zkforge_curve::hash_to_curve::{hash_to_g1, hash_to_g2, set_g1_ro_form, set_sswu_exponentiations, G1RandomOracleForm, SswuExponentiations};

fn best(f: impl Fn()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..15 {
        let s = Instant::now();
        for _ in 0..200 {
            f();
        }
        best = best.min(s.elapsed().as_secs_f64() / 200.0 * 1e6);
    }
    best
}

fn blst_hash(msg: &[u8], dst: &[u8]) -> [u8; 48] {
    let mut p = blst::blst_p1::default();
    let mut out = [0u8; 48];
    // SAFETY: blst reads msg and dst within their lengths and writes one point.
    unsafe {
        blst::blst_hash_to_g1(&mut p, msg.as_ptr(), msg.len(), dst.as_ptr(), dst.len(), std::ptr::null(), 0);
        blst::blst_p1_compress(out.as_mut_ptr(), &p);
    }
    out
}

fn blst_hash2(msg: &[u8], dst: &[u8]) -> [u8; 96] {
    let mut p = blst::blst_p2::default();
    let mut out = [0u8; 96];
    // SAFETY: blst reads msg and dst within their lengths and writes one point.
    unsafe {
        blst::blst_hash_to_g2(&mut p, msg.as_ptr(), msg.len(), dst.as_ptr(), dst.len(), std::ptr::null(), 0);
        blst::blst_p2_compress(out.as_mut_ptr(), &p);
    }
    out
}

fn main() {
    let dst = b"QUUX-V01-CS02-with-BLS12381G1_XMD:SHA-256_SSWU_RO_";
    let msg = b"a message of some thirty-two by";
    let msgs: Vec<[u8; 32]> = (0..64u8).map(|i| [i.wrapping_mul(37) ^ 0x5a; 32]).collect();
    let next = std::cell::Cell::new(0usize);
    let pick = || {
        let i = next.get();
        next.set((i + 1) % msgs.len());
        &msgs[i]
    };
    let (i, o) = (SswuExponentiations::Interleaved, SswuExponentiations::OneByOne);
    let forms = [
        ("add on E1', interleaved", G1RandomOracleForm::AddOnIsogenous, i),
        ("add on E1', one by one", G1RandomOracleForm::AddOnIsogenous, o),
        ("map then add, interleaved", G1RandomOracleForm::MapThenAdd, i),
        ("map then add, one by one", G1RandomOracleForm::MapThenAdd, o),
    ];
    for (_, f, e) in forms {
        set_g1_ro_form(f);
        set_sswu_exponentiations(e);
        assert_eq!(hash_to_g1(msg, dst).unwrap().to_compressed(), blst_hash(msg, dst));
    }
    let g1_rows: Vec<(&str, Box<dyn Fn()>)> = forms
        .iter()
        .map(|&(name, f, e)| {
            let run: Box<dyn Fn()> = Box::new(move || {
                set_g1_ro_form(f);
                set_sswu_exponentiations(e);
            });
            (name, run)
        })
        .collect();
    rounds("G1", &g1_rows, || drop(black_box(hash_to_g1(black_box(pick()), dst).unwrap())), || drop(black_box(blst_hash(black_box(pick()), dst))));
    let dst2 = b"QUUX-V01-CS02-with-BLS12381G2_XMD:SHA-256_SSWU_RO_";
    let exps = [("interleaved", i), ("one by one", o)];
    for (_, e) in exps {
        set_sswu_exponentiations(e);
        assert_eq!(hash_to_g2(msg, dst2).unwrap().to_compressed(), blst_hash2(msg, dst2));
    }
    let g2_rows: Vec<(&str, Box<dyn Fn()>)> = exps.iter().map(|&(name, e)| (name, Box::new(move || set_sswu_exponentiations(e)) as Box<dyn Fn()>)).collect();
    rounds("G2", &g2_rows, || drop(black_box(hash_to_g2(black_box(pick()), dst2).unwrap())), || drop(black_box(blst_hash2(black_box(pick()), dst2))));
}

/// Three rounds: for each row, its switches set by the row's closure, then `ours` timed; then
/// `blst` timed; one line per round.
fn rounds(group: &str, rows: &[(&str, Box<dyn Fn()>)], ours: impl Fn(), blst: impl Fn()) {
    for round in 0..3 {
        let mut line = format!("{group} round {round}:");
        for (name, set) in rows {
            set();
            line += &format!("  {name} {:.2} us", best(&ours));
        }
        line += &format!("  blst {:.2} us", best(&blst));
        println!("{line}");
    }
}
