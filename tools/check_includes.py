#!/usr/bin/env python3
"""Checks the floors of DESIGN.md in the includes of src/ (ctest `include-check`).

Each floor may include only itself and the floors below it:

    core < io, ops < model < exec < suite < cli      (io and ops are side by side;
                                                      exec knows no files: no io/)

and no two units (a .h with its .cc) may include each other, directly or round a longer
loop. The libraries that are heavy to compile stay in the files that need them (DESIGN.md,
build weight): no header includes spdlog, CLI11, nlohmann/json (but the few JSON headers
named in HEAVY), or fmt beyond <fmt/core.h>; spdlog is included by core/log.cc and
cli/logging.cc alone. Every violation is printed as FILE:LINE: what is wrong; exit 1 when
there is one.

    tools/check_includes.py [SRC_DIR]      (default: src/ beside this script's folder)
"""
import os
import re
import sys

# The floors each floor may include (itself included).
ALLOWED = {
    "core": {"core"},
    "io": {"core", "io"},
    "ops": {"core", "ops"},
    "model": {"core", "io", "ops", "model"},
    "exec": {"core", "ops", "model", "exec"},
    "suite": {"core", "io", "ops", "model", "exec", "suite"},
    "cli": {"core", "io", "ops", "model", "exec", "suite", "cli"},
}
INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')
SYSTEM_INCLUDE = re.compile(r'\s*#\s*include\s+<([^>]+)>')
# A heavy library's header prefix -> the files of src/ that may include it.
HEAVY = {
    "spdlog/": {"core/log.cc", "cli/logging.cc"},
    # cli/command_row.h is included only by the commands' .cc files, which define options.
    "CLI/": {"cli/command_row.h", "the .cc files"},
    "nlohmann/": {"suite/json_values.h", "io/tensor_json.h", "io/shortest_number.h", "the .cc files"},
    "fmt/format.h": "the .cc files",
    "fmt/ranges.h": "the .cc files",
    "fmt/format-inl.h": {"deps/fmt_format.cc"},
}


def heavy_includes(src):
    """FILE:LINE: problems for each heavy header included where HEAVY does not allow it."""
    for path, number, line in source_lines(src):
        m = SYSTEM_INCLUDE.match(line)
        if not m:
            continue
        for prefix, allowed in HEAVY.items():
            if not m.group(1).startswith(prefix):
                continue
            names = {allowed} if isinstance(allowed, str) else allowed
            if path in names or ("the .cc files" in names and path.endswith(".cc")):
                continue
            yield (f"src/{path}:{number}: includes <{m.group(1)}>, heavy to compile: only {', '.join(sorted(names))} "
                   f"may (headers declare what they need without it)")


def source_lines(src):
    """(floor/name, line number, line) for every line of the .h and .cc files under src/."""
    for floor in sorted(os.listdir(src)):
        folder = os.path.join(src, floor)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if not name.endswith((".h", ".cc")):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    yield f"{floor}/{name}", number, line


def includes(src):
    """(file, line, included path) for every quoted include under src/, in file order."""
    for path, number, line in source_lines(src):
        m = INCLUDE.match(line)
        if m:
            yield path, number, m.group(1)


def unit(path):
    """cli/run_command.cc and cli/run_command.h are one unit, cli/run_command."""
    return os.path.splitext(path)[0]


def loops(edges):
    """The strongly connected groups of more than one unit (Tarjan, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        group.append(top)
                        if top == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
            elif child not in index:
                index[child] = low[child] = counter[0]
                counter[0] += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(edges.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "src")
    problems = []
    edges, where = {}, {}
    for path, line, included in includes(src):
        floor, target = path.split("/")[0], included.split("/")[0]
        if floor in ALLOWED and target in ALLOWED and target not in ALLOWED[floor]:
            problems.append(f"src/{path}:{line}: includes {included}: {target}/ is not below {floor}/ "
                            f"({floor}/ may include {', '.join(sorted(ALLOWED[floor]))})")
        if target in ALLOWED and unit(path) != unit(included):
            edges.setdefault(unit(path), set()).add(unit(included))
            where.setdefault((unit(path), unit(included)), f"src/{path}:{line}")
    problems.extend(heavy_includes(src))
    for group in loops(edges):
        members = set(group)
        links = [f"{where[(a, b)]} includes {b}" for a in group for b in sorted(edges.get(a, ())) if b in members]
        problems.append(f"include loop between {', '.join(group)}: " + "; ".join(links))
    for p in problems:
        print(p)
    if problems:
        print(f"check_includes: {len(problems)} problem(s) in {os.path.normpath(src)}", file=sys.stderr)
        return 1
    count = sum(1 for _ in includes(src))
    print(f"check_includes: {count} includes in {os.path.normpath(src)}, every one down a floor or level, no loop")
    return 0


if __name__ == "__main__":
    sys.exit(main())
