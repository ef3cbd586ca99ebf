#!/usr/bin/env python3
"""Generate crates/zkforge-field/src/backend/x86_64_adx.rs.

Montgomery multiplication (CIOS, Koc-Acar-Kaliski 1996, "Analyzing and comparing Montgomery
multiplication algorithms") with two independent carry chains: MULX leaves the flags alone,
ADCX carries through CF (low words) and ADOX through OF (high words), as in Intel's white paper
"New Instructions Supporting Large Integer Arithmetic on Intel Architecture Processors" (2012).

For each outer iteration i:   T += a * b[i]          (one MULX + ADCX + ADOX per limb)
                              m  = T[0] * (-p^-1) mod 2^64
                              T  = (T + m * p) / 2^64 (the division is a register rename)
The N+1 word accumulator T never overflows when p < 2^(64N-1) (a spare top bit); the result
is < 2p before a final conditional subtraction (SUB/SBB then CMOVC) in registers the loop
has freed, so the output is fully reduced.

Usage: python3 scripts/gen_adx.py > crates/zkforge-field/src/backend/x86_64_adx.rs
"""

import re


def gen(n):
    lines = []
    T = [f"{{t{k}}}" for k in range(n + 1)]
    for i in range(n):
        lines.append(f"mov rdx, qword ptr [{{b}} + {8*i}]")
        if i == 0:
            lines.append(f"mulx {T[1]}, {T[0]}, qword ptr [{{a}}]")
            for j in range(1, n):
                lines.append(f"mulx {T[j+1]}, {{lo}}, qword ptr [{{a}} + {8*j}]")
                lines.append(("add" if j == 1 else "adc") + f" {T[j]}, {{lo}}")
            lines.append(f"adc {T[n]}, 0")
        else:
            lines.append("xor {lo:e}, {lo:e}")
            for j in range(n):
                lines.append(f"mulx {{hi}}, {{lo}}, qword ptr [{{a}} + {8*j}]")
                lines.append(f"adcx {T[j]}, {{lo}}")
                lines.append(f"adox {T[j+1]}, {{hi}}")
            lines.append(f"adc {T[n]}, 0")
        # reduction
        lines.append(f"mov rdx, {T[0]}")
        lines.append(f"imul rdx, qword ptr [{{p}} + {8*n}]")
        lines.append("xor {lo:e}, {lo:e}")
        for j in range(n):
            lines.append(f"mulx {{hi}}, {{lo}}, qword ptr [{{p}} + {8*j}]")
            lines.append(f"adcx {T[j]}, {{lo}}")
            lines.append(f"adox {T[j+1]}, {{hi}}")
        lines.append(f"adc {T[n]}, 0")
        # rotate: T[0] is now zero and becomes the new top word
        T = T[1:] + T[:1]
    # final conditional subtraction into registers freed by the loop: S = T - p; if that
    # borrows (T < p) keep T. T[n] (zero), a, b, hi, lo and rdx are free now.
    S = ["{s0}", "{s1}", "{s2}", "{s3}", "{s4}", "{s5}"][:n]
    for k in range(n):
        lines.append(f"mov {S[k]}, {T[k]}")
        lines.append(("sub" if k == 0 else "sbb") + f" {S[k]}, qword ptr [{{p}} + {8*k}]")
    for k in range(n):
        lines.append(f"cmovc {S[k]}, {T[k]}")
    return lines, T

