#!/usr/bin/python3
"""LeakyRelu speed against the machine's limits, in one run (see tools/bench).

For each type and size: `onnx-run bench` on a made-up input, and `onnx-run bench
--memcpy` of the same bytes, on 1 and 2 threads; the ratio is memcpy time / kernel time
(1.0 = at the memcpy line). Then whole processes: `onnx-run MODEL -i x=big.pb -o out/`
on a 400 MB float32 tensor against `cat big.pb > copy.pb`, wall time and peak RSS.
Then the statistics printed after an output (`bench --stats`) and the comparison of an
output with its expected value (`bench --compare`) against memcpy of the
same bytes, and the end-to-end matrix: 1e8 elements of float32, float16 and double,
in .pb or .npy, out to .pb, .npy or nowhere, printed (default), -q or --json, each
cell beside `cat in > out` (or `cat in > /dev/null` when nothing is written) of the
same bytes, taken in turns in the same run, with peak RSS; a cell that writes a file is
also put beside `cat in > tmp && mv tmp out`, which replaces its output as onnx-run
does (the new file beside the old until it is complete).
startup: the fixed cost of one whole process, `onnx-run --version` and a run of a 3-element
model, beside `true` (the floor of starting any native process), taken in turns.
graphs: the graphs that carry LeakyRelu (its body written out, as ONNX's *_expanded tests
and exporters write it; the exporters' Where(X < 0, X * a, X); three LeakyRelus in a
chain), fused and with --no-fuse, beside the single LeakyRelu node and memcpy in the same
rounds, on one thread; and Less, Mul, Where alone with --no-fuse against memcpy of the
same bytes.
compare-sets: `onnx-run compare` of two 400 MB float32 sets, bit-identical and every element
1 ULP apart, on one thread and on all, beside `cat A B > /dev/null`, with peak RSS.
runner: `onnx-run test` over --runner-tests folders of one 1e6-float test each, -j 1 and
-j 2, beside `cat` of all their .pb files into one file.
isa: each speed-only path beside the portable one, one column per ISA level this CPU runs
(ONNXRUN_ISA, core/hardware.h, caps every kernel family at once): LeakyRelu per type, a
chain of three, LeakyRelu-16's body unfused (Less, Mul, Where, CastLike), the statistics
of a float tensor, and a whole process reading and writing an .npz (CRC-32 both ways).
Needs Debian's python3-onnx and python3-numpy (run with /usr/bin/python3).
"""
import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

TYPES = {"float": TensorProto.FLOAT, "float16": TensorProto.FLOAT16,
         "bfloat16": TensorProto.BFLOAT16, "double": TensorProto.DOUBLE}
SIZES = {"float": 4, "float16": 2, "bfloat16": 2, "double": 8}


def make_model(path, elem_type):
    x = helper.make_tensor_value_info("x", elem_type, ["N"])
    y = helper.make_tensor_value_info("y", elem_type, ["N"])
    node = helper.make_node("LeakyRelu", ["x"], ["y"], alpha=0.1)
    g = helper.make_graph([node], "leaky_relu", [x], [y])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 16)])
    m.ir_version = 8
    onnx.save(m, path)


def save_graph(path, nodes, inputs, outputs, inits=()):
    g = helper.make_graph(nodes, os.path.basename(path), inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 16)])
    m.ir_version = 8
    onnx.save(m, path)


