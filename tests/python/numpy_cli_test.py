#!/usr/bin/python3
"""A numpy user's session with onnx-run, as a test: only numpy and the onnx-run binary.

  numpy_cli_test.py ONNX_RUN QUICK_MODELS_DIR

numpy makes the inputs (.npy, .npz, float16, bfloat16 as <u2 bits), onnx-run runs the
testdata/quick models on them and writes .npy/.npz outputs, and numpy reads those back
and checks them against LeakyRelu computed in numpy; onnx-run's printout of an array
must be numpy's own str(). Prints 'N passed, N failed' and exits non-zero on a failure.
"""
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

import numpy as np

from checks import Checks

onnx_run, models = sys.argv[1], sys.argv[2]
check = Checks('FAILED')



def run(*args):
    p = subprocess.run([onnx_run, *args], capture_output=True, text=True)
    if p.returncode != 0:
        print(p.stderr, end="")
    return p


def leaky(x, alpha):
    # The ONNX definition: alpha is first cast to x's type, then one multiply in that type.
    a = np.array(alpha, dtype=np.float32).astype(x.dtype)
    return np.where(x < 0, a * x, x)


def write_zip64_npz(path, arrays):
    """An .npz of stored members whose every size and offset is in zip64 records: each
    central entry's sizes and local offset all ones, their values in a zip64 extra field,
    and the end record's counts all ones, their values in a zip64 end record found through
    its locator (APPNOTE 4.3.14-4.3.16, 4.5.3)."""
    body, central = b"", b""
    for name, arr in arrays.items():
        buf = io.BytesIO()
        np.save(buf, arr, allow_pickle=False)
        data, fname = buf.getvalue(), f"{name}.npy".encode()
        crc, offset = zlib.crc32(data), len(body)
        body += struct.pack("<IHHHHHIIIHH", 0x04034b50, 45, 0, 0, 0, 0, crc, len(data), len(data), len(fname), 0)
        body += fname + data
        extra = struct.pack("<HHQQQ", 1, 24, len(data), len(data), offset)
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014b50, 45, 45, 0, 0, 0, 0, crc, 0xffffffff, 0xffffffff,
                               len(fname), len(extra), 0, 0, 0, 0, 0xffffffff) + fname + extra
    z64_at = len(body) + len(central)
    end64 = struct.pack("<IQHHIIQQQQ", 0x06064b50, 44, 45, 45, 0, 0, len(arrays), len(arrays), len(central), len(body))
    locator = struct.pack("<IIQI", 0x07064b50, 0, z64_at, 1)
    end = struct.pack("<IHHHHIIH", 0x06054b50, 0, 0, 0xffff, 0xffff, 0xffffffff, 0xffffffff, 0)
    with open(path, "wb") as f:
        f.write(body + central + end64 + locator + end)


def peak_mib(args, out, stderr_into=None):
    """onnx-run's peak RSS in MiB, and its exit code, stdout into `out` (its stderr appended
    to the list `stderr_into`, where one is given). Started from a bare
    interpreter: a child forked from this one, numpy's arrays and all, would count this
    process's pages in its peak. The Popen is held until wait4 has reaped the child: a Popen
    collected while its child runs polls it as it goes, and a quick child was then reaped
    there (wait4 failed with ECHILD)."""
    launcher = ("import os, subprocess, sys\n"
                "with open(sys.argv[1], 'w') as out:\n"
                "    child = subprocess.Popen(sys.argv[2:], stdout=out)\n"
                "    _, status, usage = os.wait4(child.pid, 0)\n"
                "print(usage.ru_maxrss, os.waitstatus_to_exitcode(status))\n")
    p = subprocess.run([sys.executable, "-c", launcher, out, onnx_run, *args], capture_output=True, text=True)
    if p.returncode != 0:  # the launcher's own failure, with its traceback (not onnx-run's exit)
        raise RuntimeError(f"measuring {args}: launcher exited {p.returncode}: {p.stderr.strip()}")
    if stderr_into is not None:
        stderr_into.append(p.stderr)
    kib, code = p.stdout.split()
    return int(kib) / 1024, int(code)


