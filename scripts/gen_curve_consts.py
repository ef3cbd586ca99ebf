#!/usr/bin/env python3
"""Derive and check the curve constants used by crates/zkforge-curve (prints them as hex).

- GLV/GLS: cube roots of unity beta with phi(x, y) = (beta x, y) acting as the expected
  eigenvalue on G1 (BLS12-381: -z^2; BN254: lambda), psi coefficients on G2 (psi(P) = [z]P for
  BLS12-381, [6u^2]P for BN254), psi^2 for BLS12-381, checked by scalar multiplication of the
  generators in a small affine reference implementation below;
- the BN254 G1 GLV lattice basis (extended Euclid, GLV paper section 4) and its Babai rounding
  constants; Barrett constants floor(2^k / d) for the decompositions;
- the BN254 G2 twist b and cofactor; SSWU helper constants (-B/A, B/(ZA), sqrt(-Z), sqrt(-N(Z)))
  for RFC 9380's BLS12-381 maps; the SVDW constants c1..c4 for BN254 G1 with Z = 1 (RFC 9380
  section 6.6.1 / appendix F.1).

Usage: python3 scripts/gen_curve_consts.py
"""
import math, random

def inv(a, p): return pow(a, p - 2, p)

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
        n = inv((s.a * s.a + s.b * s.b) % s.p, s.p); return F2(s.a * n, -s.b * n, s.p)
    def conj(s): return F2(s.a, -s.b, s.p)
    def pow(s, e):
        r = F2(1, 0, s.p); b = s
        while e:
            if e & 1: r = r * b
            b = b * b; e >>= 1
        return r
    def iszero(s): return s.a == 0 and s.b == 0
    def __repr__(s): return "(%x, %x)" % (s.a, s.b)

class Fq:
    def __init__(s, a, p): s.a = a % p; s.p = p
    def __add__(s, o): return Fq(s.a + o.a, s.p)
    def __sub__(s, o): return Fq(s.a - o.a, s.p)
    def __mul__(s, o):
        if isinstance(o, int): return Fq(s.a * o, s.p)
        return Fq(s.a * o.a, s.p)
    def __neg__(s): return Fq(-s.a, s.p)
    def __eq__(s, o): return s.a == o.a
    def inv(s): return Fq(inv(s.a, s.p), s.p)
    def iszero(s): return s.a == 0
    def __repr__(s): return "%x" % s.a

def add(P, Q):
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

def mul(P, k):
    if k < 0: k = -k; P = (P[0], -P[1])
    R = None
    for bit in bin(k)[2:]:
        R = add(R, R)
        if bit == '1': R = add(R, P)
    return R

def limbs(x, n): return "[" + ", ".join("0x%016x" % ((x >> (64 * i)) & (2**64 - 1)) for i in range(n)) + "]"

