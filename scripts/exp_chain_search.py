#!/usr/bin/env python3
"""Search for a cheap signed addition chain for a fixed exponent in a group where inversion
is free (the cyclotomic subgroup of Fp12, whose inverse is the conjugate): BN254's u for the
final exponentiation's hard part (`U_CHAIN` in crates/zkforge-pairing/src/bn254.rs).

Shape searched: a table built by a short addition chain from 1 (every chain of up to DEPTH
steps with values up to MAX_TABLE), then the exponent as a sum of terms +-t 2^k with t an odd
table value, evaluated left to right (a run of squarings and one product per term). For each
table the fewest-cost term list comes from a memoised recursion on the remaining exponent:
n = 2 n' (one squaring) or n = 2 n' +- t (one squaring and one product). The cost weighs a
product as RATIO squarings (1.7 scalar, 2.2 on IFMA lanes for BN254's tower; the same chain
wins at both). Prints the best few with their term lists (which the Rust constant encodes).

    python3 scripts/exp_chain_search.py [EXPONENT] [RATIO]     # about a minute

Python 3.8+, standard library only.
"""
import functools
import sys

U = 4965661367192848881  # BN254's u = 0x44e992b44a6909f1
DEPTH = 6
MAX_TABLE = 64


def best_terms(n, table, ratio):
    """(cost, products, squarings, terms) building n from the odd table values, terms as
    (signed value, exponent) most significant first."""
    odd = tuple(sorted(t for t in table if t % 2 == 1))

    @functools.lru_cache(maxsize=None)
    def f(n):
        if n in odd:
            return (0.0, 0, 0, ((n, 0),))
        if n % 2 == 0:
            c, m, s, rep = f(n // 2)
            return (c + 1.0, m, s + 1, tuple((d, e + 1) for d, e in rep))
        best = None
        for t in odd:
            for d in (t, -t):
                r = n - d
                if r <= 0 or r // 2 >= n:
                    continue
                c, m, s, rep = f(r // 2)
                cand = (c + 1.0 + ratio, m + 1, s + 1, tuple((x, e + 1) for x, e in rep) + ((d, 0),))
                if best is None or cand < best:
                    best = cand
        return best if best is not None else (float("inf"), 0, 0, ())

    return f(n)


def main():
    e = int(sys.argv[1], 0) if len(sys.argv) > 1 else U
    ratio = float(sys.argv[2]) if len(sys.argv) > 2 else 1.7
    results = []
    seen = set()

    def walk(chain, cost, muls, sqs, depth):
        key = tuple(sorted(chain))
        if key in seen:
            return
        seen.add(key)
        c, m, s, rep = best_terms(e, chain, ratio)
        results.append((round(cost + c, 3), muls + m, sqs + s, tuple(chain), rep))
        if depth == 0:
            return
        for i, a in enumerate(chain):
            for b in chain[i:]:
                v = a + b
                if v > MAX_TABLE or v in chain:
                    continue
                sq = a == b
                walk(chain + [v], cost + (1.0 if sq else ratio), muls + (0 if sq else 1), sqs + (1 if sq else 0), depth - 1)

    walk([1], 0.0, 0, 0, DEPTH)
    results.sort()
    for cost, muls, sqs, chain, rep in results[:5]:
        assert sum(d * 2**k for d, k in rep) == e
        print(f"cost {cost} (squarings units): {sqs} squarings, {muls} products; table chain {chain}")
        print("  terms:", " ".join(f"{d:+d}*2^{k}" for d, k in rep))


if __name__ == "__main__":
    main()