def gen_sum2(n):
    """(a0 b0 + a1 b1) 2^(-64n) mod p, left in [0, 2p): a = (a0, a1) and b = (b0, b1) are
    2n-word arrays. Each row adds both products before one reduction (the lazy sum of
    products of gnark-crypto / constantine): 3n^2 MULX for two products instead of 4n^2.
    Bounds: with p < 2^(64n - 2) and a_k < p, T < 2p + 2 * 2^64 p fits n + 1 words."""
    lines = []
    T = [f"{{t{k}}}" for k in range(n + 1)]
    for i in range(n):
        for k in range(2):
            lines.append(f"mov rdx, qword ptr [{{b}} + {8*(n*k + i)}]")
            if i == 0 and k == 0:
                lines.append(f"mulx {T[1]}, {T[0]}, qword ptr [{{a}}]")
                for j in range(1, n):
                    lines.append(f"mulx {T[j+1]}, {{lo}}, qword ptr [{{a}} + {8*j}]")
                    lines.append(("add" if j == 1 else "adc") + f" {T[j]}, {{lo}}")
                lines.append(f"adc {T[n]}, 0")
            else:
                lines.append("xor {lo:e}, {lo:e}")
                for j in range(n):
                    lines.append(f"mulx {{hi}}, {{lo}}, qword ptr [{{a}} + {8*(n*k + j)}]")
                    lines.append(f"adcx {T[j]}, {{lo}}")
                    lines.append(f"adox {T[j+1]}, {{hi}}")
                lines.append(f"adc {T[n]}, 0")
        lines.append(f"mov rdx, {T[0]}")
        lines.append(f"imul rdx, qword ptr [{{p}} + {8*n}]")
        lines.append("xor {lo:e}, {lo:e}")
        for j in range(n):
            lines.append(f"mulx {{hi}}, {{lo}}, qword ptr [{{p}} + {8*j}]")
            lines.append(f"adcx {T[j]}, {{lo}}")
            lines.append(f"adox {T[j+1]}, {{hi}}")
        lines.append(f"adc {T[n]}, 0")
        T = T[1:] + T[:1]
    return lines, T


def gen_sqr_n(n):
    """k Montgomery squarings in place on the n words at `r` (a counted loop; the count
    register must be at least 1): each round is the CIOS product with a = b = r and no final
    subtraction, so the value stays in [0, 2p) (inputs below 2p and 4p < 2^(64n) keep the CIOS
    result below 2p), then the n words are stored back. The chains of sqrt and the Legendre
    symbol run their squarings here (blst's sqr_n_mul has the same shape)."""
    lines = ["2:"]
    body, T = gen(n)
    # drop the final conditional subtraction (it starts at the first "mov {s0}")
    cut = next(i for i, l in enumerate(body) if l.startswith("mov {s0}"))
    body = body[:cut]
    lines += [l.replace("{a}", "{r}").replace("{b}", "{r}") for l in body]
    for k in range(n):
        lines.append(f"mov qword ptr [{{r}} + {8*k}], {T[k]}")
    lines.append("dec {k}")
    lines.append("jnz 2b")
    return lines


def gen_sqr_n_head(n):
    """`gen_sqr_n` with the next round's first word carried in rdx: the loop loads word 0 into
    rdx once before it, each round's first product is rdx * rdx, and each round ends by copying
    its new word 0 (still in a register) into rdx. The round's first MULX then waits on a
    register, not on a load served by store-to-load forwarding from the stores just made (the
    other words are still reloaded, later in the round, off the critical path)."""
    lines = gen_sqr_n(n)
    assert lines[0] == "2:" and lines[1] == "mov rdx, qword ptr [{r} + 0]"
    assert lines[2].startswith("mulx ") and lines[2].endswith(", qword ptr [{r}]")
    first = lines[2][: -len("qword ptr [{r}]")] + "rdx"
    stores = [l for l in lines if l.startswith("mov qword ptr [{r} + 0], ")]
    assert len(stores) == 1
    word0 = stores[0].split(", ")[1]
    assert lines[-2:] == ["dec {k}", "jnz 2b"]
    return ["mov rdx, qword ptr [{r} + 0]", "2:", first] + lines[3:-2] + [f"mov rdx, {word0}", "dec {k}", "jnz 2b"]


def gen_sqr_n_x2(n):
    """k rounds of two independent Montgomery squarings in place, on the n words at `r` and
    the n words after them: each round squares the first value (as `gen_sqr_n`), stores it,
    then squares and stores the second. The two dependency chains share registers but not
    data, so the out-of-order core runs one squaring's carry chains under the other's (paired
    exponentiations: the two SSWU maps of a hash to G1)."""
    lines = ["2:"]
    body, T = gen(n)
    cut = next(i for i, l in enumerate(body) if l.startswith("mov {s0}"))
    body = body[:cut]
    def shifted(line, off):
        # the operand words of the CIOS body, moved to the half at byte offset `off`
        line = line.replace("{a}", "{r}").replace("{b}", "{r}").replace("[{r}]", "[{r} + 0]")
        return re.sub(r"\[\{r\} \+ (\d+)\]", lambda m: f"[{{r}} + {int(m.group(1)) + off}]", line)
    for half in range(2):
        off = 8 * n * half
        lines += [shifted(l, off) for l in body]
        for k in range(n):
            lines.append(f"mov qword ptr [{{r}} + {off + 8*k}], {T[k]}")
    lines.append("dec {k}")
    lines.append("jnz 2b")
    return lines


