"""Hash-based signatures: Generalized XMSS over Poseidon2/KoalaBear, Poseidon1 (leanSig devnet 4)
and SHA3-256, bit-compatible with hash-sig (bincode-legacy encoding) and leanSig (SSZ).

A secret key never enters Python: ``keygen`` writes it into a new key-store file and returns
the public key bytes; ``sign`` takes the store's path. The store is locked while in use,
checked against its SHA3 digest on every open, and moved past the epoch on disk before the
signature is computed; each signature is verified against the public key before it is
returned. So a one-time key cannot be used twice for one epoch through this API:

- ``EpochAlreadyUsedError``: the epoch is at or below one this key already signed;
- ``KeyStoreError`` (its base): the store exists (keygen), is damaged, belongs to another
  scheme, the epoch is outside the key's range, or the file cannot be read or written;
- ``EpochSpentError``: signing failed after the reservation (the epoch is spent);
- ``ValueError``: unknown scheme or encoding, wrong lengths, an activation range outside the
  lifetime, a public key or signature that does not decode.

Functions: ``schemes()``, ``describe(scheme)``, ``keygen``, ``sign``, ``verify``,
``key_status``. Encodings: ``"ssz"`` (leanSig, the default) and ``"bincode-legacy"``
(hash-sig; the only one for the SHA3 instances). Every call releases the GIL.

Example::

    import os, tempfile
    from zkforge import hashsig
    scheme = "poseidon2_toplevel_lifetime8_dim64_base8"
    store = os.path.join(tempfile.mkdtemp(), "validator.key")
    pk = hashsig.keygen(scheme, b"\\x42" * 32, store, active_epochs=256)
    sig = hashsig.sign(scheme, store, 5, b"\\x01" * 32)
    assert hashsig.verify(scheme, pk, 5, b"\\x01" * 32, sig)
    try:
        hashsig.sign(scheme, store, 5, b"\\x02" * 32)   # the same epoch again
    except hashsig.EpochAlreadyUsedError:
        pass
"""

from ._zkforge import hashsig as _h

schemes = _h.schemes
describe = _h.describe
keygen = _h.keygen
sign = _h.sign
verify = _h.verify
key_status = _h.key_status
HashsigError = _h.HashsigError
KeyStoreError = _h.KeyStoreError
EpochAlreadyUsedError = _h.EpochAlreadyUsedError
EpochSpentError = _h.EpochSpentError

__all__ = [
    "schemes",
    "describe",
    "keygen",
    "sign",
    "verify",
    "key_status",
    "HashsigError",
    "KeyStoreError",
    "EpochAlreadyUsedError",
    "EpochSpentError",
]
