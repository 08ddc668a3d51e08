#!/usr/bin/python3
"""numpy's side of onnx-run's .npy/.npz round-trip test (tests/unit/io/npy_test.cc).

  npy_roundtrip.py make DIR        numpy writes every type (and variants) into DIR
  npy_roundtrip.py resave IN OUT   numpy loads every .npy/.npz in IN and saves it again in OUT
                                   (np.save / np.savez), so the caller can compare bytes
Element k of every array is pattern(k) below, which the C++ test computes too.
Uses only numpy.
"""
import os
import sys

import numpy as np

TYPES = ["float16", "float32", "float64", "int8", "int16", "int32", "int64",
         "uint8", "uint16", "uint32", "uint64", "bool", "complex64", "complex128"]
SHAPE = (2, 3, 4)


def pattern(dtype, n):
    k = np.arange(n, dtype=np.int64)
    v = (k * 37) % 23 - 11
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return (k % 3 == 0)
    if dt.kind == "u":
        return ((k * 37) % 23).astype(dt)
    if dt.kind == "i":
        return v.astype(dt)
    if dt.kind == "c":
        c = np.empty(n, dt)
        c.real = v * 0.25
        c.imag = (v + 1) * 0.5
        return c
    return (v * 0.25).astype(dt)


def make(out):
    os.makedirs(out, exist_ok=True)
    n = int(np.prod(SHAPE))
    arrays = {}
    for t in TYPES:
        a = pattern(t, n).reshape(SHAPE)
        arrays[t] = a
        np.save(os.path.join(out, t + ".npy"), a)
        np.save(os.path.join(out, t + "_be.npy"), a.astype(a.dtype.newbyteorder(">")))
        with open(os.path.join(out, t + "_v2.npy"), "wb") as f:
            np.lib.format.write_array(f, a, version=(2, 0))
    np.save(os.path.join(out, "scalar.npy"), np.float32(-2.5))
    np.save(os.path.join(out, "empty.npy"), np.zeros((0, 3), np.int32))
    np.save(os.path.join(out, "fortran.npy"), np.asfortranarray(pattern("float32", 6).reshape(2, 3)))
    np.save(os.path.join(out, "structured.npy"), np.zeros(2, dtype=[("a", "<i4"), ("b", "<f4")]))
    np.savez(os.path.join(out, "all.npz"), **arrays)
    np.savez_compressed(os.path.join(out, "all_compressed.npz"), **arrays)


def resave(src, dst):
    os.makedirs(dst, exist_ok=True)
    for name in sorted(os.listdir(src)):
        path = os.path.join(src, name)
        if name.endswith(".npy"):
            np.save(os.path.join(dst, name), np.load(path))
        elif name.endswith(".npz"):
            with np.load(path) as z:
                arrays = {k: z[k] for k in z.files}
            print(name, " ".join(f"{k}:{a.dtype.str}:{list(a.shape)}" for k, a in arrays.items()))
            np.savez(os.path.join(dst, name), **arrays)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "make":
        make(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "resave":
        resave(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
