#!/usr/bin/python3
"""tools/check_includes.py must fail, naming file and line, on an include that runs up a
floor and on a loop between units, and pass on a tree that keeps the floors."""
import os
import subprocess
import sys
import tempfile

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "check_includes.py")


# Every tree lives under one folder that is removed when the test ends, pass or fail.
SCRATCH = tempfile.TemporaryDirectory(prefix="check-includes-")


def tree(files):
    root = tempfile.mkdtemp(dir=SCRATCH.name)
    for path, text in files.items():
        os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(root, path), "w") as f:
            f.write(text)
    return root


def check(files):
    r = subprocess.run([sys.executable, CHECK, tree(files)], capture_output=True, text=True)
    return r.returncode, r.stdout


failures = []


def expect(what, ok):
    if not ok:
        failures.append(what)


good = {"core/a.h": "#include <vector>\n", "ops/b.cc": '#include "core/a.h"\n#include "ops/c.h"\n',
        "ops/c.h": '#include "core/a.h"\n', "exec/d.cc": '#include "ops/c.h"\n#include "model/e.h"\n',
        "model/e.h": '#include "io/f.h"\n', "io/f.h": "\n"}
code, out = check(good)
expect(f"a tree that keeps the floors passes (exit {code}: {out})", code == 0)

code, out = check({**good, "ops/c.h": '#include "core/a.h"\n#include "exec/g.h"\n', "exec/g.h": ""})
expect(f"ops/ including exec/ fails naming file and line (exit {code}: {out})",
       code == 1 and "ops/c.h:2: includes exec/g.h" in out)

code, out = check({**good, "exec/h.cc": '#include "io/f.h"\n'})
expect(f"exec/ including io/ fails (exit {code}: {out})", code == 1 and "exec/h.cc:1: includes io/f.h" in out)

code, out = check({**good, "io/f.h": '#include "io/k.h"\n', "io/k.cc": '#include "io/f.h"\n'})
expect(f"a loop between two units fails (exit {code}: {out})",
       code == 1 and "include loop between io/f, io/k" in out)

code, out = check({**good, "ops/c.h": '#include "core/a.h"\n#include <CLI/CLI.hpp>\n'})
expect(f"a header including CLI11 fails (exit {code}: {out})", code == 1 and "ops/c.h:2: includes <CLI/CLI.hpp>" in out)

code, out = check({**good, "ops/b.cc": '#include <spdlog/spdlog.h>\n'})
expect(f"spdlog outside core/log.cc and cli/logging.cc fails (exit {code}: {out})",
       code == 1 and "ops/b.cc:1: includes <spdlog/spdlog.h>" in out)

code, out = check({**good, "ops/b.cc": '#include <fmt/format.h>\n', "core/a.h": "#include <fmt/core.h>\n"})
expect(f"fmt/format.h in a .cc and fmt/core.h in a header pass (exit {code}: {out})", code == 0)

for f in failures:
    print("FAILED:", f)
print(f"check_includes_test: {7 - len(failures)} of 7 checks passed")
sys.exit(1 if failures else 0)
