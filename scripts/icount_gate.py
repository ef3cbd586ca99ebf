#!/usr/bin/env python3
"""Instruction-count gate for the hot kernels (issue 19).

Counts instructions per operation with valgrind's callgrind (repeatable on a noisy shared
machine, unlike times): each kernel of `crates/zkforge/examples/icount.rs` runs with K = 0
and K = k repetitions, and (count(k) - count(0)) / k is compared with the committed
baseline `scripts/icount_baseline.json`. A count more than 3 % above its baseline fails. The baseline names the rustc that took it;
with another compiler the counts are printed but not gated (codegen moves them).

    python3 scripts/icount_gate.py            # check (CI)
    python3 scripts/icount_gate.py --update   # rewrite the baseline after an intended change

Valgrind's CPU reports no ADX, so these are the portable backend's counts plus every formula
above the multiplication (towers, Miller loop, final exponentiation, MSM); the MULX assembly
itself is checked by the timed benchmarks. Python 3.8+, standard library only.
"""
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BASELINE = os.path.join(HERE, "icount_baseline.json")
BIN = os.path.join(os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target"), "release", "examples", "icount")
TOLERANCE = 0.03
# kernel -> repetitions (enough to dwarf the noise of the setup, few enough to stay fast)
KERNELS = {
    "fp_mul": 2000,
    "fp_square": 2000,
    "fp_inverse": 20,
    "fp12_mul": 50,
    "miller_loop": 3,
    "final_exponentiation": 3,
    "g1_msm_4096": 1,
}


def count(kernel, k):
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", BIN, kernel, str(k)],
                         capture_output=True, text=True, check=True)
    m = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    if not m:
        sys.exit(f"icount gate: no callgrind total for {kernel}:\n{out.stderr}")
    return int(m.group(1))


def rustc_version():
    return subprocess.run(["rustc", "--version"], capture_output=True, text=True, check=True).stdout.strip()


def main():
    update = "--update" in sys.argv[1:]
    if shutil.which("valgrind") is None:
        sys.exit("icount gate: valgrind is not installed (apt-get install valgrind)")
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "zkforge", "--example", "icount"], cwd=ROOT, check=True)
    base = {}
    if os.path.exists(BASELINE):
        with open(BASELINE, encoding="utf-8") as f:
            base = json.load(f)
    rustc = rustc_version()
    base_rustc = base.pop("_rustc", None)
    now = {"_rustc": rustc}
    failed = []
    print(f"{'kernel':24} {'instructions/op':>16} {'baseline':>12} {'ratio':>7}")
    for kernel, k in KERNELS.items():
        per_op = (count(kernel, k) - count(kernel, 0)) // k
        now[kernel] = per_op
        b = base.get(kernel)
        ratio = per_op / b if b else float("nan")
        print(f"{kernel:24} {per_op:16d} {b if b else '-':>12} {ratio:7.3f}")
        if b and per_op > b * (1 + TOLERANCE):
            failed.append(kernel)
    if update:
        with open(BASELINE, "w", encoding="utf-8") as f:
            json.dump(now, f, indent=2, sort_keys=True)
            f.write("\n")
        print("wrote", os.path.relpath(BASELINE, ROOT))
        return
    if base_rustc != rustc:
        # counts move with the compiler: compare only like with like
        print(f"icount gate: the baseline was taken with {base_rustc}, this is {rustc}: counts shown, not gated")
        return
    missing = [k for k in KERNELS if k not in base]
    if missing:
        sys.exit(f"icount gate: no baseline for {', '.join(missing)}: run python3 scripts/icount_gate.py --update")
    if failed:
        sys.exit(f"icount gate: {', '.join(failed)} grew more than {TOLERANCE:.0%} over the baseline; "
                 "if intended, run python3 scripts/icount_gate.py --update and commit the baseline")
    print(f"icount gate: every kernel within {TOLERANCE:.0%} of its baseline")


if __name__ == "__main__":
    main()