def make_graph_models(workdir, t):
    """The graphs of the `graphs` section for type t: name -> model path (input x[N])."""
    et = TYPES[t]
    x = helper.make_tensor_value_info("x", et, ["N"])
    y = helper.make_tensor_value_info("y", et, ["N"])
    paths = {}

    def save(name, nodes, inits=()):
        paths[name] = os.path.join(workdir, f"graph_{name}_{t}.onnx")
        save_graph(paths[name], nodes, [x], [y], inits)

    save("single", [helper.make_node("LeakyRelu", ["x"], ["y"], alpha=0.1)])
    save("body", [
        helper.make_node("Constant", [], ["Alpha"], value_float=0.1),
        helper.make_node("CastLike", ["Alpha", "x"], ["AlphaCast"]),
        helper.make_node("Constant", [], ["Zero"], value=helper.make_tensor("z", TensorProto.FLOAT, [], [0.0])),
        helper.make_node("CastLike", ["Zero", "x"], ["ZeroCast"]),
        helper.make_node("Less", ["x", "ZeroCast"], ["XLessThanZero"]),
        helper.make_node("Mul", ["AlphaCast", "x"], ["AlphaMulX"]),
        helper.make_node("Where", ["XLessThanZero", "AlphaMulX", "x"], ["y"])])
    npt = {"float": np.float32, "double": np.float64, "float16": np.float16}
    if t in npt:  # numpy has no bfloat16; the idiom's constants are of x's type
        save("idiom", [helper.make_node("Less", ["x", "zero"], ["neg"]),
                       helper.make_node("Mul", ["x", "a"], ["scaled"]),
                       helper.make_node("Where", ["neg", "scaled", "x"], ["y"])],
             [numpy_helper.from_array(np.array(0.5, dtype=npt[t]), "a"),
              numpy_helper.from_array(np.array(0.0, dtype=npt[t]), "zero")])
    save("chain3", [helper.make_node("LeakyRelu", ["x"], ["v0"], alpha=0.1),
                    helper.make_node("LeakyRelu", ["v0"], ["v1"], alpha=0.2),
                    helper.make_node("LeakyRelu", ["v1"], ["y"], alpha=0.3)])
    return paths


def make_body_op_models(workdir):
    """Less, Mul and Where alone over float32 [N] operands: name -> (path, shape args)."""
    f = TensorProto.FLOAT
    v = lambda name, et: helper.make_tensor_value_info(name, et, ["N"])
    out = {}
    for name, node, ins, oet in (
            ("Less", helper.make_node("Less", ["a", "b"], ["y"]), [v("a", f), v("b", f)], TensorProto.BOOL),
            ("Mul", helper.make_node("Mul", ["a", "b"], ["y"]), [v("a", f), v("b", f)], f),
            ("Where", helper.make_node("Where", ["c", "a", "b"], ["y"]), [v("c", TensorProto.BOOL), v("a", f), v("b", f)], f)):
        path = os.path.join(workdir, f"op_{name}.onnx")
        save_graph(path, [node], ins, [v("y", oet)])
        out[name] = (path, [i.name for i in ins])
    return out


