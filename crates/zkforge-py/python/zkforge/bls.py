"""BLS signatures on BLS12-381 as Ethereum uses them (minimal-pubkey-size, the
proof-of-possession ciphersuite ``BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_``), a drop-in for
py_ecc's ``G2ProofOfPossession``::

    from zkforge.bls import G2ProofOfPossession as bls   # instead of py_ecc.bls

The same names, arguments and results as py_ecc 8: integer secret keys, 48-byte public keys,
96-byte signatures; ``Verify``, ``FastAggregateVerify``, ``AggregateVerify``, ``PopVerify`` and
``KeyValidate`` return ``False`` for any input that does not decode or validate; ``SkToPk``,
``Sign``, ``PopProve``, ``Aggregate`` and ``_AggregatePKs`` raise ``ValidationError``
(eth_utils' class when eth_utils is installed, as py_ecc, else this module's own, a subclass
of ``ValueError``) for invalid input. One deliberate difference: ``KeyGen`` refuses key
material shorter than the 32 bytes the draft requires (py_ecc accepts any length).

Beyond py_ecc: ``verify_signature_sets([(pubkeys, message, signature), ...])`` checks many
sets in one pairing check with random 64-bit weights (as Ethereum clients verify a block).

Key trees and key files, with the names of the Ethereum deposit tooling: EIP-2333
``derive_master_SK(seed) -> int`` and ``derive_child_SK(parent_SK, index) -> int``,
``derive_path(seed, "m/12381/3600/0/0/0") -> int`` (EIP-2334), and EIP-2335 keystores:
``keystore_decrypt(json_text, password) -> bytes`` and
``keystore_encrypt(secret_key, password, kdf="scrypt", path="", description="") -> str``
(scrypt or PBKDF2 with the EIP's parameters; fresh salt, IV and UUID).

Example::

    from zkforge.bls import G2ProofOfPossession as bls
    sk = bls.KeyGen(b"\\x01" * 32)
    pk = bls.SkToPk(sk)
    sig = bls.Sign(sk, b"message")
    assert bls.Verify(pk, b"message", sig)
    agg = bls.Aggregate([sig, bls.Sign(sk + 1, b"message")])
    assert bls.FastAggregateVerify([pk, bls.SkToPk(sk + 1)], b"message", agg)
"""

from ._zkforge import bls_sig as _b

try:  # py_ecc raises eth_utils' ValidationError; so do we when it is there
    from eth_utils import ValidationError
except ImportError:  # pragma: no cover - eth_utils comes with py_ecc

    class ValidationError(ValueError):
        """An input was refused (py_ecc's ``eth_utils.ValidationError`` when installed)."""


CURVE_ORDER = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
DST = b"BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_"
POP_TAG = b"BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_"


def _sk_bytes(sk):
    if not isinstance(sk, int) or isinstance(sk, bool) or not 0 < sk < CURVE_ORDER:
        raise ValidationError("Invalid secret key")
    return sk.to_bytes(32, "big")


def _is_bytes(x, n=None):
    return isinstance(x, bytes) and (n is None or len(x) == n)


