#!/usr/bin/env python3
"""Curve records and the constants derived from them (issue 16: curves as data).

A record holds only what defines a curve: the family and seed, the moduli, the tower
non-residue, the curve coefficient b and the twist type, the generators, the multiplicative
generators the FFTs use, and the hash-to-curve choices of RFC 9380 (map, Z, isogenous curve).
Everything else is derived here and checked before it is written:
- Frobenius coefficients of Fp2 = Fp[u]/(u^2+1), Fp6 = Fp2[v]/(v^3-xi), Fp12 = Fp6[w]/(w^2-v):
  gamma6_1[k] = xi^((p^k-1)/3), gamma6_2[k] = xi^(2(p^k-1)/3), gamma12[k] = xi^((p^k-1)/6);
- GLV/GLS: a cube root of unity beta with phi(x, y) = (beta x, y) acting as the expected
  eigenvalue on G1 (BLS12: -z^2, BN: 36u^3+18u^2+6u+1), the psi coefficients on G2
  (psi(P) = [z]P for BLS12, [6u^2]P for BN), checked by scalar multiplication of the
  generators in the small affine reference arithmetic below; the BN G1 lattice basis
  (extended Euclid, GLV paper section 4) and its Babai rounding constants; Barrett constants
  floor(2^k / d) for the decompositions;
- RFC 9380 helpers: SSWU (-B/A, B/(ZA), sqrt(-Z), sqrt(-N(Z))) for the isogenous curves of
  section 8.8, SVDW c1..c4 (section 6.6.1 / appendix F.1).

`scripts/gen_all.py` turns these into Rust files; `python3 scripts/gen_all.py --check` (run by
CI and by the facade crate's `tests/generated.rs`) fails when a file differs.
A new curve of these families is a new record here plus a thin module per crate.
"""
import math
import random

# ------------------------------------------------------------------------------- the records

RECORDS = {
    "bn254": dict(
        name="BN254",
        family="BN",
        seed=4965661367192848881,
        p=0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47,
        r=0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001,
        fp_generator=3,
        fr_generator=5,
        xi=(9, 1),
        b=3,
        twist="D",  # G2: y^2 = x^3 + b / xi
        g1=(1, 2),
        g2=((0x1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed,
             0x198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2),
            (0x12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa,
             0x090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b)),
        h2c_g1=dict(map="svdw", z=1),
    ),
    "bls12_381": dict(
        name="BLS12-381",
        family="BLS12",
        seed=-0xd201000000010000,
        p=0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab,
        r=0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001,
        fp_generator=2,
        fr_generator=7,
        xi=(1, 1),
        b=4,
        twist="M",  # G2: y^2 = x^3 + b xi
        g1=(0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb,
            0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1),
        g2=((0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8,
             0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e),
            (0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801,
             0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be)),
        # RFC 9380 section 8.8.1: SSWU on the 11-isogenous E1' (A', B' of appendix E.2), Z = 11
        h2c_g1=dict(map="sswu", z=11,
                    iso_a=0x144698a3b8e9433d693a02c96d4982b0ea985383ee66a8d8e8981aefd881ac98936f8da0e0f97f5cf428082d584c1d,
                    iso_b=0x12e2908d11688030018b12e8753eee3b2016c1f0f24f4070a0b9c14fcef35ef55a23215a316ceaa5d1cc48e98e172be0),
        # section 8.8.2: SSWU on the 3-isogenous E2': A' = 240 u, B' = 1012 (1 + u), Z = -(2 + u)
        h2c_g2=dict(map="sswu", z=(-2, -1), iso_a=(0, 240), iso_b=(1012, 1012)),
    ),
}

# ------------------------------------------------------------- small reference arithmetic


def inv(a, p):
    return pow(a, p - 2, p)


class Fq:
    def __init__(s, a, p): s.a = a % p; s.p = p
    def __add__(s, o): return Fq(s.a + o.a, s.p)
    def __sub__(s, o): return Fq(s.a - o.a, s.p)
    def __mul__(s, o): return Fq(s.a * (o if isinstance(o, int) else o.a), s.p)
    def __neg__(s): return Fq(-s.a, s.p)
    def __eq__(s, o): return s.a == o.a
    def inv(s): return Fq(inv(s.a, s.p), s.p)
    def iszero(s): return s.a == 0