def graphs_section(exe, a):
    """Each graph beside the single node (and memcpy), in alternating rounds, one thread."""
    print()
    print(f"Graphs that carry LeakyRelu, one thread, {a.rounds} alternating rounds (medians of the rounds' medians);")
    print("x single = graph time / single LeakyRelu node time in the same rounds; memcpy of the input's bytes.")
    hdr = f"{'type':9} {'N':>5} {'graph':18} {'time':>10} {'x single':>8} {'memcpy':>10}"
    print(hdr)
    print("-" * len(hdr))
    sys.stdout.flush()
    for t in a.types.split(","):
        models = make_graph_models(a.workdir, t)
        for s in a.graph_sizes.split(","):
            n = int(float(s))
            nbytes = n * SIZES[t]
            reps = str(repeats_for(nbytes))
            cells = [("single", models["single"], [])]
            for name in ("body", "idiom", "chain3"):
                if name in models:
                    cells.append((name, models[name], []))
                    cells.append((name + " --no-fuse", models[name], ["--no-fuse"]))
            times = {c[0]: [] for c in cells}
            ratios = {c[0]: [] for c in cells}
            mem = []
            for _ in range(a.rounds):
                got = {}
                for name, model, extra in cells:
                    # Unfused 16-bit bodies run node by node through the generic loops: fewer runs.
                    r = reps if not extra else str(max(5, int(reps) // 10))
                    got[name] = bench_json([exe, "bench", model, "--shape", f"x={n}", "--threads", "1",
                                            "--repeat", r, "--warmup", "2", "--json"] + extra)["median_ns"]
                mem.append(bench_json([exe, "bench", "--memcpy", str(nbytes), "--threads", "1", "--repeat", reps,
                                       "--warmup", "3", "--json"])["median_ns"])
                for name in got:
                    times[name].append(got[name])
                    ratios[name].append(got[name] / got["single"])
            m_ns = statistics.median(mem)
            for name, _, _ in cells:
                k_ns = statistics.median(times[name])
                print(f"{t:9} {s:>5} {name:18} {k_ns/1e3:>8.1f}us {statistics.median(ratios[name]):>8.2f} "
                      f"{m_ns/1e3:>8.1f}us")
                sys.stdout.flush()
    print()
    print("Less, Mul, Where alone, float32, --no-fuse, one thread; ratio = memcpy time / op time, memcpy of the")
    print("op's bytes read + written halved (the same traffic as the op's)")
    for name, (model, ins) in make_body_op_models(a.workdir).items():
        for s in a.op_sizes.split(","):
            n = int(float(s))
            shapes = []
            for i in ins:
                shapes += ["--shape", f"{i}={n}"]
            ks, ms, ratios = [], [], []
            for _ in range(a.rounds):
                k = bench_json([exe, "bench", model, "--threads", "1", "--repeat", str(repeats_for(n * 4)),
                                "--warmup", "3", "--json", "--no-fuse"] + shapes)
                traffic = k["bytes_per_run"] // 2
                m = bench_json([exe, "bench", "--memcpy", str(traffic), "--threads", "1",
                                "--repeat", str(repeats_for(n * 4)), "--warmup", "3", "--json"])
                ks.append(k["median_ns"])
                ms.append(m["median_ns"])
                ratios.append(m["median_ns"] / k["median_ns"])
            print(f"  {name:6} N={s:>4}: op {statistics.median(ks)/1e3:8.1f}us  memcpy {statistics.median(ms)/1e3:8.1f}us"
                  f"  ratio {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})")
            sys.stdout.flush()


def bench_json(args):
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def repeats_for(nbytes):
    # Enough runs for stable order statistics, about a second or less each.
    if nbytes <= 1 << 20:
        return 2000
    if nbytes <= 64 << 20:
        return 100
    return 10


def timed_process(argv, workdir):
    """Wall seconds and peak RSS bytes of one command. RSS comes from /usr/bin/time (a
    small parent: a child forked from this big Python process would inherit its peak)."""
    rss_file = os.path.join(workdir, "rss.txt")
    t0 = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss_file] + argv, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"{argv} failed with status {r.returncode}")
    with open(rss_file) as f:
        return wall, int(f.read().split()[-1]) * 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--onnx-run", required=True)
    ap.add_argument("--workdir", default="/tmp/onnx-run-bench")
    ap.add_argument("--sizes", default="1e3,1e6,1e7,1e8", help="element counts, comma separated")
    ap.add_argument("--types", default="float,float16,bfloat16,double")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--big-mb", type=int, default=400, help="size of the whole-process tensor (0: skip)")
    ap.add_argument("--process-repeat", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=5, help="alternating kernel/memcpy rounds per cell")
    ap.add_argument("--sections", default="startup,kernels,graphs,process,stats,compare,compare-sets,runner,isa,matrix",
                    help="which parts to run, comma separated")
    ap.add_argument("--graph-sizes", default="1e6,1e7", help="element counts of the graphs section")
    ap.add_argument("--op-sizes", default="1e6", help="element counts of Less, Mul, Where alone")
    ap.add_argument("--compare-sizes", default="1e3,1e6,1e7", help="element counts of the comparison section")
    ap.add_argument("--compare-sets-mb", type=int, default=400, help="size of each side of the compare-sets section")
    ap.add_argument("--runner-tests", type=int, default=40, help="tests of the runner section (1e6 float32 each)")
    ap.add_argument("--matrix-types", default="float,float16,double")
    ap.add_argument("--matrix-repeat", type=int, default=5)
    ap.add_argument("--isa-size", default="1e6", help="element count of the isa section's cells")
    ap.add_argument("--startup-repeat", type=int, default=200, help="processes per command of the startup section")
    a = ap.parse_args()
    sections = set(a.sections.split(","))
    os.makedirs(a.workdir, exist_ok=True)
    exe = a.onnx_run

    print(f"onnx-run: {exe}")
    print(f"kernel path: {bench_json([exe, 'bench', '--memcpy', '64', '--repeat', '1', '--json'])['kernel_path']}")
    print()
    if "startup" in sections:
        startup(a, exe)
    if "kernels" in sections:
        kernel_tables(a, exe)
    if "graphs" in sections:
        graphs_section(exe, a)
    if "process" in sections:
        process_runs(a, exe)
    if "stats" in sections:
        stats_vs_memcpy(a, exe)
    if "compare" in sections:
        compare_vs_memcpy(a, exe)
    if "compare-sets" in sections:
        compare_sets_vs_cat(a, exe)
    if "runner" in sections:
        runner_vs_cat(a, exe)
    if "isa" in sections:
        isa_paths(a, exe)
    if "matrix" in sections:
        for t in a.matrix_types.split(","):
            matrix(a, exe, t)