with tempfile.TemporaryDirectory() as tmp:
    rng = np.random.default_rng(7)
    x = rng.standard_normal((5, 7)).astype(np.float32)
    np.save(f"{tmp}/x.npy", x)
    p = run(f"{models}/leaky_nxm.onnx", "-i", f"x={tmp}/x.npy", "-o", f"{tmp}/o", "--format", "npy")
    y = np.load(f"{tmp}/o/output_0.npy")
    check("float32 .npy in and out", p.returncode == 0 and y.dtype == np.float32 and np.array_equal(y, leaky(x, 0.5)))
    # The printout is numpy's own.
    check("printed like numpy", p.stdout.rstrip("\n").endswith(str(y)), p.stdout)

    # Big-endian and version 2.0 headers read the same.
    np.save(f"{tmp}/xbe.npy", x.astype(">f4"))
    p = run(f"{models}/leaky_nxm.onnx", "-i", f"x={tmp}/xbe.npy", "-o", f"{tmp}/obe", "--format", "npy")
    check("big-endian input", p.returncode == 0 and np.array_equal(np.load(f"{tmp}/obe/output_0.npy"), y))

    # float16 and double, bound by position.
    for dt, model in [(np.float16, "leaky_float16"), (np.float64, "leaky_double")]:
        v = np.array([-3.5, -0.1, 0, 0.1, 65504, -np.inf, np.nan], dtype=dt)
        np.save(f"{tmp}/{model}.npy", v)
        p = run(f"{models}/{model}.onnx", "-i", f"{tmp}/{model}.npy", "-o", f"{tmp}/{model}", "--format", "npy")
        out = np.load(f"{tmp}/{model}/output_0.npy")
        check(f"{model} in and out", p.returncode == 0 and out.dtype == dt and
              np.array_equal(out, leaky(v, 0.1), equal_nan=True), f"{out} vs {leaky(v, 0.1)}")

    # bfloat16: raw bits as <u2 both ways.
    f = np.array([-2.0, -0.5, 1.0, 3.0], dtype=np.float32)
    bits = (f.view(np.uint32) >> 16).astype(np.uint16)
    np.save(f"{tmp}/bf.npy", bits)
    p = run(f"{models}/leaky_bfloat16.onnx", "-i", f"x={tmp}/bf.npy", "-o", f"{tmp}/bf", "--format", "npy")
    out_bits = np.load(f"{tmp}/bf/output_0.npy")
    out = (out_bits.astype(np.uint32) << 16).view(np.float32)
    alpha_bf16 = np.float32(0.10009765625)  # bfloat16(0.1), exactly
    expected = np.where(f < 0, f * alpha_bf16, f)
    expected = ((expected.view(np.uint32) + 0x7FFF + ((expected.view(np.uint32) >> 16) & 1)) >> 16 << 16).view(np.float32)
    check("bfloat16 as <u2 bits", p.returncode == 0 and out_bits.dtype == np.uint16 and np.array_equal(out, expected),
          f"{out} vs {expected}")

    # An .npz of named inputs in, an .npz of named outputs out.
    a = rng.standard_normal((2, 3)).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32)
    np.savez(f"{tmp}/in.npz", a=a, b=b)
    p = run(f"{models}/two_chains.onnx", "--npz", f"{tmp}/in.npz", "-o", f"{tmp}/z", "--format", "npz")
    with np.load(f"{tmp}/z/outputs.npz") as z:
        check(".npz in and out", p.returncode == 0 and sorted(z.files) == ["y", "z"] and
              np.array_equal(z["y"], leaky(leaky(a, 0.5), 0.5)) and np.array_equal(z["z"], leaky(b, 0.25)))
    np.savez_compressed(f"{tmp}/inc.npz", a=a, b=b)
    p = run(f"{models}/two_chains.onnx", "--npz", f"{tmp}/inc.npz", "--json")
    d = json.loads(p.stdout)
    check("compressed .npz and --json", p.returncode == 0 and
          np.array_equal(np.array(d["outputs"][1]["values"], dtype=np.float32), leaky(b, 0.25)))

    # An .npz whose sizes and offsets live in zip64 records (as a zip writer puts them
    # past 4 GiB, or always): the same inputs, numpy reading it first.
    write_zip64_npz(f"{tmp}/in64.npz", {"a": a, "b": b})
    with np.load(f"{tmp}/in64.npz") as z:
        readable = np.array_equal(z["a"], a) and np.array_equal(z["b"], b)
    p = run(f"{models}/two_chains.onnx", "--npz", f"{tmp}/in64.npz", "-o", f"{tmp}/z64", "--format", "npz")
    with np.load(f"{tmp}/z64/outputs.npz") as z:
        check("zip64 .npz in", readable and p.returncode == 0 and np.array_equal(z["y"], leaky(leaky(a, 0.5), 0.5)) and
              np.array_equal(z["z"], leaky(b, 0.25)), p.stderr)

    # Intermediate values as .npy, named after the value.
    p = run(f"{models}/two_chains.onnx", "--npz", f"{tmp}/in.npz", "--dump-intermediates", f"{tmp}/dump",
            "--format", "npy")
    mid = np.load(f"{tmp}/dump/mid_0_a.npy")
    check("dumped intermediate", p.returncode == 0 and np.array_equal(mid, leaky(a, 0.5)))

    # compare of sets with more errors than the median keeps in memory (a million): the
    # files are read again for the exact median, which must be numpy's. An odd count, so
    # the median is one element; an .npy folder against a compressed .npz (its member
    # inflated again on each pass).
    n = 2_000_001
    e = rng.standard_normal(n).astype(np.float32)
    a = (e * np.float32(1.0001) + rng.standard_normal(n).astype(np.float32) * np.float32(1e-4)).astype(np.float32)
    os.mkdir(f"{tmp}/ca")
    np.save(f"{tmp}/ca/y.npy", e)
    np.savez_compressed(f"{tmp}/cb.npz", y=a)
    p = subprocess.run([onnx_run, "compare", f"{tmp}/ca", f"{tmp}/cb.npz", "--json"], capture_output=True, text=True)
    d = json.loads(p.stdout)["values"][0]["comparison"]
    ae = np.abs(a.astype(np.float64) - e.astype(np.float64))
    re = ae / np.abs(e.astype(np.float64))
    check("compare: exact medians past what is kept in memory",
          d["errors"]["median_abs_err"] == np.median(ae) and d["errors"]["median_rel_err"] == np.median(re) and
          d["errors"]["max_abs_err"] == ae.max() and d["bit_differences"] == int(np.count_nonzero(a != e)),
          f"{d['errors']} vs median abs {np.median(ae)!r}, rel {np.median(re)!r}")
    # The same pair as two .npy files, which take reads in any order: split across two
    # threads, merged in order, with the same result to the bit as one thread's (exit 1: they
    # differ beyond the default tolerance); the means are each run of 65536 errors summed
    # in order, then those sums in order.
    os.mkdir(f"{tmp}/cc")
    np.save(f"{tmp}/cc/y.npy", a)
    both = [subprocess.run([onnx_run, "compare", f"{tmp}/ca", f"{tmp}/cc", "--json", "--threads", t],
                           capture_output=True, text=True) for t in ("1", "2")]
    d = json.loads(both[1].stdout)["values"][0]["comparison"]

    def chunked_mean(errors):
        sums = [np.cumsum(errors[k:k + 65536])[-1] for k in range(0, len(errors), 65536)]
        return float(np.cumsum(sums)[-1]) / len(errors)
    check("compare on two threads: what one thread reports, numpy's medians and chunked means",
          both[0].returncode == both[1].returncode == 1 and both[0].stdout == both[1].stdout and
          d["errors"]["median_abs_err"] == np.median(ae) and d["errors"]["median_rel_err"] == np.median(re) and
          d["errors"]["mean_abs_err"] == chunked_mean(ae) and d["errors"]["mean_rel_err"] == chunked_mean(re),
          f"{d['errors']} vs means {chunked_mean(ae)!r}, {chunked_mean(re)!r}")

    # A test set with more errors than the medians keep in memory (a million): run block by
    # block, its inputs are read and the graph run again for the exact medians, numpy's,
    # in memory bounded whatever its size (keeping every error would take 64 MiB here).
    # Positive inputs, so LeakyRelu is the identity and the expected output is written by
    # onnx-run from inputs one ULP up; an odd count, so the median is one element. The
    # first million and more (what is kept) are off by far more: the middle, among the
    # one-ULP errors, is then outside the window the kept errors place, and the inputs
    # must be read again (-v says how many times). Those are beyond tolerance: exit 1.
    n = 4_000_001
    tx = (rng.random((n, 1), dtype=np.float32) + np.float32(0.5)).astype(np.float32)
    up = np.nextafter(tx, np.float32(np.inf))
    up[:1 << 20] *= np.float32(1.5)
    ts = f"{tmp}/ts"
    np.save(f"{tmp}/tx.npy", tx)
    np.save(f"{tmp}/tup.npy", up)
    made = [run(f"{models}/leaky_nxm.onnx", "-i", f"x={tmp}/tx.npy", "--save-inputs", f"{ts}/test_data_set_0",
                "-q"),
            run(f"{models}/leaky_nxm.onnx", "-i", f"x={tmp}/tup.npy", "-o", f"{ts}/test_data_set_0", "-q")]
    shutil.copy(f"{models}/leaky_nxm.onnx", f"{ts}/model.onnx")
    base, _ = peak_mib(["info", f"{ts}/model.onnx"], os.devnull)
    said = []
    peak, code = peak_mib([f"{ts}/model.onnx", "--json", "-v"], f"{tmp}/ts.json", said)
    d = json.load(open(f"{tmp}/ts.json"))["test_sets"][0]["outputs"][0]["comparison"]["errors"]
    ae = up.astype(np.float64) - tx.astype(np.float64)
    re = ae / up.astype(np.float64)
    check("test set: exact medians past what is kept in memory",
          all(m.returncode == 0 for m in made) and code == 1 and d["beyond_tolerance"] == 1 << 20 and
          d["median_abs_err"] == np.median(ae) and
          d["median_rel_err"] == np.median(re), f"{d}")
    check("test set: its inputs read and its graph run again for the medians",
          "ran the graph 2 times" in said[-1], said[-1])
    check("test set: memory bounded past what the medians keep", peak - base < 40,
          f"{peak - base:.1f} MiB over info's {base:.1f} MiB")
    # The same from a compressed .npz, whose member is inflated anew for the second pass,
    # against --expected (read whole: 16 MiB more).
    np.savez_compressed(f"{tmp}/tx.npz", x=tx)
    peak, code = peak_mib([f"{ts}/model.onnx", "--npz", f"{tmp}/tx.npz", "--expected",
                           f"{ts}/test_data_set_0/output_0.pb", "--json", "-v"], f"{tmp}/npz.json", said)
    d = json.load(open(f"{tmp}/npz.json"))["outputs"][0]["comparison"]["errors"]
    check("--npz: exact medians past what is kept in memory",
          code == 1 and d["beyond_tolerance"] == 1 << 20 and d["median_abs_err"] == np.median(ae) and
          d["median_rel_err"] == np.median(re), f"{d}")
    check("--npz: its member inflated and the graph run again for the medians",
          "ran the graph 2 times" in said[-1], said[-1])
    check("--npz: memory bounded past what the medians keep", peak - base < 56,
          f"{peak - base:.1f} MiB over info's {base:.1f} MiB")

    # A Fortran-order array is refused clearly, exit 3.
    np.save(f"{tmp}/fx.npy", np.asfortranarray(x))
    p = subprocess.run([onnx_run, f"{models}/leaky_nxm.onnx", "-i", f"x={tmp}/fx.npy"], capture_output=True, text=True)
    check("Fortran order refused", p.returncode == 3 and "Fortran order" in p.stderr, p.stderr)

check.finish()
