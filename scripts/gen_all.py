#!/usr/bin/env python3
"""Regenerate every generated Rust file from the curve records, or check that none differs.

    python3 scripts/gen_all.py          # write the files
    python3 scripts/gen_all.py --check  # exit 1 and name each file that differs (CI)

The files: the field constants and Frobenius tables (`zkforge-field/src/<curve>/generated.rs`),
the group constants (`zkforge-curve/src/<curve>/generated.rs`), the RFC 9380 map constants
(`zkforge-curve/src/hash_to_curve/generated.rs`), all from `scripts/curves.py`, and the
MULX/ADCX/ADOX Montgomery kernels (`zkforge-field/src/backend/x86_64_adx.rs`) from
`scripts/gen_adx.py`, and the stored addition chains (`zkforge-field/src/chain_data.rs`) from
`scripts/gen_chains.py`. Python 3.8+, standard library only.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import curves  # noqa: E402
import gen_chains  # noqa: E402


def render_all():
    files = {path: make() for path, make in curves.FILES.items()}
    files.update({path: make() for path, make in gen_chains.FILES.items()})
    adx = subprocess.run([sys.executable, os.path.join(HERE, "gen_adx.py")], check=True,
                         capture_output=True, text=True).stdout
    files["crates/zkforge-field/src/backend/x86_64_adx.rs"] = adx
    return files


def main():
    check = "--check" in sys.argv[1:]
    differ = []
    for path, text in render_all().items():
        full = os.path.join(ROOT, path)
        try:
            with open(full, encoding="utf-8") as f:
                old = f.read()
        except FileNotFoundError:
            old = None
        if old == text:
            continue
        if check:
            differ.append(path)
        else:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
            print("wrote", path)
    if differ:
        for path in differ:
            print(f"{path} differs from its generator: run python3 scripts/gen_all.py", file=sys.stderr)
        sys.exit(1)
    if check:
        print("generated files: all match scripts/gen_all.py")


if __name__ == "__main__":
    main()