def rotated_row_rest(A, Z, src):
    """Words 1..n-1 of a rotated row (see `gen_mul_wide`): rdx times src[j] added into the
    accumulator A, each low product written over the word it absorbs, so the row's result lands
    one word down (A[j-1] := word j); the row's word 0 was handled by the caller. The two chains
    end in the top word with the zero register Z, leaving CF and OF clear."""
    n = len(A)
    lines = []
    for j in range(1, n):
        if j < n - 2:
            lines.append(f"mulx {{hi}}, {A[j-1]}, qword ptr [{src} + {8*j}]")
            lines.append(f"adcx {A[j-1]}, {A[j]}")
            lines.append(f"adox {A[j+1]}, {{hi}}")
        elif j == n - 2:
            # the top word is about to be overwritten: absorb it into the high half
            lines.append(f"mulx {{hi}}, {A[j-1]}, qword ptr [{src} + {8*j}]")
            lines.append(f"adcx {A[j-1]}, {A[j]}")
            lines.append(f"adox {{hi}}, {A[n-1]}")
        else:
            lines.append(f"mulx {A[n-1]}, {A[n-2]}, qword ptr [{src} + {8*j}]")
            lines.append(f"adcx {A[n-2]}, {{hi}}")
            lines.append(f"adox {A[n-1]}, {Z}")
            lines.append(f"adcx {A[n-1]}, {Z}")
    return lines


def wide_inline(n):
    """The inline attribute of a double-width (lazy tower) kernel. The 6-limb kernels are out
    of line: the BLS12-381 tower calls them hundreds of times per Fp12 product, and inlined
    copies made its functions 30-45 KB of straight-line code, more than the 32 KB L1
    instruction cache, so the CPU fetched them from L2 on every product (measured: Fp12
    product -7 %, square -8 % out of line; BENCHMARKS.md, issue 19 seventh part). The 4-limb
    ones (BN254's tower is per product by default) stay inlined."""
    return "#[inline(never)]" if n == 6 else "#[inline(always)]"


def gen_mul_wide(n):
    """The full 2n-word product a*b (no reduction), row by row with the two carry chains. The
    accumulator A holds words i..i+n-1 of the running sum after row i; each row's low products
    are written over the accumulator words they absorb (the register rotation of blst's
    __mulx_384), so a row needs no flag-clearing XOR: its two chains end in the top word by
    ADOX/ADCX of a zero register, which leaves CF and OF clear for the next row. The low word
    is final after each row and is stored at once."""
    lines = []
    A = [f"{{t{k}}}" for k in range(n)]
    Z = f"{{t{n}}}"
    # row 0: A = a * b[0] (one chain)
    lines.append("mov rdx, qword ptr [{b}]")
    lines.append("mulx {hi}, {lo}, qword ptr [{a}]")
    lines.append(f"xor {Z[:-1]}:e}}, {Z[:-1]}:e}}")
    lines.append("mov qword ptr [{out}], {lo}")
    carry = "{hi}"
    for j in range(1, n):
        if j < n - 1:
            nxt = "{lo}" if carry == "{hi}" else "{hi}"
            lines.append(f"mulx {nxt}, {A[j-1]}, qword ptr [{{a}} + {8*j}]")
            lines.append(f"adcx {A[j-1]}, {carry}")
            carry = nxt
        else:
            lines.append(f"mulx {A[n-1]}, {A[n-2]}, qword ptr [{{a}} + {8*j}]")
            lines.append(f"adcx {A[n-2]}, {carry}")
            lines.append(f"adcx {A[n-1]}, {Z}")
    for i in range(1, n):
        lines.append(f"mov rdx, qword ptr [{{b}} + {8*i}]")
        lines.append("mulx {hi}, {lo}, qword ptr [{a}]")
        lines.append(f"adcx {{lo}}, {A[0]}")
        lines.append(f"adox {A[1]}, {{hi}}")
        lines.append(f"mov qword ptr [{{out}} + {8*i}], {{lo}}")
        lines += rotated_row_rest(A, Z, "{a}")
    for k in range(n):
        lines.append(f"mov qword ptr [{{out}} + {8*(n + k)}], {A[k]}")
    return lines