class G2ProofOfPossession:
    """py_ecc's ``G2ProofOfPossession`` API on zkforge (all static; see the module docs)."""

    DST = DST
    POP_TAG = POP_TAG

    @staticmethod
    def KeyGen(IKM, key_info=b""):
        """The draft's KeyGen (EIP-2333's HKDF_mod_r): a secret key in 1..r-1 as an int."""
        if not _is_bytes(IKM) or not _is_bytes(key_info):
            raise ValidationError("IKM and key_info must be bytes")
        try:
            return int.from_bytes(_b.key_gen(IKM, key_info), "big")
        except ValueError as e:
            raise ValidationError(str(e)) from None

    @staticmethod
    def SkToPk(SK):
        """The 48-byte public key of an int secret key in 1..r-1."""
        return _b.sk_to_pk(_sk_bytes(SK))

    @staticmethod
    def KeyValidate(PK):
        """Whether PK decodes to a G1 point in the subgroup that is not the identity."""
        return _is_bytes(PK, 48) and _b.key_validate(PK)

    @staticmethod
    def Sign(SK, message):
        """The 96-byte signature of ``message`` (bytes) under an int secret key."""
        if not _is_bytes(message):
            raise ValidationError("Invalid message")
        return _b.sign(_sk_bytes(SK), message)

    @staticmethod
    def Verify(PK, message, signature):
        """Whether ``signature`` is PK's signature of ``message``."""
        if not (_is_bytes(PK, 48) and _is_bytes(message) and _is_bytes(signature, 96)):
            return False
        return _b.verify(PK, message, signature)

    @staticmethod
    def Aggregate(signatures):
        """The sum of one or more 96-byte signatures."""
        signatures = list(signatures)
        if len(signatures) < 1:
            raise ValidationError("Insufficient number of signatures. (n < 1)")
        if not all(_is_bytes(s, 96) for s in signatures):
            raise ValidationError("Invalid signature")
        try:
            return _b.aggregate(signatures)
        except ValueError as e:
            raise ValidationError(str(e)) from None

    @staticmethod
    def _AggregatePKs(PKs):
        """The sum of one or more public keys, each decoded onto the curve (as py_ecc: no
        subgroup or identity test; the result may be the identity)."""
        PKs = list(PKs)
        if len(PKs) < 1:
            raise ValidationError("Insufficient number of PKs. (n < 1)")
        if not all(_is_bytes(p, 48) for p in PKs):
            raise ValidationError("Invalid public key")
        try:
            return _b.aggregate_pks(PKs)
        except ValueError as e:
            raise ValidationError(str(e)) from None

    @staticmethod
    def FastAggregateVerify(PKs, message, signature):
        """Whether ``signature`` aggregates the keys' signatures of one message."""
        PKs = list(PKs)
        if not (all(_is_bytes(p, 48) for p in PKs) and _is_bytes(message) and _is_bytes(signature, 96)):
            return False
        return _b.fast_aggregate_verify(PKs, message, signature)

    @staticmethod
    def AggregateVerify(PKs, messages, signature):
        """Whether ``signature`` aggregates PKs[i]'s signature of messages[i] for every i."""
        PKs, messages = list(PKs), list(messages)
        if not (all(_is_bytes(p, 48) for p in PKs) and all(_is_bytes(m) for m in messages) and _is_bytes(signature, 96)):
            return False
        return _b.aggregate_verify(PKs, messages, signature)

    @staticmethod
    def PopProve(SK):
        """The proof of possession of an int secret key."""
        return _b.pop_prove(_sk_bytes(SK))

    @staticmethod
    def PopVerify(PK, proof):
        """Whether ``proof`` is a proof of possession for PK."""
        if not (_is_bytes(PK, 48) and _is_bytes(proof, 96)):
            return False
        return _b.pop_verify(PK, proof)


def verify_signature_sets(sets):
    """Whether every ``(pubkeys, message, signature)`` set holds, checked together with random
    64-bit weights (false for no sets or any input that does not decode)."""
    sets = [(list(p), m, s) for p, m, s in sets]
    for pks, m, s in sets:
        if not (all(_is_bytes(p, 48) for p in pks) and _is_bytes(m) and _is_bytes(s, 96)):
            return False
    return _b.verify_signature_sets(sets)


def derive_master_SK(seed):
    """EIP-2333 ``derive_master_SK``: the master secret key (an int) of a seed of at least 32
    bytes (usually a 64-byte BIP-39 seed)."""
    if not _is_bytes(seed):
        raise ValidationError("seed must be bytes")
    try:
        return int.from_bytes(_b.derive_master_sk(seed), "big")
    except ValueError as e:
        raise ValidationError(str(e)) from None


def derive_child_SK(parent_SK, index):
    """EIP-2333 ``derive_child_SK``: the child secret key (an int) at ``index`` (0 <= index <
    2**32) of an int secret key."""
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < 2**32:
        raise ValidationError("index must be an int in [0, 2**32)")
    return int.from_bytes(_b.derive_child_sk(_sk_bytes(parent_SK), index), "big")


def derive_path(seed, path):
    """The secret key (an int) at an EIP-2334 path such as ``"m/12381/3600/0/0/0"`` below the
    master key of ``seed``."""
    if not _is_bytes(seed) or not isinstance(path, str):
        raise ValidationError("seed must be bytes and path a str")
    try:
        return int.from_bytes(_b.derive_path(seed, path), "big")
    except ValueError as e:
        raise ValidationError(str(e)) from None


def keystore_decrypt(json_text, password):
    """The secret (bytes; 32 for a BLS key) inside an EIP-2335 keystore's JSON text. Raises
    ``ValidationError`` for a malformed file, refused KDF parameters or a wrong password."""
    if isinstance(json_text, bytes):
        json_text = json_text.decode("utf-8")
    try:
        return _b.keystore_decrypt(json_text, password)
    except ValueError as e:
        raise ValidationError(str(e)) from None


def keystore_encrypt(secret_key, password, kdf="scrypt", path="", description=""):
    """An EIP-2335 keystore (JSON text) holding an int secret key under ``password``;
    ``kdf`` is ``"scrypt"`` or ``"pbkdf2"``, ``path`` empty or EIP-2334."""
    try:
        return _b.keystore_encrypt(_sk_bytes(secret_key), password, kdf, path, description)
    except ValueError as e:
        raise ValidationError(str(e)) from None


__all__ = [
    "G2ProofOfPossession",
    "ValidationError",
    "verify_signature_sets",
    "derive_master_SK",
    "derive_child_SK",
    "derive_path",
    "keystore_decrypt",
    "keystore_encrypt",
    "CURVE_ORDER",
    "DST",
    "POP_TAG",
]