def isa_paths(a, exe):
    """Every ISA level this CPU runs, per kernel family, in alternating rounds, one thread."""
    levels = [lv for lv in ("scalar", "avx2", "avx512", "avx512bf16")
              if subprocess.run(["/usr/bin/env", f"ONNXRUN_ISA={lv}", exe, "bench", "--memcpy", "64", "--repeat", "1", "--json"],
                                capture_output=True).returncode == 0]
    n = int(float(a.isa_size))
    reps = str(repeats_for(n * 4))
    cells = []  # (label, argv after the executable, whole process?)
    for t in a.types.split(","):
        model = os.path.join(a.workdir, f"leaky_relu_{t}.onnx")
        make_model(model, TYPES[t])
        cells.append((f"LeakyRelu {t}", ["bench", model, "--shape", f"x={n}"], False))
    graphs = make_graph_models(a.workdir, "float")
    cells.append(("chain of 3, float", ["bench", graphs["chain3"], "--shape", f"x={n}"], False))
    graphs16 = make_graph_models(a.workdir, "float16")
    cells.append(("body ops, float16", ["bench", graphs16["body"], "--shape", f"x={n}", "--no-fuse"], False))
    cells.append(("statistics, float", ["bench", "--stats", str(n * 4)], False))
    npz = os.path.join(a.workdir, "isa_in.npz")
    np.savez(npz, x=np.random.default_rng(1).standard_normal(n * 10).astype(np.float32))
    out = os.path.join(a.workdir, "isa_out")
    cells.append(("npz in and out, -q", [graphs["single"], "--npz", npz, "-q", "-o", out, "--format", "npz"], True))
    times = {(c[0], lv): [] for c in cells for lv in levels}
    for _ in range(a.rounds):
        for label, argv, whole in cells:
            for lv in levels:
                env = dict(os.environ, ONNXRUN_ISA=lv)
                if whole:
                    walls = []
                    for _ in range(5):
                        t0 = time.perf_counter()
                        subprocess.run([exe] + argv, env=env, check=True, stdout=subprocess.DEVNULL)
                        walls.append((time.perf_counter() - t0) * 1e9)
                    times[(label, lv)].append(statistics.median(walls))
                else:
                    r = subprocess.run([exe] + argv + ["--threads", "1", "--repeat", reps, "--warmup", "3", "--json"],
                                       env=env, check=True, capture_output=True, text=True)
                    times[(label, lv)].append(json.loads(r.stdout)["median_ns"])
    print(f"Paths by ISA level (ONNXRUN_ISA), N={a.isa_size} (the npz process: {n * 10} floats), one thread,")
    print(f"{a.rounds} alternating rounds; time, and in brackets scalar time / this time (above 1: the path pays)")
    print(f"{'cell':22}" + "".join(f"{lv:>20}" for lv in levels))
    for label, _, _ in cells:
        base = statistics.median(times[(label, levels[0])])
        row = f"{label:22}"
        for lv in levels:
            m = statistics.median(times[(label, lv)])
            row += f"{m / 1e3:>12.1f}us ({base / m:4.2f})"
        print(row)
    print()
    sys.stdout.flush()


def startup(a, exe):
    """Whole processes that do almost nothing, beside `true`: the cost of being onnx-run."""
    model = os.path.join(a.workdir, "startup.onnx")
    make_model(model, TYPES["float"])
    cmds = {"true": ["true"], "onnx-run --version": [exe, "--version"],
            "onnx-run (3 floats, -q)": [exe, model, "-i", "x=[-1,0,1]", "-q"]}
    times = {k: [] for k in cmds}
    for _ in range(a.startup_repeat):
        for k, argv in cmds.items():
            t0 = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
            times[k].append(time.perf_counter() - t0)
    floor = statistics.median(times["true"])
    print(f"Start-up, median of {a.startup_repeat} processes each, taken in turns; ratio = command / `true`:")
    for k, ts in times.items():
        m = statistics.median(ts)
        print(f"  {k:24} {m*1e3:7.2f} ms  ratio {m/floor:5.2f}")
    print()
    sys.stdout.flush()