def gen_sqr_wide(n):
    """The full 2n-word square a^2 (no reduction) into `out`, with the n(n-1)/2 cross products
    computed once: phase 1 sums a_i a_j (i < j) row by row (row i: rdx = a_i times a_(i+1..n-1),
    two carry chains as in `gen_mul_wide`; after row i positions 2i+1 and 2i+2 are final and
    are stored), phase 2 doubles the stored cross sum (ADCX x, x: the CF chain carries the shifted
    out bit) and adds the diagonal squares a_k^2 at 2k, 2k+1 (ADOX: the OF chain). The result
    is below 2^(128n), so both chains end without a carry. n(n-1)/2 + n MULX (21 for n = 6)
    instead of n^2."""
    lines = []
    free = [f"{{t{k}}}" for k in range(n + 1)]
    reg = {}  # position -> register
    lines.append("mov qword ptr [{out}], 0")
    for i in range(n - 1):
        lines.append(f"mov rdx, qword ptr [{{a}} + {8*i}]")
        top = i + n  # the row's highest position, fresh
        if i == 0:
            # positions 1..n: first product straight into two registers, the rest with ADD/ADC
            r1, r2 = free.pop(0), free.pop(0)
            reg[1], reg[2] = r1, r2
            if n == 2:
                lines.append(f"mulx {r2}, {r1}, qword ptr [{{a}} + 8]")
            else:
                lines.append(f"mulx {r2}, {r1}, qword ptr [{{a}} + 8]")
                for j in range(2, n):
                    r = free.pop(0)
                    reg[j + 1] = r
                    lines.append(f"mulx {r}, {{lo}}, qword ptr [{{a}} + {8*j}]")
                    lines.append(("add" if j == 2 else "adc") + f" {reg[j]}, {{lo}}")
                lines.append(f"adc {reg[n]}, 0")
        else:
            r = free.pop(0)
            reg[top] = r
            # zeroing the fresh top word also clears CF and OF for the two chains
            lines.append(f"xor {r[:-1]}:e}}, {r[:-1]}:e}}")
            for j in range(i + 1, n):
                lines.append(f"mulx {{hi}}, {{lo}}, qword ptr [{{a}} + {8*j}]")
                lines.append(f"adcx {reg[i + j]}, {{lo}}")
                lines.append(f"adox {reg[i + j + 1]}, {{hi}}")
            lines.append(f"adc {reg[top]}, 0")
        # positions 2i+1 and 2i+2 are final (the last row: every position left)
        done = [q for q in sorted(reg) if q <= 2 * i + 2 or i == n - 2]
        for q in done:
            lines.append(f"mov qword ptr [{{out}} + {8*q}], {reg[q]}")
            free.append(reg.pop(q))
    lines.append(f"mov qword ptr [{{out}} + {8*(2*n - 1)}], 0")
    # phase 2: out = 2 out + sum_k a_k^2 2^(128k)
    x = "{t0}"
    lines.append("xor {lo:e}, {lo:e}")
    for k in range(n):
        lines.append(f"mov rdx, qword ptr [{{a}} + {8*k}]")
        lines.append("mulx {hi}, {lo}, rdx")
        for q, w in ((2 * k, "{lo}"), (2 * k + 1, "{hi}")):
            lines.append(f"mov {x}, qword ptr [{{out}} + {8*q}]")
            lines.append(f"adcx {x}, {x}")
            lines.append(f"adox {x}, {w}")
            lines.append(f"mov qword ptr [{{out}} + {8*q}], {x}")
    return lines