class F2:
    def __init__(s, a, b, p): s.a = a % p; s.b = b % p; s.p = p
    def __add__(s, o): return F2(s.a + o.a, s.b + o.b, s.p)
    def __sub__(s, o): return F2(s.a - o.a, s.b - o.b, s.p)
    def __mul__(s, o):
        if isinstance(o, int): return F2(s.a * o, s.b * o, s.p)
        return F2(s.a * o.a - s.b * o.b, s.a * o.b + s.b * o.a, s.p)
    def __neg__(s): return F2(-s.a, -s.b, s.p)
    def __eq__(s, o): return s.a == o.a and s.b == o.b
    def inv(s):
        n = inv((s.a * s.a + s.b * s.b) % s.p, s.p)
        return F2(s.a * n, -s.b * n, s.p)
    def conj(s): return F2(s.a, -s.b, s.p)
    def pow(s, e):
        r = F2(1, 0, s.p); b = s
        while e:
            if e & 1: r = r * b
            b = b * b; e >>= 1
        return r
    def iszero(s): return s.a == 0 and s.b == 0


def ec_add(P, Q):
    if P is None: return Q
    if Q is None: return P
    x1, y1 = P; x2, y2 = Q
    if x1 == x2:
        if (y1 + y2).iszero(): return None
        l = (x1 * x1 * 3) * (y1 * 2).inv()
    else:
        l = (y2 - y1) * (x2 - x1).inv()
    x3 = l * l - x1 - x2
    return (x3, l * (x1 - x3) - y1)


def ec_mul(P, k):
    if k < 0: k = -k; P = (P[0], -P[1])
    R = None
    for bit in bin(k)[2:]:
        R = ec_add(R, R)
        if bit == '1': R = ec_add(R, P)
    return R