def kernel_tables(a, exe):
    print(f"Kernel vs memcpy of the same bytes, {a.rounds} alternating rounds: times are the median over rounds")
    print("of each round's median run; ratio = memcpy time / kernel time, the median of the rounds' ratios")
    hdr = (f"{'type':9} {'N':>6} {'thr':>3} {'memcpy':>10} {'kernel':>10} {'ratio':>6} {'kern GB/s':>9} "
           f"{'memcpy GB/s':>11} {'ratio range':>11}")
    print(hdr)
    print("-" * len(hdr))
    sys.stdout.flush()
    for t in a.types.split(","):
        model = os.path.join(a.workdir, f"leaky_relu_{t}.onnx")
        make_model(model, TYPES[t])
        for s in a.sizes.split(","):
            n = int(float(s))
            nbytes = n * SIZES[t]
            reps = str(repeats_for(nbytes))
            for th in a.threads.split(","):
                # Kernel and memcpy take turns, round by round: this machine's speed drifts
                # (other tenants), and a drift then moves both sides of a round's ratio.
                ks, ms, ratios = [], [], []
                for _ in range(a.rounds):
                    k = bench_json([exe, "bench", model, "--shape", f"x={n}", "--threads", th,
                                    "--repeat", reps, "--warmup", "3", "--json"])
                    m = bench_json([exe, "bench", "--memcpy", str(nbytes), "--threads", th,
                                    "--repeat", reps, "--warmup", "3", "--json"])
                    ks.append(k)
                    ms.append(m)
                    ratios.append(m["median_ns"] / k["median_ns"])
                k_ns = statistics.median(r["median_ns"] for r in ks)
                m_ns = statistics.median(r["median_ns"] for r in ms)
                gb = lambda ns: 2 * nbytes / ns  # bytes read + written per ns = GB/s
                print(f"{t:9} {s:>6} {th:>3} {m_ns/1e3:>8.2f}us {k_ns/1e3:>8.2f}us "
                      f"{statistics.median(ratios):>6.2f} {gb(k_ns):>9.2f} {gb(m_ns):>11.2f} "
                      f"{min(ratios):>5.2f}-{max(ratios):<5.2f}")
                sys.stdout.flush()

    # Fixed costs: in-process runs of small tensors, and a whole process on ONNX's example.
    model = os.path.join(a.workdir, "leaky_relu_float.onnx")
    make_model(model, TYPES["float"])
    print()
    for n in (3, 1000):
        meds = [bench_json([exe, "bench", model, "--shape", f"x={n}", "--threads", "1", "--repeat", "5000",
                            "--json"])["median_ns"] for _ in range(a.rounds)]
        print(f"N = {n}, float, in process: median {statistics.median(meds):.0f} ns "
              f"(rounds' medians {min(meds)}-{max(meds)} ns)")
    ex = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "onnx-tests", "node",
                      "test_leakyrelu_example", "model.onnx")
    if os.path.exists(ex):
        # Started straight from here (no /usr/bin/time in between), /bin/true alongside
        # for what starting any process costs on this machine.
        def wall(argv):
            t0 = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
            return time.perf_counter() - t0
        ours, true = [], []
        for _ in range(41):
            ours.append(wall([exe, ex, "-q"]))
            true.append(wall(["/bin/true"]))
        print(f"test_leakyrelu_example, whole process: median {statistics.median(ours)*1e3:.1f} ms "
              f"(/bin/true: {statistics.median(true)*1e3:.1f} ms)")
    sys.stdout.flush()


def process_runs(a, exe):
    if a.big_mb <= 0:
        return
    model = os.path.join(a.workdir, "leaky_relu_float.onnx")
    make_model(model, TYPES["float"])
    n = a.big_mb * 1000 * 1000 // 4
    big = os.path.join(a.workdir, "big.pb")
    if not os.path.exists(big) or os.path.getsize(big) < n * 4:
        rng = np.random.default_rng(1)
        x = (rng.random(n, dtype=np.float32) * 2 - 1).astype(np.float32)
        with open(big, "wb") as f:
            f.write(numpy_helper.from_array(x, "x").SerializeToString())
        del x
    size = os.path.getsize(big)
    copy = os.path.join(a.workdir, "copy.pb")
    outdir = os.path.join(a.workdir, "out")
    os.makedirs(outdir, exist_ok=True)
    subprocess.run(["cat", big], stdout=subprocess.DEVNULL, check=True)  # into the page cache
    print(f"\nWhole process, {size / 1e6:.0f} MB float32 .pb in and out (median of {a.process_repeat}):")
    for th in a.threads.split(","):
        cat_t, ours_t, cat_rss, ours_rss = [], [], 0, 0
        for _ in range(a.process_repeat):
            # The shell's truncation of the old copy is timed too, as onnx-run's
            # replacing of its old output is.
            w, r = timed_process(["sh", "-c", 'cat "$0" > "$1"', big, copy], a.workdir)
            cat_t.append(w)
            cat_rss = max(cat_rss, r)
            w, r = timed_process([exe, model, "-i", f"x={big}", "-o", outdir, "-q", "--threads", th], a.workdir)
            ours_t.append(w)
            ours_rss = max(ours_rss, r)
        c, o = statistics.median(cat_t), statistics.median(ours_t)
        print(f"  threads {th}: cat {c*1e3:.0f} ms, onnx-run {o*1e3:.0f} ms, ratio {o/c:.2f}; "
              f"peak RSS onnx-run {ours_rss/2**20:.0f} MiB = {ours_rss/(n*4):.2f} x tensor bytes (cat {cat_rss/2**20:.1f} MiB)")
        sys.stdout.flush()