def gen_redc(n):
    """Montgomery reduction of a 2n-word t < p 2^(64n): U = (t_lo + m p) / 2^(64n) <= p by n
    reduction rows over the low half, then U + t_hi < 2p, then one masked subtraction.
    Each row's accumulator (t_lo + m p) / 2^64 < 2^(64(n-1)) + p fits n words, and the rows
    use the register rotation of `gen_mul_wide` (here each row still clears the flags, which
    the IMUL that computes m leaves undefined)."""
    lines = []
    A = [f"{{t{k}}}" for k in range(n)]
    Z = f"{{t{n}}}"
    for k in range(n):
        lines.append(f"mov {A[k]}, qword ptr [{{t}} + {8*k}]")
    for i in range(n):
        lines.append(f"mov rdx, {A[0]}")
        lines.append(f"imul rdx, qword ptr [{{p}} + {8*n}]")
        # IMUL leaves CF and OF undefined: clear them (Z stays zero)
        lines.append(f"xor {Z[:-1]}:e}}, {Z[:-1]}:e}}")
        # word 0 of A + m p is zero by the choice of m; only its carry is kept
        lines.append("mulx {hi}, {lo}, qword ptr [{p}]")
        lines.append(f"adcx {{lo}}, {A[0]}")
        lines.append(f"adox {A[1]}, {{hi}}")
        lines += rotated_row_rest(A, Z, "{p}")
    for k in range(n):
        lines.append(("add" if k == 0 else "adc") + f" {A[k]}, qword ptr [{{t}} + {8*(n + k)}]")
    # subtract p from copies kept in the registers the rows no longer need (t's pointer is
    # dead after the high half is added), then CMOV the sum back on a borrow: constant time,
    # and no MULX in the tail (the borrow-times-p correction cost 1.19x blst's reduction on
    # Zen 3, where MULX is two micro-ops on one port)
    C = ["{hi}", "{lo}", "rdx", Z, "{t}", "{c}"][:n]
    for k in range(n):
        lines.append(f"mov {C[k]}, {A[k]}")
    for k in range(n):
        lines.append(("sub" if k == 0 else "sbb") + f" {A[k]}, qword ptr [{{p}} + {8*k}]")
    for k in range(n):
        lines.append(f"cmovc {A[k]}, {C[k]}")
    return lines, A

def gen_dbl(n, op):
    """2n-word a + b or a - b. `add`/`sub` then correct modulo p 2^(64n) on the high half
    (`add`: subtract p, add it back under the borrow mask; `sub`: add p under the borrow
    mask); `subnr` is the plain difference (for differences known to be non-negative)."""
    lines = ["xor edx, edx"] if op != "subnr" else []
    first, nxt = ("add", "adc") if op == "add" else ("sub", "sbb")
    for j in range(n):
        lines.append(f"mov {{lo}}, qword ptr [{{a}} + {8*j}]")
        lines.append((first if j == 0 else nxt) + f" {{lo}}, qword ptr [{{b}} + {8*j}]")
        lines.append(f"mov qword ptr [{{out}} + {8*j}], {{lo}}")
    H = [f"{{h{k}}}" for k in range(n)]
    for j in range(n):
        lines.append(f"mov {H[j]}, qword ptr [{{a}} + {8*(n + j)}]")
        lines.append(f"{nxt} {H[j]}, qword ptr [{{b}} + {8*(n + j)}]")
    if op == "add":
        for j in range(n):
            lines.append(("sub" if j == 0 else "sbb") + f" {H[j]}, qword ptr [{{p}} + {8*j}]")
    if op != "subnr":
        # rdx = borrow (0 or 1); MULX by it gives each word of p or 0 and leaves the flags
        # alone, so the carry chain of the correction is unbroken (AND would clear CF)
        lines.append("setc dl")
        for j in range(n):
            lines.append(f"mulx {{b}}, {{lo}}, qword ptr [{{p}} + {8*j}]")
            lines.append(("add" if j == 0 else "adc") + f" {H[j]}, {{lo}}")
    for j in range(n):
        lines.append(f"mov qword ptr [{{out}} + {8*(n + j)}], {H[j]}")
    return lines

