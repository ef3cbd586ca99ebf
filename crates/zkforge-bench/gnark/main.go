// gnarkpeer: gnark-crypto as a peer of `zkforge bench`, driven over stdin/stdout so its rows
// are timed in the same run, interleaved with ours (crates/zkforge-bench/src/gnark.rs).
//
// Protocol, one line per command and one line per answer ("ok ..." or "err <message>"):
//
//	load <id> <kind> <file>   read the inputs of case <id> from <file>; answer the output of
//	                          one run as hex (the bench checks it against zkforge's)
//	time <id> <iters>         run case <id> <iters> times; answer the elapsed nanoseconds
//	version                   answer the gnark-crypto module version
//
// Kinds and input files (big-endian field elements, canonical, as zkforge writes them):
//
//	bn_pairing_check  n pairs of G1 (x, y: 2x32 bytes) and G2 (x.c0, x.c1, y.c0, y.c1:
//	                  4x32 bytes); times PairingCheck; answers Pair(P, Q) (12x32 bytes,
//	                  c0.b0.a0 first, our structural order)
//	bn_miller_loop    one pair; times MillerLoop; answers FinalExponentiation(MillerLoop)
//	bn_final_exp      one pair; times FinalExponentiation of MillerLoop's output; answers it
//	bn_msm, bls_msm   n points (x, y) then n 32-byte scalars; times G1Jac.MultiExp with
//	                  NbTasks = 1; answers the affine result (x, y; empty for the identity)
//	bn_fp_mul, bn_fp2_mul, bn_fp12_mul
//	                  x then y (1, 2 or 12 elements each, structural order); times one step
//	                  of the latency chain x <- x * y; answers x * y of the inputs
//	bn_fp2_square, bn_fp2_mul_by_nonresidue
//	                  x (2 elements); times x <- x^2 or x <- x (9 + u); answers it of the input
//	bn_fp12_square, bn_fp12_cyclotomic_square
//	                  x (12 elements; cyclotomic for the second); times x <- x^2 (E12.Square,
//	                  E12.CyclotomicSquare); answers x^2 of the input
//
// Run with GOMAXPROCS=1 (the bench sets it): one thread on both sides.
package main

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	blsfp "github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
	blsfr "github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	bn "github.com/consensys/gnark-crypto/ecc/bn254"
	bnfp "github.com/consensys/gnark-crypto/ecc/bn254/fp"
	bnfr "github.com/consensys/gnark-crypto/ecc/bn254/fr"
)

// A loaded case: run performs the timed operation once.
type job struct {
	run func()
}

var jobs = map[string]job{}

func bnFp(b []byte) (bnfp.Element, error) {
	var e bnfp.Element
	return e, e.SetBytesCanonical(b)
}

func blsFp(b []byte) (blsfp.Element, error) {
	var e blsfp.Element
	return e, e.SetBytesCanonical(b)
}

func bnG1s(data []byte, n int) ([]bn.G1Affine, error) {
	out := make([]bn.G1Affine, n)
	for i := range out {
		var err error
		if out[i].X, err = bnFp(data[64*i : 64*i+32]); err != nil {
			return nil, err
		}
		if out[i].Y, err = bnFp(data[64*i+32 : 64*i+64]); err != nil {
			return nil, err
		}
		if !out[i].IsOnCurve() {
			return nil, fmt.Errorf("G1 point %d not on the curve", i)
		}
	}
	return out, nil
}

// pairs: n records of 64 bytes of G1 then 128 bytes of G2
func bnPairs(data []byte) ([]bn.G1Affine, []bn.G2Affine, error) {
	if len(data)%192 != 0 {
		return nil, nil, fmt.Errorf("pair file length %d is not a multiple of 192", len(data))
	}
	n := len(data) / 192
	ps := make([]bn.G1Affine, n)
	qs := make([]bn.G2Affine, n)
	for i := 0; i < n; i++ {
		r := data[192*i:]
		g1, err := bnG1s(r[:64], 1)
		if err != nil {
			return nil, nil, err
		}
		ps[i] = g1[0]
		var c [4]bnfp.Element
		for k := 0; k < 4; k++ {
			if c[k], err = bnFp(r[64+32*k : 96+32*k]); err != nil {
				return nil, nil, err
			}
		}
		qs[i].X.A0, qs[i].X.A1, qs[i].Y.A0, qs[i].Y.A1 = c[0], c[1], c[2], c[3]
		if !qs[i].IsOnCurve() || !qs[i].IsInSubGroup() {
			return nil, nil, fmt.Errorf("G2 point %d not in G2", i)
		}
	}
	return ps, qs, nil
}