def sqrt3mod4(a, p):
    r = pow(a, (p + 1) // 4, p); assert r * r % p == a % p; return r

def cube_root_of_unity(p):
    g = 2
    while pow(g, (p - 1) // 3, p) == 1: g += 1
    return pow(g, (p - 1) // 3, p)

# ---------------------------------------------------------------- BLS12-381
p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
z = -0xd201000000010000
G1 = (Fq(0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb, p),
      Fq(0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1, p))
G2 = (F2(0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8,
         0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e, p),
      F2(0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801,
         0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be, p))
assert mul(G1, r) is None and mul(G2, r) is None
t = z * z
w = cube_root_of_unity(p)
for beta in (w, w * w % p):
    if (G1[0] * beta, G1[1]) == mul(G1, (-t) % r):
        print("BLS12-381 G1 BETA (eigenvalue -z^2): %x" % beta)
xi = F2(1, 1, p)
cx = xi.pow((p - 1) // 3).inv(); cy = xi.pow((p - 1) // 2).inv()
psi = lambda P: (P[0].conj() * cx, P[1].conj() * cy)
assert psi(G2) == mul(G2, z % r)
print("BLS12-381 PSI_X", cx, "PSI_Y", cy)
print("BLS12-381 PSI2_X %x" % (cx.conj() * cx).a)
print("BLS12-381 MU_T = floor(2^256 / z^2)", limbs((1 << 256) // t, 3))
print("BLS12-381 MU_Z = floor(2^192 / |z|)", limbs((1 << 192) // -z, 3))
# SSWU helpers (A', B', Z of RFC 9380 section 8.8)
A = 0x144698a3b8e9433d693a02c96d4982b0ea985383ee66a8d8e8981aefd881ac98936f8da0e0f97f5cf428082d584c1d
B = 0x12e2908d11688030018b12e8753eee3b2016c1f0f24f4070a0b9c14fcef35ef55a23215a316ceaa5d1cc48e98e172be0
Z = 11
print("G1 SSWU -B/A %x" % (-B * inv(A, p) % p))
print("G1 SSWU B/(ZA) %x" % (B * inv(Z * A, p) % p))
print("G1 SSWU sqrt(-Z) %x" % sqrt3mod4(-Z % p, p))
A2 = F2(0, 240, p); B2 = F2(1012, 1012, p); Z2 = F2(-2, -1, p)
nz = (Z2.a ** 2 + Z2.b ** 2) % p
assert pow(nz, (p - 1) // 2, p) == p - 1, "N(Z) must be a non-square"
print("G2 SSWU -B/A", -B2 * A2.inv())
print("G2 SSWU B/(ZA)", B2 * (Z2 * A2).inv())
print("G2 SSWU N(Z) = %d, sqrt(-N(Z)) %x" % (nz, sqrt3mod4(-nz % p, p)))

# ---------------------------------------------------------------- BN254
p = 21888242871839275222246405745257275088696311157297823662689037894645226208583
r = 21888242871839275222246405745257275088548364400416034343698204186575808495617
u = 4965661367192848881
G1 = (Fq(1, p), Fq(2, p))
xi = F2(9, 1, p)
b2 = xi.inv() * 3
print("BN254 G2 b", b2)
G2 = (F2(10857046999023057135944570762232829481370756359578518086990519993285655852781,
         11559732032986387107991004021392285783925812861821192530917403151452391805634, p),
      F2(8495653923123431417604973247489272438418190587263600148770280649306958101930,
         4082367875863433681332203403145435568316851327593401208105741076214120093531, p))
assert mul(G2, r) is None
w = cube_root_of_unity(p)
lam = (36 * u**3 + 18 * u**2 + 6 * u + 1) % r
assert (lam * lam + lam + 1) % r == 0
for beta in (w, w * w % p):
    if (G1[0] * beta, G1[1]) == mul(G1, lam):
        print("BN254 G1 BETA %x for lambda %x" % (beta, lam))
cx = xi.pow((p - 1) // 3); cy = xi.pow((p - 1) // 2)
psi = lambda P: (P[0].conj() * cx, P[1].conj() * cy)
e = 6 * u * u
assert psi(G2) == mul(G2, e) and (p - e) % r == 0
print("BN254 PSI_X", cx, "PSI_Y", cy, "eigenvalue 6u^2 = %x" % e)
print("BN254 MU_SIX_U2 = floor(2^256 / 6u^2)", limbs((1 << 256) // e, 3))
print("BN254 G2 cofactor 2p - r", limbs(2 * p - r, 4))
# GLV lattice: extended Euclid on (r, lambda), stop at the first remainder below sqrt(r)
s0, t0, r0 = 1, 0, r; s1, t1, r1 = 0, 1, lam
rows = [(r0, t0), (r1, t1)]
while r1:
    q = r0 // r1; r0, r1 = r1, r0 - q * r1; s0, s1 = s1, s0 - q * s1; t0, t1 = t1, t0 - q * t1
    rows.append((r1, t1))
sq = math.isqrt(r)
l = next(i for i, (ri, _) in enumerate(rows) if ri < sq)
a1, b1 = rows[l][0], -rows[l][1]
a2, b2_ = min([(rows[l - 1][0], -rows[l - 1][1]), (rows[l + 1][0], -rows[l + 1][1])], key=lambda v: v[0]**2 + v[1]**2)
assert (a1 + b1 * lam) % r == 0 and (a2 + b2_ * lam) % r == 0 and a1 * b2_ - a2 * b1 == r
g1 = (b2_ << 256) // r; g2 = ((-b1) << 256) // r
print("BN254 GLV a1 %x b1 %x a2 %x b2 %x" % (a1, b1, a2, b2_))
print("BN254 GLV rounding g1", limbs(g1, 2), "g2", limbs(g2, 3))
worst = 0
for i in range(20000):
    k = [0, 1, r - 1][i] if i < 3 else random.randrange(r)
    c1 = (k * g1) >> 256; c2 = (k * g2) >> 256
    k1 = k - c1 * a1 - c2 * a2; k2 = -c1 * b1 - c2 * b2_
    assert (k1 + k2 * lam - k) % r == 0
    worst = max(worst, abs(k1).bit_length(), abs(k2).bit_length())
print("BN254 GLV parts at most %d bits" % worst)
# SVDW, Z = 1, A = 0, B = 3
Zs, As, Bs = 1, 0, 3
g = lambda x: (x**3 + As * x + Bs) % p
c1 = g(Zs); c2 = (-Zs * inv(2, p)) % p
c3 = sqrt3mod4((-g(Zs) * (3 * Zs * Zs + 4 * As)) % p, p)
if c3 & 1: c3 = p - c3
c4 = (-4 * g(Zs) * inv(3 * Zs * Zs + 4 * As, p)) % p
print("SVDW c1 %x c2 %x c3 %x c4 %x" % (c1, c2, c3, c4))