out = []
out.append("""//! x86-64 Montgomery multiplication with MULX/ADCX/ADOX (BMI2 + ADX), 4 and 6 limbs, and the
//! lazy two-term sum of products (a0 b0 + a1 b1) R^-1 that Fp2 multiplication uses.
//!
//! GENERATED by scripts/gen_adx.py (run through scripts/gen_all.py, which CI reruns with --check):
//! do not edit by hand; change the generator and rerun it.
//! Algorithm: CIOS Montgomery multiplication (Koc, Acar, Kaliski 1996) with the dual carry
//! chains of Intel's ADX white paper (2012). Output is fully reduced (final conditional
//! subtraction in registers) for p with a spare top bit. Each function is checked against the
//! portable backend in tests (`tests/backends.rs`).
#![allow(clippy::too_many_arguments)]
use core::arch::asm;
""")
for n in (4, 6):
    lines, T = gen(n)
    zero = int(T[n][2:-1])
    # s0..s5 are the registers of a, b, hi, lo, the zero word and rdx
    alias = {"{s0}": "{a}", "{s1}": "{b}", "{s2}": "{hi}", "{s3}": "{lo}", "{s4}": "{t%d}" % zero, "{s5}": "rdx"}
    for k, v in alias.items():
        lines = [l.replace(k, v) for l in lines]
    body = "\n".join(f'            "{l}",' for l in lines)
    ops = []
    for k in range(n + 1):
        if k == zero and n == 6:
            ops.append(f"            t{k} = out(reg) s[4],")
        else:
            ops.append(f"            t{k} = out(reg) _,")
    ops = "\n".join(ops)
    rdx = 'out("rdx") s[5],' if n == 6 else 'out("rdx") _,'
    out.append(f"""
/// Montgomery product a*b*2^-{64*n} mod p, fully reduced, for {n}-limb moduli with a spare
/// top bit. `p` holds the modulus limbs followed by -p^-1 mod 2^64 at index {n}.
///
/// # Safety
/// The CPU must support BMI2 and ADX (checked by the caller with `is_x86_feature_detected!`),
/// and `a` and `b` must each point to {n} readable u64 limbs. Only the first {n} output words
/// are meaningful.
#[inline(always)]
pub unsafe fn mont_mul_{n}(a: *const u64, b: *const u64, p: &[u64; 8]) -> [u64; 6] {{
    let mut s = [0u64; 6];
    // SAFETY: reads {n} words from `a` and `b` (the caller's contract) and {n + 1} from `p`
    // (in bounds by its type); writes only the named output registers; MULX/ADCX/ADOX need BMI2+ADX, which the
    // caller guarantees. No stack use; flags are clobbered (the default for asm!).
    unsafe {{
        asm!(
{body}
            a = inout(reg) a as u64 => s[0],
            b = inout(reg) b as u64 => s[1],
            p = in(reg) p.as_ptr(),
{ops}
            hi = out(reg) s[2],
            lo = out(reg) s[3],
            {rdx}
            options(pure, readonly, nostack),
        );
    }}
    s
}}
""")
for n in (4, 6):
    lines, T = gen_sum2(n)
    body = "\n".join(f'            "{l}",' for l in lines)
    # T[0..n] hold the result words in order; bind each register to its output slot
    slot = {int(T[k][2:-1]): k for k in range(n)}
    ops = "\n".join(f"            t{r} = out(reg) s[{slot[r]}]," if r in slot else f"            t{r} = out(reg) _," for r in range(n + 1))
    out.append(f"""
/// (a0 b0 + a1 b1) 2^-{64*n} mod p in [0, 2p) (not fully reduced), for {n}-limb moduli with
/// two spare top bits and inputs below p. `a` and `b` point to {2*n} words each: (a0, a1)
/// and (b0, b1). `p` holds the modulus limbs followed by -p^-1 mod 2^64 at index {n}.
///
/// # Safety
/// The CPU must support BMI2 and ADX (checked by the caller), and `a` and `b` must each
/// point to {2*n} readable u64 limbs.
#[inline(always)]
pub unsafe fn mont_sum2_{n}(a: *const u64, b: *const u64, p: &[u64; 8]) -> [u64; {n}] {{
    let mut s = [0u64; {n}];
    // SAFETY: reads {2*n} words from `a` and `b` (the caller's contract) and {n + 1} from `p`
    // (in bounds by its type); writes only the named output registers; MULX/ADCX/ADOX need
    // BMI2+ADX, which the caller guarantees. No stack use; flags are clobbered.
    unsafe {{
        asm!(
{body}
            a = in(reg) a,
            b = in(reg) b,
            p = in(reg) p.as_ptr(),
{ops}
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }}
    s
}}
""")
def squaring_loop(name, n, words, lines, doc):
    """An in-place squaring loop function: `lines` (a counted loop over the `words` words at
    `r`) wrapped in its asm! block, with `doc` (lines of its doc comment, Safety included)."""
    body = "\n".join(f'            "{l}",' for l in lines)
    ops = "\n".join(f"            t{k} = out(reg) _," for k in range(n + 1))
    doc = "\n".join(f"/// {l}".rstrip() for l in doc)
    return f"""
{doc}
#[inline(always)]
pub unsafe fn {name}(r: *mut u64, k: usize, p: &[u64; 8]) {{
    // SAFETY: reads and writes the {words} words at `r` and reads {n + 1} from `p` (the caller's
    // contract); the loop runs k >= 1 times (the caller's contract); MULX/ADCX/ADOX need
    // BMI2+ADX, which the caller guarantees. No stack use; flags are clobbered.
    unsafe {{
        asm!(
{body}
            r = in(reg) r,
            k = inout(reg) k => _,
            p = in(reg) p.as_ptr(),
{ops}
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(nostack),
        );
    }}
}}
"""


