"""BLS12-381 points, scalars and pairings with the API of ``py_arkworks_bls12381`` (0.5).

``from zkforge.bls12_381 import G1Point, G2Point, Scalar, GT`` replaces
``from py_arkworks_bls12381 import G1Point, G2Point, Scalar, GT``: the same constructors,
methods, operators, encodings and exception classes (``ValueError`` for bad encodings and
lengths, ``TypeError`` for operands of the wrong type, ``ZeroDivisionError`` for inverting
zero, ``OverflowError`` for negative ints).

- ``G1Point()`` / ``G2Point()`` are the generators; ``+ - *`` (by a ``Scalar``), unary ``-``,
  ``==``, ``hash``; Zcash compressed encodings, x || y encodings in big- or little-endian,
  RFC 9380 ``hash_to_curve(msg, dst)``, the SSWU maps with cofactor clearing,
  ``multiexp_unchecked(points, scalars)``.
- ``Scalar(int)`` (reduced mod r), ``+ - * /``, ``pow``, ``inverse``, ``square``, byte
  encodings; ``str()`` is little-endian hex and ``repr()`` the decimal value, as the peer.
- ``GT`` is the peer's Fp12 wrapper: ``*`` is the group operation, ``+``/``-`` Fp12 addition,
  ``GT.pairing``, ``GT.multi_pairing``, ``GT.pairing_check``.

Example::

    from zkforge.bls12_381 import G1Point, G2Point, Scalar, GT
    a, b = Scalar(5), Scalar(7)
    assert GT.pairing(G1Point() * a, G2Point() * b) == GT.pairing(G1Point() * (a * b), G2Point())
    assert GT.pairing_check([G1Point() * a, -G1Point()], [G2Point(), G2Point() * a])
"""

from ._zkforge import GT, G1Point, G2Point, Scalar

__all__ = ["G1Point", "G2Point", "Scalar", "GT"]
