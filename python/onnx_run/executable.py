"""Which onnx-run executable the backend runs, in this order:
  1. the ONNX_RUN environment variable (a path; an error when it names no executable);
  2. an `onnx-run` next to this module;
  3. the bindir of the installation this module belongs to (`cmake --install` records
     where it lies relative to the module in _install_paths.py; a source tree has none);
  4. `onnx-run` on PATH."""
import os
import shutil

_HERE = os.path.dirname(os.path.abspath(__file__))


class ExecutableNotFound(RuntimeError):
    pass


def _is_executable(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


def _installed_bindir():
    try:
        from . import _install_paths
    except ImportError:
        return None
    return os.path.normpath(os.path.join(_HERE, _install_paths.BINDIR_FROM_MODULE))


def find_onnx_run():
    """The path of the onnx-run executable to run; ExecutableNotFound says where it looked."""
    env = os.environ.get("ONNX_RUN")
    if env:
        if not _is_executable(env):
            raise ExecutableNotFound(f"ONNX_RUN={env} is not an executable file")
        return env
    places = [_HERE]
    bindir = _installed_bindir()
    if bindir:
        places.append(bindir)
    for place in places:
        candidate = os.path.join(place, "onnx-run")
        if _is_executable(candidate):
            return candidate
    on_path = shutil.which("onnx-run")
    if on_path:
        return on_path
    raise ExecutableNotFound("onnx-run not found: set ONNX_RUN, or install onnx-run "
                             f"(looked in {', '.join(places)} and on PATH)")
