"""Every c-kzg-4844 reference vector in crates/zkforge-kzg/tests/vectors (EIP-4844 and
EIP-7594; see its README for source and licence) through the Python API: outputs byte for byte,
and `output: null` cases refused with ValueError or RuntimeError."""

import pytest
import yaml

import zkforge.kzg as kzg
from conftest import VECTORS


def unhex(s):
    s = s[2:] if s.startswith("0x") else s
    # c-kzg's invalid-length cases include odd-length hex: keep the odd tail as an extra byte,
    # so the length is wrong rather than the parse failing
    out = bytes.fromhex(s[: len(s) // 2 * 2])
    return out + (b"\x00" if len(s) % 2 else b"")


def cases(op):
    files = sorted((VECTORS / op).glob("*.yaml"))
    assert files, f"no vectors for {op}"
    return [pytest.param(yaml.safe_load(f.read_text()), id=f.stem) for f in files]


def check(case, run):
    want = case["output"]
    if want is None:
        with pytest.raises((ValueError, RuntimeError)):
            run(case["input"])
    else:
        assert run(case["input"]) == want


@pytest.mark.parametrize("case", cases("blob_to_kzg_commitment"))
def test_blob_to_kzg_commitment(case, setup):
    check(case, lambda i: "0x" + kzg.blob_to_kzg_commitment(unhex(i["blob"]), setup).hex())


@pytest.mark.parametrize("case", cases("compute_kzg_proof"))
def test_compute_kzg_proof(case, setup):
    def run(i):
        proof, y = kzg.compute_kzg_proof(unhex(i["blob"]), unhex(i["z"]), setup)
        return ["0x" + proof.hex(), "0x" + y.hex()]

    check(case, run)


@pytest.mark.parametrize("case", cases("compute_blob_kzg_proof"))
def test_compute_blob_kzg_proof(case, setup):
    check(case, lambda i: "0x" + kzg.compute_blob_kzg_proof(unhex(i["blob"]), unhex(i["commitment"]), setup).hex())


@pytest.mark.parametrize("case", cases("verify_kzg_proof"))
def test_verify_kzg_proof(case, setup):
    check(case, lambda i: kzg.verify_kzg_proof(unhex(i["commitment"]), unhex(i["z"]), unhex(i["y"]), unhex(i["proof"]), setup))


@pytest.mark.parametrize("case", cases("verify_blob_kzg_proof"))
def test_verify_blob_kzg_proof(case, setup):
    check(case, lambda i: kzg.verify_blob_kzg_proof(unhex(i["blob"]), unhex(i["commitment"]), unhex(i["proof"]), setup))


@pytest.mark.parametrize("case", cases("verify_blob_kzg_proof_batch"))
def test_verify_blob_kzg_proof_batch(case, setup):
    def run(i):
        # ckzg takes each list concatenated; a wrong-length item must still be refused, so
        # refuse it here the way ckzg's callers (the spec tests) see it: as a ValueError
        parts = {k: [unhex(x) for x in i[k]] for k in ("blobs", "commitments", "proofs")}
        sizes = {"blobs": kzg.BYTES_PER_BLOB, "commitments": 48, "proofs": 48}
        for k, items in parts.items():
            if any(len(x) != sizes[k] for x in items):
                raise ValueError(f"{k}: wrong length")
        return kzg.verify_blob_kzg_proof_batch(b"".join(parts["blobs"]), b"".join(parts["commitments"]), b"".join(parts["proofs"]), setup)

    check(case, run)


@pytest.mark.parametrize("case", cases("compute_cells"))
def test_compute_cells(case, setup):
    check(case, lambda i: ["0x" + c.hex() for c in kzg.compute_cells(unhex(i["blob"]), setup)])


@pytest.mark.parametrize("case", cases("compute_cells_and_kzg_proofs"))
def test_compute_cells_and_kzg_proofs(case, setup):
    def run(i):
        cells, proofs = kzg.compute_cells_and_kzg_proofs(unhex(i["blob"]), setup)
        return [["0x" + c.hex() for c in cells], ["0x" + p.hex() for p in proofs]]

    check(case, run)


@pytest.mark.parametrize("case", cases("recover_cells_and_kzg_proofs"))
def test_recover_cells_and_kzg_proofs(case, setup):
    def run(i):
        cells, proofs = kzg.recover_cells_and_kzg_proofs(list(i["cell_indices"]), [unhex(c) for c in i["cells"]], setup)
        return [["0x" + c.hex() for c in cells], ["0x" + p.hex() for p in proofs]]

    check(case, run)


@pytest.mark.parametrize("case", cases("verify_cell_kzg_proof_batch"))
def test_verify_cell_kzg_proof_batch(case, setup):
    def run(i):
        return kzg.verify_cell_kzg_proof_batch(
            [unhex(c) for c in i["commitments"]], list(i["cell_indices"]), [unhex(c) for c in i["cells"]], [unhex(p) for p in i["proofs"]], setup
        )

    check(case, run)