def sqrt3mod4(a, p):
    assert p % 4 == 3
    x = pow(a, (p + 1) // 4, p)
    assert x * x % p == a % p, "not a square"
    return x


def cube_root_of_unity(p):
    g = 2
    while pow(g, (p - 1) // 3, p) == 1: g += 1
    return pow(g, (p - 1) // 3, p)

# ------------------------------------------------------------------------------ derivations


def derive(rec):
    """Every constant the Rust crates use, as Python integers (pairs for Fp2), after checks."""
    p, r, u = rec["p"], rec["r"], rec["seed"]
    d = dict(rec)
    if rec["family"] == "BN":
        assert p == 36 * u**4 + 36 * u**3 + 24 * u**2 + 6 * u + 1, "BN p(u)"
        assert r == 36 * u**4 + 36 * u**3 + 18 * u**2 + 6 * u + 1, "BN r(u)"
    else:
        assert r == u**4 - u**2 + 1, "BLS12 r(z)"
        assert p == (u - 1)**2 * r // 3 + u and ((u - 1)**2 * r) % 3 == 0, "BLS12 p(z)"
    # spare top bits the Montgomery code relies on (checked again by const assertions in Rust)
    assert p.bit_length() % 64 != 0 and r.bit_length() % 64 != 0
    for g, m in ((rec["fp_generator"], p), (rec["fr_generator"], r)):
        assert pow(g, (m - 1) // 2, m) == m - 1, "multiplicative generator must be a non-residue"
    xi = F2(*rec["xi"], p)
    assert xi.pow((p * p - 1) // 2) != F2(1, 0, p) and xi.pow((p * p - 1) // 3) != F2(1, 0, p), \
        "xi must be neither a square nor a cube in Fp2"

    # Frobenius tables
    d["frob6_c1"] = [xi.pow((p**k - 1) // 3) for k in range(6)]
    d["frob6_c2"] = [xi.pow(2 * (p**k - 1) // 3) for k in range(6)]
    d["frob12_c1"] = [xi.pow((p**k - 1) // 6) for k in range(12)]

    # the groups
    G1 = (Fq(rec["g1"][0], p), Fq(rec["g1"][1], p))
    b2 = xi.inv() * rec["b"] if rec["twist"] == "D" else xi * rec["b"]
    G2 = (F2(*rec["g2"][0], p), F2(*rec["g2"][1], p))
    assert G1[1] * G1[1] == G1[0] * G1[0] * G1[0] + Fq(rec["b"], p), "G1 generator off the curve"
    assert G2[1] * G2[1] == G2[0] * G2[0] * G2[0] + b2, "G2 generator off the curve"
    assert ec_mul(G1, r) is None and ec_mul(G2, r) is None, "generators must have order r"
    d["g2_b"] = b2

    w = cube_root_of_unity(p)
    if rec["family"] == "BN":
        lam = (36 * u**3 + 18 * u**2 + 6 * u + 1) % r
        assert (lam * lam + lam + 1) % r == 0
        cx = xi.pow((p - 1) // 3); cy = xi.pow((p - 1) // 2)
        e2 = 6 * u * u
        assert (p - e2) % r == 0
    else:
        lam = (-u * u) % r
        cx = xi.pow((p - 1) // 3).inv(); cy = xi.pow((p - 1) // 2).inv()
        e2 = u % r
    betas = [b for b in (w, w * w % p) if (G1[0] * b, G1[1]) == ec_mul(G1, lam)]
    assert len(betas) == 1
    d["beta"] = betas[0]
    psi = lambda P: (P[0].conj() * cx, P[1].conj() * cy)
    assert psi(G2) == ec_mul(G2, e2), "psi eigenvalue"
    d["psi_x"], d["psi_y"] = cx, cy

    if rec["family"] == "BN":
        d["six_u2"] = e2
        d["mu_six_u2"] = (1 << 256) // e2
        d["g2_cofactor"] = 2 * p - r
        # G1 GLV lattice: extended Euclid on (r, lambda), stop at the first remainder < sqrt(r)
        s0, t0, r0 = 1, 0, r; s1, t1, r1 = 0, 1, lam
        rows = [(r0, t0), (r1, t1)]
        while r1:
            q = r0 // r1; r0, r1 = r1, r0 - q * r1; s0, s1 = s1, s0 - q * s1; t0, t1 = t1, t0 - q * t1
            rows.append((r1, t1))
        sq = math.isqrt(r)
        l = next(i for i, (ri, _) in enumerate(rows) if ri < sq)
        a1, b1 = rows[l][0], -rows[l][1]
        a2, b2_ = min([(rows[l - 1][0], -rows[l - 1][1]), (rows[l + 1][0], -rows[l + 1][1])],
                      key=lambda v: v[0]**2 + v[1]**2)
        assert (a1 + b1 * lam) % r == 0 and (a2 + b2_ * lam) % r == 0 and a1 * b2_ - a2 * b1 == r
        assert a1 > 0 and b1 < 0 and a2 > 0 and b2_ > 0, "the Rust decomposition assumes these signs"
        g1 = (b2_ << 256) // r; g2 = ((-b1) << 256) // r
        rng = random.Random(1)
        for i in range(2000):
            k = [0, 1, r - 1][i] if i < 3 else rng.randrange(r)
            c1 = (k * g1) >> 256; c2 = (k * g2) >> 256
            k1 = k - c1 * a1 - c2 * a2; k2 = -c1 * b1 - c2 * b2_
            assert (k1 + k2 * lam - k) % r == 0 and abs(k1) < 2**127 and abs(k2) < 2**127
        d.update(glv_a1=a1, glv_b1_abs=-b1, glv_a2=a2, glv_b2=b2_, glv_g1=g1, glv_g2=g2)
        # SVDW (RFC 9380 section 6.6.1) with A = 0
        h = rec["h2c_g1"]; Z, A, B = h["z"], 0, rec["b"]
        g = lambda x: (x**3 + A * x + B) % p
        c3 = sqrt3mod4((-g(Z) * (3 * Z * Z + 4 * A)) % p, p)
        if c3 & 1: c3 = p - c3
        d["svdw"] = dict(z=Z % p, c1=g(Z), c2=(-Z * inv(2, p)) % p, c3=c3,
                         c4=(-4 * g(Z) * inv(3 * Z * Z + 4 * A, p)) % p)
    else:
        z_abs = -u
        d["z_abs"] = z_abs
        d["mu_t"] = (1 << 256) // (u * u)
        d["mu_z"] = (1 << 192) // z_abs
        d["psi2_x"] = (cx.conj() * cx).a
        assert (cx.conj() * cx).b == 0
        h = rec["h2c_g1"]; A, B, Z = h["iso_a"], h["iso_b"], h["z"]
        d["sswu_g1"] = dict(iso_a=A, iso_b=B, z=Z, neg_b_over_a=(-B * inv(A, p)) % p,
                            b_over_za=(B * inv(Z * A, p)) % p, sqrt_minus_z=sqrt3mod4(-Z % p, p))
        h = rec["h2c_g2"]
        A2, B2, Z2 = F2(*h["iso_a"], p), F2(*h["iso_b"], p), F2(*h["z"], p)
        nz = (Z2.a ** 2 + Z2.b ** 2) % p
        assert pow(nz, (p - 1) // 2, p) == p - 1, "N(Z) must be a non-square"
        d["sswu_g2"] = dict(iso_a=A2, iso_b=B2, z=Z2, neg_b_over_a=-B2 * A2.inv(),
                            b_over_za=B2 * (Z2 * A2).inv(), norm_z=nz,
                            sqrt_minus_norm_z=sqrt3mod4(-nz % p, p))
    return d

# ----------------------------------------------------------------------------- Rust output


def limbs(x, n):
    assert 0 <= x < 1 << (64 * n)
    return "[" + ", ".join("0x%016x" % ((x >> (64 * i)) & (2**64 - 1)) for i in range(n)) + "]"


def nlimbs(p):
    return (p.bit_length() + 63) // 64


class Rust:
    """Formats field constants of one curve."""

    def __init__(self, p):
        self.w = nlimbs(p) * 16

    def fp(self, x):
        v = x.a if isinstance(x, Fq) else x
        return f'Fp::from_hex_const("{v:0{self.w}x}")'

    def fp2(self, x, indent="    "):
        a, b = (x.a, x.b) if isinstance(x, F2) else x
        return (f"Fp2::from_hex_const(\n{indent}    \"{a:0{self.w}x}\",\n"
                f"{indent}    \"{b:0{self.w}x}\",\n{indent})")


def header(what, record):
    return (f"//! {what}\n//!\n"
            f"//! GENERATED by `scripts/gen_all.py` from the `{record}` record{'s' if ' and ' in record else ''} in `scripts/curves.py`:\n"
            "//! do not edit. CI reruns the generator (`python3 scripts/gen_all.py --check`, also the\n"
            "//! facade crate's `tests/generated.rs`) and fails on any difference.\n\n")


def field_file(key):
    d = derive(RECORDS[key])
    p, r = d["p"], d["r"]
    R = Rust(p)
    out = [header(f"{d['name']} field constants: moduli, multiplicative generators, the tower "
                  "non-residue and the Frobenius tables.", key)]
    out.append("use super::{Fp, Fp2};\n\n")
    out.append(f"/// The base-field modulus p, little-endian limbs.\n"
               f"pub(super) const FP_MODULUS: [u64; {nlimbs(p)}] = {limbs(p, nlimbs(p))};\n")
    out.append(f"/// A quadratic non-residue generating Fp^* (used for square roots).\n"
               f"pub(super) const FP_GENERATOR: u64 = {d['fp_generator']};\n")
    out.append(f"/// The scalar-field modulus r (the group order), little-endian limbs.\n"
               f"pub(super) const FR_MODULUS: [u64; {nlimbs(r)}] = {limbs(r, nlimbs(r))};\n")
    out.append(f"/// A quadratic non-residue generating Fr^* (roots of unity for the FFTs).\n"
               f"pub(super) const FR_GENERATOR: u64 = {d['fr_generator']};\n")
    xi0, xi1 = d["xi"]
    out.append(f"/// xi = {xi0} + {xi1} u, the non-residue of Fp6 = Fp2[v]/(v^3 - xi).\n"
               f"pub(super) const XI: Fp2 = Fp2::new(Fp::from_u64_const({xi0}), Fp::from_u64_const({xi1}));\n")
    for name, doc, table in (("FROB6_C1", "xi^((p^k - 1) / 3)", d["frob6_c1"]),
                             ("FROB6_C2", "xi^(2 (p^k - 1) / 3)", d["frob6_c2"]),
                             ("FROB12_C1", "xi^((p^k - 1) / 6)", d["frob12_c1"])):
        out.append(f"/// {doc} for k = 0..{len(table) - 1}.\npub(super) const {name}: [Fp2; {len(table)}] = [\n")
        for x in table:
            out.append(f"    {R.fp2(x, '    ')},\n")
        out.append("];\n")
    return "".join(out)


def curve_file(key):
    d = derive(RECORDS[key])
    p = d["p"]
    R = Rust(p)
    out = [header(f"{d['name']} group constants: coefficients, generators, endomorphisms and "
                  "scalar-decomposition constants.", key)]
    out.append("use zkforge_field::" + key + "::{Fp, Fp2};\n\n")

    def const(doc, vis, name, ty, val):
        out.append(f"/// {doc}\n{vis}const {name}: {ty} = {val};\n")

    if d["family"] == "BN":
        const("The BN seed u.", "pub ", "U", "u64", str(d["seed"]))
        const("6u^2, the eigenvalue of psi on G2.", "pub(crate) ", "SIX_U2", "u128", "0x%x" % d["six_u2"])
        const("floor(2^256 / 6u^2).", "pub(crate) ", "MU_SIX_U2", "[u64; 3]", limbs(d["mu_six_u2"], 3))
        const("G2 cofactor 2p - r (little-endian limbs).", "pub(crate) ", "G2_COFACTOR", "[u64; 4]",
              limbs(d["g2_cofactor"], 4))
    else:
        const("|z|, the absolute value of the BLS12 seed (z is negative).", "pub ", "Z_ABS", "u64",
              "0x%x" % d["z_abs"])
        const("floor(2^256 / z^2).", "pub(crate) ", "MU_T", "[u64; 3]", limbs(d["mu_t"], 3))
        const("floor(2^192 / |z|), for dividing values below 2^128 by |z|.", "pub(crate) ", "MU_Z",
              "[u64; 3]", limbs(d["mu_z"], 3))
    const(f"The G1 coefficient b = {d['b']}.", "pub(crate) ", "G1_B", "Fp", f"Fp::from_u64_const({d['b']})")
    const("The G1 generator (x, y).", "pub(crate) ", "G1_GENERATOR", "(Fp, Fp)",
          f"(\n    {R.fp(d['g1'][0])},\n    {R.fp(d['g1'][1])},\n)")
    twist = "b / xi (a D-twist)" if d["twist"] == "D" else "b xi (an M-twist)"
    const(f"The G2 coefficient {twist}.", "pub(crate) ", "G2_B", "Fp2", R.fp2(d["g2_b"], ""))
    const("The G2 generator (x, y), each c0 + c1 u.", "pub(crate) ", "G2_GENERATOR", "(Fp2, Fp2)",
          f"(\n    {R.fp2(d['g2'][0], '    ')},\n    {R.fp2(d['g2'][1], '    ')},\n)")
    eig = "lambda = 36u^3 + 18u^2 + 6u + 1" if d["family"] == "BN" else "-z^2"
    const(f"A primitive cube root of unity in Fp with phi(P) = [{eig}] P on G1.", "pub ", "BETA", "Fp",
          R.fp(d["beta"]))
    if d["family"] == "BN":
        const("GLV lattice basis (a1, b1), (a2, b2) with a + b lambda = 0 mod r: a1.", "pub(crate) ",
              "A1", "[u64; 4]", limbs(d["glv_a1"], 4))
        const("-b1 (b1 < 0).", "pub(crate) ", "B1_ABS", "[u64; 4]", limbs(d["glv_b1_abs"], 4))
        const("a2.", "pub(crate) ", "A2", "[u64; 4]", limbs(d["glv_a2"], 4))
        const("b2.", "pub(crate) ", "B2", "[u64; 4]", limbs(d["glv_b2"], 4))
        const("Babai rounding constant floor(2^256 b2 / r).", "pub(crate) ", "G1_ROUND", "[u64; 2]",
              limbs(d["glv_g1"], 2))
        const("Babai rounding constant floor(2^256 (-b1) / r).", "pub(crate) ", "G2_ROUND", "[u64; 3]",
              limbs(d["glv_g2"], 3))
        const("psi x-coefficient xi^((p-1)/3).", "pub(crate) ", "PSI_X", "Fp2", R.fp2(d["psi_x"], ""))
        const("psi y-coefficient xi^((p-1)/2).", "pub(crate) ", "PSI_Y", "Fp2", R.fp2(d["psi_y"], ""))
    else:
        const("psi x-coefficient 1 / xi^((p-1)/3).", "pub(crate) ", "PSI_X", "Fp2", R.fp2(d["psi_x"], ""))
        const("psi y-coefficient 1 / xi^((p-1)/2).", "pub(crate) ", "PSI_Y", "Fp2", R.fp2(d["psi_y"], ""))
        const("psi^2(x, y) = (PSI2_X x, -y).", "pub(crate) ", "PSI2_X", "Fp", R.fp(d["psi2_x"]))
    return "".join(out)


def h2c_file():
    out = [header("RFC 9380 map constants: SSWU helpers for the BLS12-381 isogenous curves, SVDW "
                  "constants for BN254 G1.", "bls12_381` and `bn254")]
    d = derive(RECORDS["bls12_381"])
    R = Rust(d["p"])
    s = d["sswu_g1"]
    out.append("/// BLS12-381 G1: SSWU on the 11-isogenous curve E1' (RFC 9380 section 8.8.1).\n"
               "pub(crate) mod bls12_381_g1 {\n    use zkforge_field::bls12_381::Fp;\n")
    for name, doc, v in (("ISO_A", "A' of the isogenous curve.", s["iso_a"]),
                         ("ISO_B", "B' of the isogenous curve.", s["iso_b"]),
                         ("SSWU_Z", f"The SSWU constant Z = {s['z']}.", s["z"] % d["p"]),
                         ("NEG_B_OVER_A", "-B'/A'.", s["neg_b_over_a"]),
                         ("B_OVER_ZA", "B'/(Z A').", s["b_over_za"]),
                         ("SQRT_MINUS_Z", "sqrt(-Z) (either root; signs are fixed by sgn0 afterwards).",
                          s["sqrt_minus_z"])):
        out.append(f"    /// {doc}\n    pub(crate) const {name}: Fp = {R.fp(v)};\n")
    out.append("}\n\n")
    s = d["sswu_g2"]
    out.append("/// BLS12-381 G2: SSWU on the 3-isogenous curve E2' (RFC 9380 section 8.8.2).\n"
               "pub(crate) mod bls12_381_g2 {\n    use zkforge_field::bls12_381::{Fp, Fp2};\n")
    for name, doc, v in (("ISO_A", "A' = 240 u.", s["iso_a"]),
                         ("ISO_B", "B' = 1012 (1 + u).", s["iso_b"]),
                         ("SSWU_Z", "Z = -(2 + u).", s["z"]),
                         ("NEG_B_OVER_A", "-B'/A'.", s["neg_b_over_a"]),
                         ("B_OVER_ZA", "B'/(Z A').", s["b_over_za"])):
        out.append(f"    /// {doc}\n    pub(crate) const {name}: Fp2 = {R.fp2(v, '    ')};\n")
    out.append(f"    /// N(Z) = {s['norm_z']} (a non-square of Fp, as Z is a non-square of Fp2).\n"
               f"    pub(crate) const NORM_Z: Fp = Fp::from_u64_const({s['norm_z']});\n")
    out.append(f"    /// sqrt(-N(Z)) in Fp.\n    pub(crate) const SQRT_MINUS_NORM_Z: Fp = "
               f"{R.fp(s['sqrt_minus_norm_z'])};\n")
    out.append("}\n\n")
    d = derive(RECORDS["bn254"])
    R = Rust(d["p"])
    s = d["svdw"]
    out.append("/// BN254 G1: Shallue-van de Woestijne (RFC 9380 section 6.6.1, appendix F.1), A = 0.\n"
               "pub(crate) mod bn254_g1 {\n    use zkforge_field::bn254::Fp;\n")
    for name, doc in (("z", f"Z = {d['h2c_g1']['z']} (the first Z of the appendix H.1 search)."),
                      ("c1", "c1 = g(Z)."), ("c2", "c2 = -Z / 2."),
                      ("c3", "c3 = sqrt(-g(Z) (3 Z^2 + 4A)) with sgn0(c3) = 0."),
                      ("c4", "c4 = -4 g(Z) / (3 Z^2 + 4A).")):
        out.append(f"    /// {doc}\n    pub(crate) const {name.upper()}: Fp = {R.fp(s[name])};\n")
    out.append("}\n")
    return "".join(out)


FILES = {
    "crates/zkforge-field/src/bn254/generated.rs": lambda: field_file("bn254"),
    "crates/zkforge-field/src/bls12_381/generated.rs": lambda: field_file("bls12_381"),
    "crates/zkforge-curve/src/bn254/generated.rs": lambda: curve_file("bn254"),
    "crates/zkforge-curve/src/bls12_381/generated.rs": lambda: curve_file("bls12_381"),
    "crates/zkforge-curve/src/hash_to_curve/generated.rs": h2c_file,
}