// gtHex: the 12 coefficients in structural order (c0.b0.a0, c0.b0.a1, c0.b1.a0, ...).
func gtHex(z *bn.GT) string {
	return fpHex(z.C0.B0.A0, z.C0.B0.A1, z.C0.B1.A0, z.C0.B1.A1, z.C0.B2.A0, z.C0.B2.A1,
		z.C1.B0.A0, z.C1.B0.A1, z.C1.B1.A0, z.C1.B1.A1, z.C1.B2.A0, z.C1.B2.A1)
}

func load(id, kind, path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	switch kind {
	case "bn_pairing_check":
		ps, qs, err := bnPairs(data)
		if err != nil {
			return "", err
		}
		gt, err := bn.Pair(ps, qs)
		if err != nil {
			return "", err
		}
		jobs[id] = job{func() {
			if _, err := bn.PairingCheck(ps, qs); err != nil {
				panic(err)
			}
		}}
		return gtHex(&gt), nil
	case "bn_miller_loop", "bn_final_exp":
		ps, qs, err := bnPairs(data)
		if err != nil {
			return "", err
		}
		ml, err := bn.MillerLoop(ps, qs)
		if err != nil {
			return "", err
		}
		fe := bn.FinalExponentiation(&ml)
		if kind == "bn_miller_loop" {
			jobs[id] = job{func() {
				if _, err := bn.MillerLoop(ps, qs); err != nil {
					panic(err)
				}
			}}
		} else {
			jobs[id] = job{func() { _ = bn.FinalExponentiation(&ml) }}
		}
		return gtHex(&fe), nil
	case "bn_msm":
		n := len(data) / 96
		if len(data) != 96*n || n == 0 {
			return "", fmt.Errorf("msm file length %d is not n * 96", len(data))
		}
		pts, err := bnG1s(data[:64*n], n)
		if err != nil {
			return "", err
		}
		ks := make([]bnfr.Element, n)
		for i := range ks {
			if err := ks[i].SetBytesCanonical(data[64*n+32*i : 64*n+32*i+32]); err != nil {
				return "", err
			}
		}
		cfg := ecc.MultiExpConfig{NbTasks: 1}
		var r bn.G1Jac
		if _, err := r.MultiExp(pts, ks, cfg); err != nil {
			return "", err
		}
		jobs[id] = job{func() {
			var r bn.G1Jac
			if _, err := r.MultiExp(pts, ks, cfg); err != nil {
				panic(err)
			}
		}}
		var a bn.G1Affine
		a.FromJacobian(&r)
		if a.IsInfinity() {
			return "", nil
		}
		x, y := a.X.Bytes(), a.Y.Bytes()
		return hex.EncodeToString(x[:]) + hex.EncodeToString(y[:]), nil
	case "bls_msm":
		n := len(data) / 128
		if len(data) != 128*n || n == 0 {
			return "", fmt.Errorf("msm file length %d is not n * 128", len(data))
		}
		pts := make([]bls.G1Affine, n)
		for i := range pts {
			var err error
			if pts[i].X, err = blsFp(data[96*i : 96*i+48]); err != nil {
				return "", err
			}
			if pts[i].Y, err = blsFp(data[96*i+48 : 96*i+96]); err != nil {
				return "", err
			}
			if !pts[i].IsOnCurve() {
				return "", fmt.Errorf("G1 point %d not on the curve", i)
			}
		}
		ks := make([]blsfr.Element, n)
		for i := range ks {
			if err := ks[i].SetBytesCanonical(data[96*n+32*i : 96*n+32*i+32]); err != nil {
				return "", err
			}
		}
		cfg := ecc.MultiExpConfig{NbTasks: 1}
		var r bls.G1Jac
		if _, err := r.MultiExp(pts, ks, cfg); err != nil {
			return "", err
		}
		jobs[id] = job{func() {
			var r bls.G1Jac
			if _, err := r.MultiExp(pts, ks, cfg); err != nil {
				panic(err)
			}
		}}
		var a bls.G1Affine
		a.FromJacobian(&r)
		if a.IsInfinity() {
			return "", nil
		}
		x, y := a.X.Bytes(), a.Y.Bytes()
		return hex.EncodeToString(x[:]) + hex.EncodeToString(y[:]), nil
	}
	if r, ok, err := loadTower(id, kind, data); ok {
		return r, err
	}
	return "", fmt.Errorf("unknown kind %q", kind)
}

