//! Profiling loop for the pairing: `cargo run --release -p zkforge-bench --example pairingprof -- [bls|bn] [ml|fe|check] ITERS`
//! (run under `perf record` to see where the time goes; `CYCLO=gs|karabina|ifma` picks the
//! cyclotomic squaring, `EXPX=wnaf|depths` the exponentiation by |x|,
//! `MILLER=scalar|ifma` the Miller-loop accumulator, `HARD=scalar|ifma` where the final
//! exponentiation's hard part runs, `STEPS=k` the lane-step threshold and `ADDS=0|1` lane
//! addition steps for `checkN`).
use zkforge_curve::{bls12_381 as bls, bn254 as bn, sample_points};
use zkforge_pairing::{bls12_381 as pb, bn254 as pn};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let curve = a.get(1).map(String::as_str).unwrap_or("bls");
    let what = a.get(2).map(String::as_str).unwrap_or("check");
    let iters: usize = a.get(3).and_then(|s| s.parse().ok()).unwrap_or(1000);
    // CYCLO=gs|karabina|ifma picks the cyclotomic squaring (default: the measured best)
    use zkforge_field::backend::{set_cyclotomic_squaring, CyclotomicSquaring};
    match std::env::var("CYCLO").as_deref() {
        Ok("gs") => set_cyclotomic_squaring(CyclotomicSquaring::GrangerScott),
        Ok("karabina") => set_cyclotomic_squaring(CyclotomicSquaring::Karabina),
        Ok("ifma") => set_cyclotomic_squaring(CyclotomicSquaring::KarabinaIfma),
        _ => {}
    }
    // EXPX=wnaf|depths picks BLS12-381's exponentiation by |x|
    use zkforge_pairing::config::{set_exp_by_x_form, ExpByXForm};
    match std::env::var("EXPX").as_deref() {
        Ok("wnaf") => set_exp_by_x_form(ExpByXForm::Wnaf),
        Ok("depths") => set_exp_by_x_form(ExpByXForm::Depths),
        _ => {}
    }
    // MILLER=scalar|ifma picks where the Miller loop keeps its accumulator
    use zkforge_pairing::config::{set_miller_accumulator, MillerAccumulator};
    match std::env::var("MILLER").as_deref() {
        Ok("scalar") => set_miller_accumulator(MillerAccumulator::Scalar),
        Ok("ifma") => set_miller_accumulator(MillerAccumulator::Ifma),
        _ => {}
    }
    // ADDS=0|1: the lane Miller loop's addition steps in the scalar tower or on lanes
    match std::env::var("ADDS").as_deref() {
        Ok("0") => zkforge_pairing::config::set_lane_addition_steps(false),
        Ok("1") => zkforge_pairing::config::set_lane_addition_steps(true),
        _ => {}
    }
    // HARD=scalar|ifma picks where the final exponentiation's hard part runs
    use zkforge_pairing::config::{set_hard_part, HardPart};
    match std::env::var("HARD").as_deref() {
        Ok("scalar") => set_hard_part(HardPart::Scalar),
        Ok("ifma") => set_hard_part(HardPart::Ifma),
        _ => {}
    }
    let mut rng = rand::thread_rng();
    if what == "feab" {
        // the final exponentiation's hard part, scalar against lanes, interleaved in rounds
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let bf = pb::multi_miller_loop(&sample_points::<bls::G1Config>(&mut rng, 1).into_iter().zip(sample_points::<bls::G2Config>(&mut rng, 1)).collect::<Vec<_>>());
        let nf = pn::multi_miller_loop(&sample_points::<bn::G1Config>(&mut rng, 1).into_iter().zip(sample_points::<bn::G2Config>(&mut rng, 1)).collect::<Vec<_>>());
        for _ in 0..15 {
            for (h, out) in [(HardPart::Scalar, &mut a), (HardPart::Ifma, &mut b)] {
                set_hard_part(h);
                let t = std::time::Instant::now();
                for _ in 0..iters {
                    if curve == "bls" {
                        std::hint::black_box(pb::final_exponentiation(&bf));
                    } else {
                        std::hint::black_box(pn::final_exponentiation(&nf));
                    }
                }
                out.push(t.elapsed().as_secs_f64() * 1e6 / iters as f64);
            }
        }
        a.sort_by(f64::total_cmp);
        b.sort_by(f64::total_cmp);
        println!("{curve} fe: scalar hard part {:.1} us, lanes {:.1} us (medians of 15 interleaved rounds)", a[7], b[7]);
        if curve == "bls" {
            // the lanes' two forms of the exponentiation by |x|
            let (mut w, mut d) = (Vec::new(), Vec::new());
            set_hard_part(HardPart::Ifma);
            for _ in 0..15 {
                for (form, out) in [(ExpByXForm::Wnaf, &mut w), (ExpByXForm::Depths, &mut d)] {
                    set_exp_by_x_form(form);
                    let t = std::time::Instant::now();
                    for _ in 0..iters {
                        std::hint::black_box(pb::final_exponentiation(&bf));
                    }
                    out.push(t.elapsed().as_secs_f64() * 1e6 / iters as f64);
                }
            }
            w.sort_by(f64::total_cmp);
            d.sort_by(f64::total_cmp);
            println!("bls fe on lanes: exp-by-x Granger-Scott wNAF {:.1} us, compressed depths {:.1} us", w[7], d[7]);
        }
        return;
    }
    let t = std::time::Instant::now();
    if curve == "bls" {
        let pairs: Vec<(bls::G1Affine, bls::G2Affine)> = sample_points::<bls::G1Config>(&mut rng, 2).into_iter().zip(sample_points::<bls::G2Config>(&mut rng, 2)).collect();
        let f = pb::multi_miller_loop(&pairs[..1]);
        if let Some(n) = what.strip_prefix("check").and_then(|n| n.parse::<usize>().ok()) {
            // checkN: a pairing check of N pairs; STEPS=k runs the doubling steps on lanes from
            // k pairs (`set_lane_steps_min_pairs`)
            if let Some(k) = std::env::var("STEPS").ok().and_then(|v| v.parse().ok()) {
                zkforge_pairing::config::set_lane_steps_min_pairs(k);
            }
            let pn: Vec<(bls::G1Affine, bls::G2Affine)> = sample_points::<bls::G1Config>(&mut rng, n).into_iter().zip(sample_points::<bls::G2Config>(&mut rng, n)).collect();
            let t = std::time::Instant::now();
            for _ in 0..iters {
                std::hint::black_box(pb::pairing_check(&pn));
            }
            println!("bls check{n}: {:.1} us per call", t.elapsed().as_secs_f64() * 1e6 / iters as f64);
            return;
        }
        if what == "par8" {
            // eight pairs on a pool of two threads
            let mut p8: Vec<(bls::G1Affine, bls::G2Affine)> = sample_points::<bls::G1Config>(&mut rng, 8).into_iter().zip(sample_points::<bls::G2Config>(&mut rng, 8)).collect();
            if std::env::var("CANCEL").is_ok() {
                // the bench's pairs: (P, Q), (-P, Q) in twos
                for i in (0..8).step_by(2) {
                    p8[i + 1] = (-p8[i].0, p8[i].1);
                }
            }
            let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
            let t = std::time::Instant::now();
            pool.install(|| {
                for _ in 0..iters {
                    std::hint::black_box(pb::pairing_check_parallel(&p8));
                }
            });
            println!("bls par8: {:.1} us per call (calls made inside the pool)", t.elapsed().as_secs_f64() * 1e6 / iters as f64);
            // as the bench does: each call enters the pool from this thread, alternating with a
            // one-thread call
            let (mut two, mut one) = (0.0, 0.0);
            for _ in 0..iters {
                let t = std::time::Instant::now();
                std::hint::black_box(pool.install(|| pb::pairing_check_parallel(&p8)));
                two += t.elapsed().as_secs_f64();
                let t = std::time::Instant::now();
                std::hint::black_box(pb::pairing_check(&p8));
                one += t.elapsed().as_secs_f64();
            }
            println!("bls par8: {:.1} us per call entering the pool, {:.1} us on this thread", two * 1e6 / iters as f64, one * 1e6 / iters as f64);
            return;
        }
        for _ in 0..iters {
            match what {
                "ml" => drop(std::hint::black_box(pb::multi_miller_loop(&pairs[..1]))),
                "fe" => drop(std::hint::black_box(pb::final_exponentiation(&f))),
                _ => drop(std::hint::black_box(pb::pairing_check(&pairs))),
            }
        }
    } else {
        let pairs: Vec<(bn::G1Affine, bn::G2Affine)> = sample_points::<bn::G1Config>(&mut rng, 2).into_iter().zip(sample_points::<bn::G2Config>(&mut rng, 2)).collect();
        let f = pn::multi_miller_loop(&pairs[..1]);
        if let Some(n) = what.strip_prefix("check").and_then(|n| n.parse::<usize>().ok()) {
            if let Some(k) = std::env::var("STEPS").ok().and_then(|v| v.parse().ok()) {
                zkforge_pairing::config::set_lane_steps_min_pairs(k);
            }
            let pn8: Vec<(bn::G1Affine, bn::G2Affine)> = sample_points::<bn::G1Config>(&mut rng, n).into_iter().zip(sample_points::<bn::G2Config>(&mut rng, n)).collect();
            let t = std::time::Instant::now();
            for _ in 0..iters {
                std::hint::black_box(pn::pairing_check(&pn8));
            }
            println!("bn check{n}: {:.1} us per call", t.elapsed().as_secs_f64() * 1e6 / iters as f64);
            return;
        }
        for _ in 0..iters {
            match what {
                "ml" => drop(std::hint::black_box(pn::multi_miller_loop(&pairs[..1]))),
                "fe" => drop(std::hint::black_box(pn::final_exponentiation(&f))),
                _ => drop(std::hint::black_box(pn::pairing_check(&pairs))),
            }
        }
    }
    println!("{curve} {what}: {:.1} us per call", t.elapsed().as_secs_f64() * 1e6 / iters as f64);
}
