"""zkforge.bls key trees and key files: EIP-2333 derivation against the EIP's test cases and
against a pure-Python transcription of the EIP (hmac/hashlib only) on fresh random seeds and
indices, EIP-2334 paths, and EIP-2335 keystores: the EIP's two vectors, round trips under both
KDFs, and each fresh keystore's KDF and checksum recomputed with Python's own hashlib.scrypt /
pbkdf2_hmac (what a wrong password or a tampered file must give: ValidationError)."""

import hashlib
import hmac
import json
import pathlib
import random

import pytest

from zkforge import bls as zb

ROOT = pathlib.Path(__file__).resolve().parents[3]
VECTORS = ROOT / "crates" / "zkforge-bls" / "tests" / "vectors"
SUITE = json.loads((VECTORS / "ethereum_bls12_381_tests.json").read_text())
KEYSTORES = json.loads((VECTORS / "eip2335_keystores.json").read_text(encoding="utf-8"))
R = zb.CURVE_ORDER
RNG = random.Random()


# --- EIP-2333 from the EIP's text, for the differential runs ---------------------------------


def _hkdf_extract(salt, ikm):
    return hmac.new(salt, ikm, hashlib.sha256).digest()


def _hkdf_expand(prk, info, length):
    out, t, i = b"", b"", 1
    while len(out) < length:
        t = hmac.new(prk, t + info + bytes([i]), hashlib.sha256).digest()
        out += t
        i += 1
    return out[:length]


def _hkdf_mod_r(ikm, key_info=b""):
    salt, sk = b"BLS-SIG-KEYGEN-SALT-", 0
    while sk == 0:
        salt = hashlib.sha256(salt).digest()
        okm = _hkdf_expand(_hkdf_extract(salt, ikm + b"\x00"), key_info + (48).to_bytes(2, "big"), 48)
        sk = int.from_bytes(okm, "big") % R
    return sk


def _lamport_pk(parent, index):
    salt = index.to_bytes(4, "big")
    ikm = parent.to_bytes(32, "big")
    not_ikm = bytes(b ^ 0xFF for b in ikm)
    pk = b""
    for key in (ikm, not_ikm):
        okm = _hkdf_expand(_hkdf_extract(salt, key), b"", 255 * 32)
        pk += b"".join(hashlib.sha256(okm[32 * i : 32 * i + 32]).digest() for i in range(255))
    return hashlib.sha256(pk).digest()


def _child(parent, index):
    return _hkdf_mod_r(_lamport_pk(parent, index))


def test_eip2333_cases():
    for c in SUITE["eip2333_master_sk"]["cases"]:
        seed = bytes.fromhex(c["seed"][2:])
        master = zb.derive_master_SK(seed)
        assert master == int(c["master_sk"], 16)
        assert zb.derive_child_SK(master, c["child_index"]) == int(c["child_sk"], 16)
        assert zb.derive_path(seed, "m/%d" % c["child_index"]) == int(c["child_sk"], 16)


def test_eip2333_against_the_eips_text_on_random_inputs():
    for _ in range(4):
        seed = RNG.randbytes(RNG.choice([32, 48, 64]))
        index = RNG.choice([0, 1, 2**32 - 1, RNG.randrange(2**32)])
        master = zb.derive_master_SK(seed)
        assert master == _hkdf_mod_r(seed)
        assert zb.derive_child_SK(master, index) == _child(master, index)
    seed = RNG.randbytes(64)
    want = _hkdf_mod_r(seed)
    for i in (12381, 3600, 7, 0, 0):
        want = _child(want, i)
    assert zb.derive_path(seed, "m/12381/3600/7/0/0") == want


def test_derivation_refusals():
    with pytest.raises(zb.ValidationError):
        zb.derive_master_SK(b"\x01" * 31)
    for bad in (0, R, -1, 1.5):
        with pytest.raises(zb.ValidationError):
            zb.derive_child_SK(bad, 0)
    for bad in (-1, 2**32, True):
        with pytest.raises(zb.ValidationError):
            zb.derive_child_SK(5, bad)
    for bad in ("", "m/", "m/x", "m/4294967296", "12381/3600"):
        with pytest.raises(zb.ValidationError):
            zb.derive_path(b"\x02" * 32, bad)


