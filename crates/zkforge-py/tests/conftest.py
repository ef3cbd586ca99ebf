"""Shared fixtures: the mainnet setup loaded once through zkforge.kzg (from c-kzg's text file,
as ckzg loads it) and the repository paths the tests read."""

import pathlib

import pytest

import zkforge.kzg

ROOT = pathlib.Path(__file__).resolve().parents[3]
SETUP_TXT = ROOT / "crates" / "zkforge-kzg" / "data" / "trusted_setup.txt"
VECTORS = ROOT / "crates" / "zkforge-kzg" / "tests" / "vectors"


@pytest.fixture(scope="session")
def setup():
    return zkforge.kzg.load_trusted_setup(str(SETUP_TXT), 0)