def stats_vs_memcpy(a, exe):
    """The statistics printed after an output, over 1e8 float32 in memory, beside memcpy."""
    nbytes = 400_000_000
    print(f"\nStatistics of 1e8 float32 in memory vs memcpy of its {nbytes / 1e6:.0f} MB "
          f"({a.rounds} alternating rounds, median):")
    for th in a.threads.split(","):
        st, mc = [], []
        for _ in range(a.rounds):
            st.append(bench_json([exe, "bench", "--stats", str(nbytes), "--threads", th, "--repeat", "5",
                                  "--json"])["median_ns"])
            mc.append(bench_json([exe, "bench", "--memcpy", str(nbytes), "--threads", th, "--repeat", "5",
                                  "--json"])["median_ns"])
        s_ms, m_ms = statistics.median(st) / 1e6, statistics.median(mc) / 1e6
        print(f"  threads {th}: statistics {s_ms:.1f} ms, memcpy {m_ms:.1f} ms, ratio {s_ms / m_ms:.2f}")
        sys.stdout.flush()


def compare_vs_memcpy(a, exe):
    """The verdict: two float32 tensors compared (bench --compare), bit-identical and every
    element 1 ULP apart, beside memcpy of one tensor's bytes, one thread."""
    print(f"\nComparison of two float32 tensors vs memcpy of one's bytes, one thread "
          f"({a.rounds} alternating rounds, median):")
    for n in (int(float(x)) for x in a.compare_sizes.split(",")):
        nbytes = 4 * n
        reps = str(repeats_for(nbytes))
        same, diff, mc = [], [], []
        for _ in range(a.rounds):
            same.append(bench_json([exe, "bench", "--compare", str(nbytes), "--repeat", reps, "--json"])["median_ns"])
            # Every element judged costs tens of ns: few runs, or the section takes minutes.
            diff.append(bench_json([exe, "bench", "--compare", str(nbytes), "--differ", "--repeat",
                                    reps if n < 1_000_000 else "5",
                                    "--json"])["median_ns"])
            mc.append(bench_json([exe, "bench", "--memcpy", str(nbytes), "--threads", "1", "--repeat", reps,
                                  "--json"])["median_ns"])
        s_us, d_us, m_us = (statistics.median(v) / 1e3 for v in (same, diff, mc))
        print(f"  N={n:.0e}: memcpy {m_us:9.1f} us, identical {s_us:9.1f} us ({s_us / m_us:.2f}x), "
              f"1 ULP apart {d_us:9.1f} us ({d_us / m_us:.2f}x)")
        sys.stdout.flush()