# --- EIP-2335 ----------------------------------------------------------------------------------


def test_eip2335_vectors():
    for ks in KEYSTORES["keystores"]:
        text = json.dumps(ks)
        assert zb.keystore_decrypt(text, KEYSTORES["password"]).hex() == KEYSTORES["secret"]
        assert zb.keystore_decrypt(text.encode(), KEYSTORES["password"]).hex() == KEYSTORES["secret"]
        with pytest.raises(zb.ValidationError, match="wrong password"):
            zb.keystore_decrypt(text, "testpassword")


def _check_with_hashlib(ks, password):
    """Recompute DK with Python's hashlib and the checksum from it: the file is what the EIP
    says for this password."""
    kdf = ks["crypto"]["kdf"]
    p = kdf["params"]
    pw = password.encode()
    if kdf["function"] == "scrypt":
        dk = hashlib.scrypt(pw, salt=bytes.fromhex(p["salt"]), n=p["n"], r=p["r"], p=p["p"], dklen=32, maxmem=2**30)
    else:
        dk = hashlib.pbkdf2_hmac("sha256", pw, bytes.fromhex(p["salt"]), p["c"], 32)
    ct = bytes.fromhex(ks["crypto"]["cipher"]["message"])
    assert hashlib.sha256(dk[16:] + ct).hexdigest() == ks["crypto"]["checksum"]["message"]


@pytest.mark.parametrize("kdf", ["scrypt", "pbkdf2"])
def test_keystore_round_trip(kdf):
    sk = zb.derive_path(RNG.randbytes(64), "m/12381/3600/0/0/0")
    password = "pass-%d" % RNG.randrange(10**6)
    text = zb.keystore_encrypt(sk, password, kdf=kdf, path="m/12381/3600/0/0/0", description="test")
    ks = json.loads(text)
    assert ks["version"] == 4 and ks["path"] == "m/12381/3600/0/0/0" and ks["description"] == "test"
    assert ks["crypto"]["kdf"]["function"] == kdf
    assert bytes.fromhex(ks["pubkey"]) == zb.G2ProofOfPossession.SkToPk(sk)
    _check_with_hashlib(ks, password)
    assert int.from_bytes(zb.keystore_decrypt(text, password), "big") == sk
    with pytest.raises(zb.ValidationError, match="wrong password"):
        zb.keystore_decrypt(text, password + "x")
    # Flip one bit of the ciphertext: a fixed replacement byte would equal the
    # real one for 1 in 256 random keys, and the check would then pass wrongly.
    message = bytearray.fromhex(ks["crypto"]["cipher"]["message"])
    message[0] ^= 1
    ks["crypto"]["cipher"]["message"] = message.hex()
    with pytest.raises(zb.ValidationError):
        zb.keystore_decrypt(json.dumps(ks), password)


def test_keystore_refusals():
    with pytest.raises(zb.ValidationError):
        zb.keystore_encrypt(0, "pw")
    with pytest.raises(zb.ValidationError, match="kdf"):
        zb.keystore_encrypt(5, "pw", kdf="argon2")
    with pytest.raises(zb.ValidationError, match="path"):
        zb.keystore_encrypt(5, "pw", kdf="pbkdf2", path="m/x")
    with pytest.raises(zb.ValidationError, match="JSON"):
        zb.keystore_decrypt("{", "pw")
    ks = dict(KEYSTORES["keystores"][1])
    ks["version"] = 3
    with pytest.raises(zb.ValidationError, match="version 3"):
        zb.keystore_decrypt(json.dumps(ks), KEYSTORES["password"])
    ks = json.loads(json.dumps(KEYSTORES["keystores"][0]))
    ks["crypto"]["kdf"]["params"]["n"] = 2**40
    with pytest.raises(zb.ValidationError, match="KDF parameters"):
        zb.keystore_decrypt(json.dumps(ks), KEYSTORES["password"])