for n in (4, 6):
    out.append(squaring_loop(f"sqr_n_{n}", n, n, gen_sqr_n(n), [
        f"r <- r^(2^k) 2^-{64*n}(2^k - 1) mod p in place: k Montgomery squarings, each left in",
        f"[0, 2p) (no final subtraction) and stored back, for {n}-limb moduli with two spare top",
        f"bits. `p` holds the modulus limbs followed by -p^-1 mod 2^64 at index {n}.",
        "",
        "# Safety",
        f"The CPU must support BMI2 and ADX (checked by the caller), `r` must point to {n} readable",
        "and writable u64 limbs holding a value below 2p, and `k` must be at least 1.",
    ]))
for n in (4, 6):
    out.append(squaring_loop(f"sqr_n_head_{n}", n, n, gen_sqr_n_head(n), [
        f"[`sqr_n_{n}`] with each round's first word carried in rdx rather than reloaded from the",
        "words just stored (the first product of a round then waits on no store-to-load",
        "forwarding). The same values.",
        "",
        "# Safety",
        f"As [`sqr_n_{n}`]: the CPU must support BMI2 and ADX, `r` must point to {n} readable and",
        "writable u64 limbs holding a value below 2p, and `k` must be at least 1.",
    ]))
for n in (4, 6):
    out.append(squaring_loop(f"sqr_n_x2_{n}", n, 2 * n, gen_sqr_n_x2(n), [
        f"Two values squared k times each, interleaved: r[0..{n}] <- r[0..{n}]^(2^k) and",
        f"r[{n}..{2*n}] <- r[{n}..{2*n}]^(2^k), in Montgomery form (times 2^-{64*n}(2^k - 1)), each round",
        f"left in [0, 2p) and stored back, for {n}-limb moduli with two spare top bits. `p` holds the",
        f"modulus limbs followed by -p^-1 mod 2^64 at index {n}.",
        "",
        "# Safety",
        f"The CPU must support BMI2 and ADX (checked by the caller), `r` must point to {2*n}",
        "readable and writable u64 limbs, each half holding a value below 2p, and `k` must be at",
        "least 1.",
    ]))
