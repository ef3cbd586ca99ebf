#!/usr/bin/env python3
"""Counts the sm_90 machine instructions of one generated field product per form and curve
(issue 21: count before you code), with no GPU: NVRTC compiles the micro-kernels written by
`cargo run --release -p zkforge-gpu --example mul_probe -- DIR`, ptxas assembles them, nvdisasm
lists them. The tools come from the PyPI wheels nvidia-cuda-nvrtc, nvidia-cuda-nvcc (ptxas) and
nvidia-cuda-nvdisasm (unzip them; no CUDA install needed):

    python3 scripts/cuda_sass_count.py DIR --nvrtc .../libnvrtc.so.13 --ptxas .../ptxas --nvdisasm .../nvdisasm

(libnvrtc-builtins must sit beside libnvrtc, and that folder be on LD_LIBRARY_PATH).
"""
import argparse, collections, ctypes, glob, os, re, subprocess, sys


def compile_ptx(lib, src, arch):
    prog = ctypes.c_void_p()
    if lib.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"probe.cu", 0, None, None) != 0:
        sys.exit("nvrtcCreateProgram failed")
    opts = [f"--gpu-architecture={arch}".encode(), b"--std=c++17"]
    arr = (ctypes.c_char_p * len(opts))(*opts)
    rc = lib.nvrtcCompileProgram(prog, len(opts), arr)
    n = ctypes.c_size_t()
    lib.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
    log = ctypes.create_string_buffer(n.value)
    lib.nvrtcGetProgramLog(prog, log)
    if rc != 0:
        sys.exit("NVRTC: " + log.value.decode())
    lib.nvrtcGetPTXSize(prog, ctypes.byref(n))
    ptx = ctypes.create_string_buffer(n.value)
    lib.nvrtcGetPTX(prog, ptx)
    return ptx.value.decode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--nvrtc", required=True)
    ap.add_argument("--ptxas", required=True)
    ap.add_argument("--nvdisasm", required=True)
    ap.add_argument("--arch", default="90")
    a = ap.parse_args()
    lib = ctypes.CDLL(a.nvrtc)
    print("| kernel | SASS instructions | most frequent |\n|---|---|---|")
    for cu in sorted(glob.glob(os.path.join(a.dir, "*.cu"))):
        base = cu[:-3]
        with open(base + ".ptx", "w") as f:
            f.write(compile_ptx(lib, open(cu).read(), f"compute_{a.arch}"))
        subprocess.run([a.ptxas, f"-arch=sm_{a.arch}", "-O3", base + ".ptx", "-o", base + ".cubin"], check=True)
        sass = subprocess.run([a.nvdisasm, base + ".cubin"], check=True, capture_output=True, text=True).stdout
        ops = re.findall(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[0-9T] )?([A-Z][A-Z0-9.]+)", sass)
        top = ", ".join(f"{k} {v}" for k, v in collections.Counter(ops).most_common(5))
        print(f"| {os.path.basename(base)} | {len(ops)} | {top} |")


if __name__ == "__main__":
    main()
