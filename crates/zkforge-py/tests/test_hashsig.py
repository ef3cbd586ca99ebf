"""zkforge.hashsig: keys and signatures equal to the hash-sig and leanSig reference vectors
(from the same seeds, through the key store), their negative cases rejected, and the
key-reuse guard: a second signature for a used or lower epoch, an overwritten or damaged
store, concurrent signers on one store, bad parameters and bad input all raise the
documented exceptions and change nothing."""

import json
import pathlib
import threading

import pytest

from conftest import ROOT
from zkforge import hashsig

VEC = ROOT / "crates" / "zkforge-hashsig" / "tests" / "vectors"
TOP8 = "poseidon2_toplevel_lifetime8_dim64_base8"


def rejects_or_false(scheme, pk, epoch, msg, sig, enc):
    """verify's answer, with an input that does not decode counted as rejected."""
    try:
        return hashsig.verify(scheme, pk, epoch, msg, sig, enc)
    except ValueError:
        return False


def load(name):
    return json.loads((VEC / name).read_text())


# (vector, scheme name, rng, encoding, public-key field, signature field)
CASES = [
    (load("poseidon2_toplevel_lifetime8_dim64_base8.json"), TOP8, "chacha20", "bincode-legacy", "public_key_bincode_legacy_hex", "signature_bincode_legacy_hex"),
    (load("leansig_f477348_poseidon2_ssz.json")[0], TOP8, "chacha20", "ssz", "public_key_ssz_hex", "signature_ssz_hex"),
    (load("leansig_c08a3ba_devnet4_poseidon1_ssz.json")[0], "leansig_head_aborting_lifetime8_dim46_base8", "std", "ssz", "public_key_ssz_hex", "signature_ssz_hex"),
]


@pytest.mark.parametrize("v,scheme,rng,enc,pkf,sigf", CASES, ids=["hash-sig-bincode", "leansig-ssz", "leansig-devnet4-ssz"])
def test_reference_vectors_through_the_store(tmp_path, v, scheme, rng, enc, pkf, sigf):
    store = tmp_path / "key"
    pk = hashsig.keygen(scheme, bytes.fromhex(v["seed_hex"]), store, v["num_active_epochs_requested"], v["activation_epoch_requested"], enc, rng)
    assert pk == bytes.fromhex(v[pkf])
    signed = altered = 0
    for s in v["signatures"]:
        epoch, msg = s["epoch"], bytes.fromhex(s["message_hex"])
        sig = hashsig.sign(scheme, store, epoch, msg, enc)
        assert sig == bytes.fromhex(s[sigf])
        assert hashsig.verify(scheme, pk, epoch, msg, sig, enc)
        assert not hashsig.verify(scheme, pk, epoch, bytes([msg[0] ^ 1]) + msg[1:], sig, enc)
        assert not hashsig.verify(scheme, pk, epoch + 1, msg, sig, enc)
        # the vector's own negative cases in this encoding (altered signature or public key)
        negatives = 0
        for c in s["negative_cases"]:
            bad_pk, bad_sig = bytes.fromhex(c.get(pkf) or v[pkf]), bytes.fromhex(c.get(sigf) or s[sigf])
            if (bad_pk, bad_sig) != (pk, sig):
                assert not rejects_or_false(scheme, bad_pk, epoch, msg, bad_sig, enc), c["case"]
                negatives += 1
        # the key-reuse guard
        with pytest.raises(hashsig.EpochAlreadyUsedError, match=f"epoch {epoch} was already used"):
            hashsig.sign(scheme, store, epoch, bytes(32), enc)
        assert hashsig.key_status(scheme, store)[0] == epoch + 1
        signed += 1
        altered += negatives
    assert signed >= 2 and altered >= 1


def test_sha3_vectors_verify():
    v = load("sha3_winternitz_lifetime18_w8.json")
    scheme = "sha3_winternitz_lifetime18_w8"
    pk = bytes.fromhex(v["public_key_bincode_legacy_hex"])
    for s in v["signatures"]:
        sig, msg = bytes.fromhex(s["signature_bincode_legacy_hex"]), bytes.fromhex(s["message_hex"])
        assert hashsig.verify(scheme, pk, s["epoch"], msg, sig, "bincode-legacy")
        assert not hashsig.verify(scheme, pk, s["epoch"] + 1, msg, sig, "bincode-legacy")
    with pytest.raises(ValueError, match="no SSZ"):
        hashsig.verify(scheme, pk, 0, bytes(32), b"", "ssz")