def compare_sets_vs_cat(a, exe):
    """`onnx-run compare A B` of two result folders of one float32 .npy each, bit-identical
    and every element 1 ULP apart (exact medians of that many errors take two passes over both files),
    on one thread and on the default, beside `cat A B > /dev/null`, in turns."""
    root = os.path.join(a.workdir, "compare_sets")
    n = a.compare_sets_mb * 1_000_000 // 4
    sides = {k: os.path.join(root, k) for k in ("a", "same", "differ")}
    files = {k: os.path.join(d, "y.npy") for k, d in sides.items()}
    if not all(os.path.exists(f) and os.path.getsize(f) == 4 * n + 128 for f in files.values()):
        for d in sides.values():
            os.makedirs(d, exist_ok=True)
        x = np.random.default_rng(1).standard_normal(n, dtype=np.float32)
        np.save(files["a"], x)
        np.save(files["same"], x)
        np.save(files["differ"], np.nextafter(x, np.float32(np.inf)))
        del x
    print(f"\n`onnx-run compare` of two {a.compare_sets_mb} MB float32 sets (median of {a.process_repeat}, "
          f"in turns with `cat A B > /dev/null`):")
    hdr = f"{'pair':7} {'threads':>7} {'cat':>8} {'compare':>9} {'ratio':>6} {'RSS MiB':>8}"
    print(hdr)
    print("-" * len(hdr))
    for pair in ("same", "differ"):
        cat = ["sh", "-c", 'cat "$0" "$1" > /dev/null', files["a"], files[pair]]
        subprocess.run(cat, check=True)  # into the page cache
        for threads in ("1", "0"):
            cat_t, cmp_t, rss = [], [], 0
            for _ in range(a.process_repeat):
                cat_t.append(timed_process(cat, a.workdir)[0])
                w, r = timed_process([exe, "compare", sides["a"], sides[pair], "-q", "--threads", threads],
                                     a.workdir)
                cmp_t.append(w)
                rss = max(rss, r)
            c, t = statistics.median(cat_t), statistics.median(cmp_t)
            label = "1" if threads == "1" else f"{os.cpu_count()} (all)"
            print(f"{pair:7} {label:>7} {c*1e3:6.0f} ms {t*1e3:7.0f} ms {t/c:6.2f} {rss/2**20:8.0f}")
            sys.stdout.flush()


