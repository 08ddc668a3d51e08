#!/usr/bin/python3
"""Writes testdata/onnx_op_versions.txt: every operator of ONNX's default domain with the
since_version of each of its versions, from the schemas of the installed onnx package.
tests/unit/op_table_test.cc checks the operator table (src/ops/) against it.

Run with Debian's python3-onnx: /usr/bin/python3 tools/make_onnx_op_versions.py
The file is committed; rerun when the onnx package changes.
With --check, writes nothing and fails (exit 1) when the file differs from what the
installed onnx gives; exit 77 (skipped) when onnx is not installed.
"""
import os
import sys

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testdata", "onnx_op_versions.txt")


def table():
    import onnx
    import onnx.defs

    versions = {}
    for s in onnx.defs.get_all_schemas_with_history():
        if s.domain in ("", "ai.onnx"):
            versions.setdefault(s.name, set()).add(s.since_version)
    lines = [
        "# ONNX operator versions (since_version) of the default domain, from the schemas of",
        f"# onnx {onnx.__version__}. Made by tools/make_onnx_op_versions.py; do not edit.",
        "# 'opset N': the newest opset those schemas know; versions above it are not listed.",
        f"opset {onnx.defs.onnx_opset_version()}",
    ]
    lines += [" ".join([name] + [str(v) for v in sorted(vs)]) for name, vs in sorted(versions.items())]
    return "\n".join(lines) + "\n"


def main():
    check = sys.argv[1:] == ["--check"]
    try:
        text = table()
    except ImportError as e:
        print(f"skipped: onnx is not installed ({e})")
        return 77 if check else 1
    if check:
        with open(OUT) as f:
            if f.read() != text:
                print(f"{OUT} differs from the installed onnx's schemas: rerun tools/make_onnx_op_versions.py")
                return 1
        print(f"{OUT} matches the installed onnx's schemas")
        return 0
    with open(OUT, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