// bnElems: the file as canonical 32-byte big-endian BN254 Fp elements.
func bnElems(data []byte, want int) ([]bnfp.Element, error) {
	if len(data) != 32*want {
		return nil, fmt.Errorf("file length %d is not %d elements of 32 bytes", len(data), want)
	}
	out := make([]bnfp.Element, want)
	for i := range out {
		var err error
		if out[i], err = bnFp(data[32*i : 32*i+32]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func bnE12(es []bnfp.Element) bn.GT {
	var z bn.GT
	z.C0.B0.A0, z.C0.B0.A1, z.C0.B1.A0, z.C0.B1.A1, z.C0.B2.A0, z.C0.B2.A1 = es[0], es[1], es[2], es[3], es[4], es[5]
	z.C1.B0.A0, z.C1.B0.A1, z.C1.B1.A0, z.C1.B1.A1, z.C1.B2.A0, z.C1.B2.A1 = es[6], es[7], es[8], es[9], es[10], es[11]
	return z
}

// fpHex: the elements as concatenated 32-byte big-endian hex.
func fpHex(es ...bnfp.Element) string {
	var sb strings.Builder
	for i := range es {
		b := es[i].Bytes()
		sb.WriteString(hex.EncodeToString(b[:]))
	}
	return sb.String()
}

// loadTower: the field and tower latency chains (ok = false for another kind).
func loadTower(id, kind string, data []byte) (string, bool, error) {
	switch kind {
	case "bn_fp_mul":
		es, err := bnElems(data, 2)
		if err != nil {
			return "", true, err
		}
		x, y := es[0], es[1]
		var r bnfp.Element
		r.Mul(&x, &y)
		jobs[id] = job{func() { x.Mul(&x, &y) }}
		return fpHex(r), true, nil
	case "bn_fp2_mul":
		es, err := bnElems(data, 4)
		if err != nil {
			return "", true, err
		}
		// E2 through a G2 point's coordinates (the tower package is internal to gnark-crypto)
		var x, y, r bn.G2Affine
		x.X.A0, x.X.A1, y.X.A0, y.X.A1 = es[0], es[1], es[2], es[3]
		r.X.Mul(&x.X, &y.X)
		jobs[id] = job{func() { x.X.Mul(&x.X, &y.X) }}
		return fpHex(r.X.A0, r.X.A1), true, nil
	case "bn_fp2_square", "bn_fp2_mul_by_nonresidue":
		es, err := bnElems(data, 2)
		if err != nil {
			return "", true, err
		}
		var x, r bn.G2Affine
		x.X.A0, x.X.A1 = es[0], es[1]
		if kind == "bn_fp2_square" {
			r.X.Square(&x.X)
			jobs[id] = job{func() { x.X.Square(&x.X) }}
		} else {
			r.X.MulByNonResidue(&x.X)
			jobs[id] = job{func() { x.X.MulByNonResidue(&x.X) }}
		}
		return fpHex(r.X.A0, r.X.A1), true, nil
	case "bn_fp12_mul":
		es, err := bnElems(data, 24)
		if err != nil {
			return "", true, err
		}
		x, y := bnE12(es[:12]), bnE12(es[12:])
		var r bn.GT
		r.Mul(&x, &y)
		jobs[id] = job{func() { x.Mul(&x, &y) }}
		return gtHex(&r), true, nil
	case "bn_fp12_square", "bn_fp12_cyclotomic_square":
		es, err := bnElems(data, 12)
		if err != nil {
			return "", true, err
		}
		x := bnE12(es)
		var r bn.GT
		if kind == "bn_fp12_square" {
			r.Square(&x)
			jobs[id] = job{func() { x.Square(&x) }}
		} else {
			r.CyclotomicSquare(&x)
			jobs[id] = job{func() { x.CyclotomicSquare(&x) }}
		}
		return gtHex(&r), true, nil
	}
	return "", false, nil
}

func version() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if d.Path == "github.com/consensys/gnark-crypto" {
				return d.Version
			}
		}
	}
	return "unknown"
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	reply := func(s string) {
		fmt.Fprintln(out, s)
		out.Flush()
	}
	for in.Scan() {
		f := strings.Fields(in.Text())
		switch {
		case len(f) == 1 && f[0] == "version":
			reply("ok " + version())
		case len(f) == 4 && f[0] == "load":
			res, err := load(f[1], f[2], f[3])
			if err != nil {
				reply("err " + strings.ReplaceAll(err.Error(), "\n", " "))
			} else {
				reply("ok " + res)
			}
		case len(f) == 3 && f[0] == "time":
			j, ok := jobs[f[1]]
			iters, err := strconv.ParseUint(f[2], 10, 64)
			if !ok || err != nil {
				reply("err unknown case or bad count")
				continue
			}
			start := time.Now()
			for i := uint64(0); i < iters; i++ {
				j.run()
			}
			elapsed := time.Since(start).Nanoseconds()
			// finish, untimed, the collection the batch's garbage started: left running, the
			// Go runtime's background GC workers ran on the other core while the harness timed
			// the next implementation (zkforge's BN254 pairing checks read up to 1.5x slower
			// beside it on a 2-vCPU VM)
			runtime.GC()
			reply("ok " + strconv.FormatInt(elapsed, 10))
		default:
			reply("err bad command")
		}
	}
}
