"""What onnx-run draws on a terminal, seen through a pseudo-terminal of a known width:
`test`'s progress bar (redrawn in place, cut to the width, cleared before a problem's
line and before the closing report) and `compare`'s progress line. Piped, as every other
test runs it, onnx-run draws neither; no other test reaches this code.

Usage: terminal_test.py ONNX_RUN TESTDATA SCRATCH"""
import fcntl
import os
import re
import shutil
import struct
import subprocess
import sys
import termios

from checks import Checks

onnx_run, testdata, scratch = sys.argv[1:4]
check = Checks()
CLEAR = "\r\x1b[K"


def on_terminal(args, cols):
    """onnx-run's stdout as a terminal `cols` wide shows it (the terminal's \\r\\n made \\n
    again), its stderr and its exit code."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
    p = subprocess.Popen([onnx_run, *args], stdout=slave, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every writer of the terminal is gone
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    err = p.stderr.read().decode()
    p.wait()
    return out.decode().replace("\r\n", "\n"), err, p.returncode


shutil.rmtree(scratch, ignore_errors=True)
tree = os.path.join(scratch, "tree")
example = os.path.join(testdata, "leakyrelu_opset16_float_alpha0.1")
for name in ("a", "b", "c"):
    shutil.copytree(example, os.path.join(tree, name))
# b's expected output is its input: LeakyRelu changes the negative elements, so b fails.
bset = os.path.join(tree, "b", "test_data_set_0")
shutil.copy(os.path.join(bset, "input_0.pb"), os.path.join(bset, "output_0.pb"))

for cols in (100, 40):
    out, err, code = on_terminal(["test", tree, "-j", "1"], cols)
    check(f"{cols} columns: exit 1, b failed", code == 1 and "b (failed)" in err, err)
    bars = [b for b in out.split(CLEAR) if re.match(r"(\[[#.]*\])? \d/3  passed", b)]
    check(f"{cols} columns: the bar is drawn, and its last state counts every test",
          bars and re.search(r"3/3  passed 2  failed 1", bars[-1]) is not None, repr(out))
    drawn = [b.split("\n")[0] for b in out.split(CLEAR)]
    check(f"{cols} columns: no drawn line is wider than the terminal less one",
          all(len(b) <= cols - 1 for b in drawn), [b for b in drawn if len(b) > cols - 1])
    # The failure's line is printed whole on a line of its own, the bar cleared first.
    check(f"{cols} columns: b's failure printed on a cleared line",
          re.search(r"\r\x1b\[K\[2/3\] failed +b \(", out) is not None, repr(out))
    # The bar is cleared before the closing report: nothing after the last clear is the bar.
    tail = out.split(CLEAR)[-1]
    check(f"{cols} columns: the bar is gone before the closing report", "passed 2  failed 1" not in tail and
          "#" not in tail, repr(tail))
wide, _, _ = on_terminal(["test", tree, "-j", "1"], 100)
check("100 columns: a bar of # and . between brackets", re.search(r"\[#+\.*\] 3/3", wide) is not None, repr(wide))

# Piped (as everywhere else), no bar and no escape sequence at all.
p = subprocess.run([onnx_run, "test", tree, "-j", "1"], capture_output=True, text=True)
check("piped: no escape sequence", "\x1b" not in p.stdout and p.returncode == 1, repr(p.stdout))

# compare's progress line: drawn while it compares, then cleared, the verdict on its own.
out, err, code = on_terminal(["compare", os.path.join(tree, "a", "test_data_set_0"),
                              os.path.join(tree, "b", "test_data_set_0")], 80)
check("compare: exit 1, the line drawn and cleared", code == 1 and "\r\x1b[Kcomparing" in out and CLEAR in out,
      repr(out) + err)
check("compare: the verdict is not on the progress line", "comparing" not in out.split(CLEAR)[-1], repr(out))

check.finish()