def test_key_reuse_and_store_refusals(tmp_path):
    store = tmp_path / "key"
    pk = hashsig.keygen(TOP8, b"\x03" * 32, str(store), active_epochs=256)
    assert hashsig.key_status(TOP8, store) == (0, 0, 256)
    before = store.read_bytes()
    # never overwritten, whatever the seed
    with pytest.raises(hashsig.KeyStoreError, match="already exists"):
        hashsig.keygen(TOP8, b"\x04" * 32, store, active_epochs=256)
    assert store.read_bytes() == before
    sig = hashsig.sign(TOP8, store, 9, b"\x05" * 32)
    assert hashsig.verify(TOP8, pk, 9, b"\x05" * 32, sig)
    for e in (0, 8, 9):
        with pytest.raises(hashsig.EpochAlreadyUsedError):
            hashsig.sign(TOP8, store, e, b"\x06" * 32)
    assert issubclass(hashsig.EpochAlreadyUsedError, hashsig.KeyStoreError)
    assert issubclass(hashsig.KeyStoreError, hashsig.HashsigError)
    with pytest.raises(hashsig.KeyStoreError, match="outside the key's activation range"):
        hashsig.sign(TOP8, store, 256, b"\x05" * 32)
    # another scheme's name on this store
    with pytest.raises(hashsig.KeyStoreError):
        hashsig.sign("leansig_head_aborting_lifetime8_dim46_base8", store, 10, b"\x05" * 32)
    # one flipped bit: damaged, nothing spent
    good = store.read_bytes()
    bad = bytearray(good)
    bad[len(bad) // 2] ^= 0x10
    store.write_bytes(bytes(bad))
    with pytest.raises(hashsig.KeyStoreError, match="damaged"):
        hashsig.sign(TOP8, store, 10, b"\x05" * 32)
    store.write_bytes(good)
    assert hashsig.key_status(TOP8, store)[0] == 10
    with pytest.raises(hashsig.KeyStoreError, match="could not"):
        hashsig.sign(TOP8, tmp_path / "missing", 1, b"\x05" * 32)


def test_concurrent_signers_never_share_an_epoch(tmp_path):
    store = tmp_path / "key"
    pk = hashsig.keygen(TOP8, b"\x07" * 32, store, active_epochs=256)
    got, errors = [], []

    def signer(k):
        for epoch in range(12):
            msg = bytes([k]) * 32
            try:
                got.append((epoch, msg, hashsig.sign(TOP8, store, epoch, msg)))
            except hashsig.EpochAlreadyUsedError:
                pass
            except Exception as e:  # noqa: BLE001
                errors.append(e)

    threads = [threading.Thread(target=signer, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    epochs = [e for e, _, _ in got]
    assert len(epochs) == len(set(epochs)), "an epoch was signed twice"
    assert set(epochs) <= set(range(12)) and len(epochs) >= 1
    for e, m, s in got:
        assert hashsig.verify(TOP8, pk, e, m, s)


def test_bad_parameters_and_inputs(tmp_path):
    store = tmp_path / "key"
    for act, n in ((250, 100), (0, 0), (4294967000, 1000)):
        with pytest.raises(ValueError, match="active epochs|lifetime"):
            hashsig.keygen(TOP8, b"\x01" * 32, store, n, act)
        assert not store.exists()
    with pytest.raises(ValueError, match="32 bytes"):
        hashsig.keygen(TOP8, b"\x01" * 31, store, 256)
    with pytest.raises(ValueError, match="unknown scheme"):
        hashsig.keygen("poseidon2_nonsense", b"\x01" * 32, store, 256)
    with pytest.raises(ValueError, match="unknown encoding"):
        hashsig.keygen(TOP8, b"\x01" * 32, store, 256, encoding="json")
    with pytest.raises(ValueError, match="unknown rng"):
        hashsig.keygen(TOP8, b"\x01" * 32, store, 256, rng="os")
    assert not store.exists()
    pk = hashsig.keygen(TOP8, b"\x01" * 32, store, 256)
    with pytest.raises(ValueError, match="32 bytes"):
        hashsig.sign(TOP8, store, 1, b"\x01" * 33)
    assert hashsig.key_status(TOP8, store)[0] == 0  # nothing reserved by the refused call
    sig = hashsig.sign(TOP8, store, 1, b"\x01" * 32)
    with pytest.raises(ValueError, match="public key"):
        hashsig.verify(TOP8, pk[:-1], 1, b"\x01" * 32, sig)
    with pytest.raises(ValueError, match="signature"):
        hashsig.verify(TOP8, pk, 1, b"\x01" * 32, sig[:-1])
    with pytest.raises(TypeError):
        hashsig.verify(TOP8, "not bytes", 1, b"\x01" * 32, sig)
    with pytest.raises(OverflowError):
        hashsig.sign(TOP8, store, -1, b"\x01" * 32)


def test_names_and_descriptions():
    names = hashsig.schemes()
    assert TOP8 in names and "sha3_winternitz_lifetime18_w8" in names and len(names) >= 40
    for n in names:
        assert hashsig.describe(n).startswith(n)