def runner_vs_cat(a, exe):
    """`onnx-run test` over model folders of one 1e6-float LeakyRelu test each, -j 1 and
    -j 2, beside `cat` of all their .pb files into one file."""
    root = os.path.join(a.workdir, "runner")
    n = 1_000_000
    first = os.path.join(root, "t000")
    if not os.path.exists(os.path.join(root, f"t{a.runner_tests - 1:03}", "test_data_set_0", "output_0.pb")):
        os.makedirs(os.path.join(first, "test_data_set_0"), exist_ok=True)
        make_model(os.path.join(first, "model.onnx"), TYPES["float"])
        x = (np.random.default_rng(2).random(n, dtype=np.float32) * 2 - 1).astype(np.float32)
        with open(os.path.join(first, "test_data_set_0", "input_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(x, "x").SerializeToString())
        subprocess.run([exe, os.path.join(first, "model.onnx"), "-i",
                        f"x={os.path.join(first, 'test_data_set_0', 'input_0.pb')}", "-o",
                        os.path.join(first, "test_data_set_0"), "-q"], check=True, stdout=subprocess.DEVNULL)
        for k in range(1, a.runner_tests):
            d = os.path.join(root, f"t{k:03}")
            if os.path.exists(d):
                shutil.rmtree(d)
            shutil.copytree(first, d)
    files = sorted(glob.glob(os.path.join(root, "t*", "test_data_set_0", "*.pb")))
    copy = os.path.join(a.workdir, "runner_cat.pb")
    cat = ["sh", "-c", 'cat "$@" > "$0"', copy] + files
    subprocess.run(cat, check=True)  # into the page cache
    cat_t, j1_t, j2_t, rss = [], [], [], 0
    for _ in range(a.process_repeat):
        cat_t.append(timed_process(cat, a.workdir)[0])
        w, r = timed_process([exe, "test", root, "-j", "1"], a.workdir)
        j1_t.append(w)
        rss = max(rss, r)
        j2_t.append(timed_process([exe, "test", root, "-j", "2"], a.workdir)[0])
    c, j1, j2 = (statistics.median(v) for v in (cat_t, j1_t, j2_t))
    print(f"\nonnx-run test over {a.runner_tests} tests of 1e6 float32 (median of {a.process_repeat}): "
          f"cat {c*1e3:.0f} ms; -j 1 {j1*1e3:.0f} ms ({j1/c:.2f}x cat, peak RSS {rss/2**20:.0f} MiB); "
          f"-j 2 {j2*1e3:.0f} ms ({j1/j2:.2f}x faster than -j 1)")
    sys.stdout.flush()


def matrix(a, exe, t):
    """Whole processes over 1e8 elements of type t: in x out x printing, each beside cat."""
    n = 100_000_000
    elem = TYPES[t]
    work = os.path.join(a.workdir, f"matrix_{t}")
    os.makedirs(work, exist_ok=True)
    model = os.path.join(work, "model.onnx")
    make_model(model, elem)
    dt = {"float": np.float32, "float16": np.float16, "double": np.float64}[t]
    rng = np.random.default_rng(2)
    x = (rng.random(n, dtype=np.float32) * 2 - 1).astype(dt)
    ins = {"pb": os.path.join(work, "in.pb"), "npy": os.path.join(work, "in.npy")}
    with open(ins["pb"], "wb") as f:
        f.write(numpy_helper.from_array(x, "x").SerializeToString())
    np.save(ins["npy"], x)
    del x
    out = os.path.join(work, "out")
    copy = os.path.join(work, "copy")
    replaced = os.path.join(work, "replaced")
    for p in ins.values():
        subprocess.run(["cat", p], stdout=subprocess.DEVNULL, check=True)  # into the page cache
    # What starting a process through this harness costs (fork, exec, /usr/bin/time, and
    # for cat the shell that redirects it): it is in both times of a cell, so the plain
    # ratio understates the difference; the net ratio takes it out of each.
    reps = max(a.matrix_repeat, 9)
    floor = statistics.median(timed_process(["true"], work)[0] for _ in range(reps))
    floor_sh = statistics.median(timed_process(["sh", "-c", "true"], work)[0] for _ in range(reps))
    print(f"\nEnd to end, 1e8 {t} ({os.path.getsize(ins['pb']) / 1e6:.0f} MB), median of {a.matrix_repeat} "
          f"runs taken in turns with cat after one untimed round; ratio = onnx-run / cat; net = the same "
          f"with the harness's cost of starting the process taken out of each (`true` {floor*1e3:.1f} ms, "
          f"`sh -c true` {floor_sh*1e3:.1f} ms):")
    print("cat+mv = `cat in > tmp && mv tmp out`; vs mv = onnx-run / cat+mv:")
    hdr = (f"{'in':4} {'out':5} {'printing':9} {'cat':>8} {'onnx-run':>9} {'ratio':>6} {'net':>6} {'cat+mv':>8} "
           f"{'vs mv':>6} {'RSS MiB':>8}")
    print(hdr)
    print("-" * len(hdr))
    for fin, path in ins.items():
        for fout in ("pb", "npy", "none"):
            for printing in ("default", "-q", "--json"):
                argv = [exe, model, "-i", f"x={path}"]
                if fout != "none":
                    argv += ["-o", out, "--format", fout]
                if printing != "default":
                    argv.append(printing)
                cat = (["sh", "-c", 'cat "$0" > "$1"', path, copy] if fout != "none"
                       else ["sh", "-c", 'cat "$0" > /dev/null', path])
                # onnx-run never truncates the output it replaces: the new file's pages
                # are fresh, where `cat > out` reuses the ones it just freed.
                cat_mv = (["sh", "-c", 'cat "$0" > "$1.tmp" && mv "$1.tmp" "$1"', path, replaced]
                          if fout != "none" else None)
                cat_t, mv_t, ours_t, rss = [], [], [], 0
                # One untimed round first, as hyperfine's --warmup: the first cell of a
                # matrix once read 130 ms for 75 ms a minute later, alone and in a rerun.
                for cmd in (cat, cat_mv, argv):
                    if cmd:
                        timed_process(cmd, work)
                for _ in range(a.matrix_repeat):
                    cat_t.append(timed_process(cat, work)[0])
                    if cat_mv:
                        mv_t.append(timed_process(cat_mv, work)[0])
                    w, r = timed_process(argv, work)
                    ours_t.append(w)
                    rss = max(rss, r)
                c, o = statistics.median(cat_t), statistics.median(ours_t)
                net = (o - floor) / max(c - floor_sh, 1e-6)
                if mv_t:
                    m = statistics.median(mv_t)
                    vs_mv = f"{m*1e3:>6.0f}ms {o/m:>6.2f}"
                else:
                    vs_mv = f"{'-':>8} {'-':>6}"
                print(f"{fin:4} {fout:5} {printing:9} {c*1e3:>6.0f}ms {o*1e3:>7.0f}ms {o/c:>6.2f} {net:>6.2f} "
                      f"{vs_mv} {rss/2**20:>8.1f}")
                sys.stdout.flush()
    for p in list(ins.values()) + [copy, replaced]:
        if os.path.exists(p):
            os.remove(p)
    subprocess.run(["rm", "-rf", out], check=True)


if __name__ == "__main__":
    main()