for n in (4, 6):
    body = "\n".join(f'            "{l}",' for l in gen_mul_wide(n))
    ops = "\n".join(f"            t{k} = out(reg) _," for k in range(n + 1))
    out.append(f"""
/// The full {2*n}-word product a*b (no reduction) into `out`.
///
/// # Safety
/// The CPU must support BMI2 and ADX (checked by the caller), `a` and `b` must each point to
/// {n} readable u64 limbs and `out` to {2*n} writable ones that overlap neither.
{wide_inline(n)}
pub unsafe fn mul_wide_{n}(out: *mut u64, a: *const u64, b: *const u64) {{
    // SAFETY: reads {n} words from `a` and `b` and writes {2*n} to `out` (the caller's
    // contract); MULX/ADCX/ADOX need BMI2+ADX, which the caller guarantees. No stack use.
    unsafe {{
        asm!(
{body}
            out = in(reg) out,
            a = in(reg) a,
            b = in(reg) b,
{ops}
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(nostack),
        );
    }}
}}
""")
for n in (4, 6):
    body = "\n".join(f'            "{l}",' for l in gen_sqr_wide(n))
    ops = "\n".join(f"            t{k} = out(reg) _," for k in range(n + 1))
    out.append(f"""
/// The full {2*n}-word square a*a (no reduction) into `out`: {n*(n-1)//2} cross products computed once and
/// doubled, plus {n} diagonal squares ({n*(n-1)//2 + n} MULX instead of {n*n}).
///
/// # Safety
/// The CPU must support BMI2 and ADX (checked by the caller), `a` must point to {n} readable
/// u64 limbs and `out` to {2*n} writable ones that do not overlap them.
{wide_inline(n)}
pub unsafe fn sqr_wide_{n}(out: *mut u64, a: *const u64) {{
    // SAFETY: reads {n} words from `a` and writes {2*n} to `out` (the caller's contract);
    // MULX/ADCX/ADOX need BMI2+ADX, which the caller guarantees. No stack use.
    unsafe {{
        asm!(
{body}
            out = in(reg) out,
            a = in(reg) a,
{ops}
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(nostack),
        );
    }}
}}
""")
for n in (4, 6):
    lines, T = gen_redc(n)
    body = "\n".join(f'            "{l}",' for l in lines)
    slot = {int(T[k][2:-1]): k for k in range(n)}
    ops = "\n".join(f"            t{r} = out(reg) s[{slot[r]}]," if r in slot else f"            t{r} = out(reg) _," for r in range(n + 1))
    extra = "\n            c = out(reg) _," if n > 5 else ""
    out.append(f"""
/// Montgomery reduction t 2^-{64*n} mod p, fully reduced, of a {2*n}-word t < p 2^{64*n}.
/// `p` holds the modulus limbs followed by -p^-1 mod 2^64 at index {n}.
///
/// # Safety
/// The CPU must support BMI2 and ADX (checked by the caller), and `t` must point to {2*n}
/// readable u64 limbs.
{wide_inline(n)}
pub unsafe fn redc_{n}(t: *const u64, p: &[u64; 8]) -> [u64; {n}] {{
    let mut s = [0u64; {n}];
    // SAFETY: reads {2*n} words from `t` (the caller's contract) and {n + 1} from `p` (in
    // bounds by its type); writes only the named output registers; MULX/ADCX/ADOX need
    // BMI2+ADX, which the caller guarantees. No stack use; flags are clobbered.
    unsafe {{
        asm!(
{body}
            t = inout(reg) t => _,
            p = in(reg) p.as_ptr(),
{ops}{extra}
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }}
    s
}}
""")
for n in (4, 6):
    for op, name, doc in (("add", "dbl_add", "a + b modulo p 2^{bits} for a, b < p 2^{bits}"),
                          ("sub", "dbl_sub", "a - b modulo p 2^{bits} for a, b < p 2^{bits}"),
                          ("subnr", "wide_sub", "the plain difference a - b, for a >= b")):
        body = "\n".join(f'            "{l}",' for l in gen_dbl(n, op))
        hs = "\n".join(f"            h{k} = out(reg) _," for k in range(n))
        mask = '            out("rdx") _,\n' if op != "subnr" else ""
        pin = "            p = in(reg) p.as_ptr(),\n" if op != "subnr" else ""
        psig = ", p: &[u64; 8]" if op != "subnr" else ""
        out.append(f"""
/// {doc.format(bits=64*n)}, on {2*n}-word values, into `out` (which may alias `a` or `b`).
///
/// # Safety
/// `a` and `b` must each point to {2*n} readable u64 limbs and `out` to {2*n} writable ones.
{wide_inline(n)}
pub unsafe fn {name}_{n}(out: *mut u64, a: *const u64, b: *const u64{psig}) {{
    // SAFETY: reads {2*n} words from `a` and `b` and writes {2*n} to `out`, each word of `out`
    // after the same word of `a` and `b` was read (so aliasing is fine); plain integer
    // instructions only. No stack use; flags are clobbered.
    unsafe {{
        asm!(
{body}
            out = in(reg) out,
            a = in(reg) a,
            b = inout(reg) b => _,
{pin}{hs}
{mask}            lo = out(reg) _,
            options(nostack),
        );
    }}
}}
""")
print("".join(out), end="")
