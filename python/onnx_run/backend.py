"""onnx_run.backend: ONNX's backend interface (onnx.backend.base) over the onnx-run CLI.

    import onnx_run.backend as backend
    rep = backend.prepare(onnx.load("model.onnx"))   # or a path, or the model's bytes
    outputs = rep.run([x])                            # or {"x": x}; outputs[0], outputs["y"]

prepare() writes the model into a temporary folder and has `onnx-run test` load it: a
model that uses an op, version or type onnx-run does not implement raises
OnnxRunUnsupported, which is ONNX's BackendIsNotSupposedToImplementIt (its backend test
runner counts such a test as one the backend need not pass); any other rejection raises
OnnxRunError with onnx-run's one-line message. run() writes the inputs as TensorProto
files, runs `onnx-run run MODEL -i NAME=FILE... -o DIR --format pb` and reads the outputs
back; a failure raises OnnxRunError with onnx-run's message and exit code. CPU only. The
executable: see executable.py (ONNX_RUN, beside this module, the installed bindir, PATH).
"""
import json
import os
import shutil
import subprocess
import tempfile
import weakref

import numpy as np
import onnx
from onnx import helper, shape_inference
from onnx.mapping import NP_TYPE_TO_TENSOR_TYPE
from onnx.backend.base import Backend, BackendRep, Device, DeviceType, namedtupledict

from . import tensors
from .executable import find_onnx_run

try:
    from onnx.backend.test.runner import BackendIsNotSupposedToImplementIt as _NotImplementedBase
except ImportError:  # an onnx without the test runner: the runner's base class
    from unittest import SkipTest as _NotImplementedBase


class OnnxRunError(RuntimeError):
    """onnx-run refused or failed; the message is its one stderr line."""

    def __init__(self, message, exit_code=None):
        super().__init__(message)
        self.exit_code = exit_code


class OnnxRunUnsupported(_NotImplementedBase):
    """The model uses an op, version, type or feature onnx-run does not implement."""

    def __init__(self, message, causes=()):
        super().__init__(message)
        self.causes = list(causes)


def _failure_line(p, paths=()):
    """onnx-run's one-line cause (the last line on stderr), or what happened instead.

    `paths` are (temporary path, what the caller knows it as) pairs: the files this
    module writes for onnx-run mean nothing to the caller, so the line names the
    caller's model and inputs instead. Longer paths first, so a folder never replaces
    part of a file inside it."""
    lines = [line for line in p.stderr.splitlines() if line.strip()]
    if not lines:
        return f"onnx-run exited with status {p.returncode} and said nothing"
    line = lines[-1]
    for temp, caller in sorted(paths, key=lambda pair: -len(pair[0])):
        line = line.replace(temp, caller)
    return line


def _model_words(model):
    """What the caller calls the model: its path when given one."""
    if isinstance(model, (str, os.PathLike)):
        return os.fspath(model)
    return "the model"


def _run_cli(args):
    return subprocess.run([find_onnx_run(), *args], capture_output=True, text=True)


def _as_model(model):
    if isinstance(model, onnx.ModelProto):
        return model
    if isinstance(model, (bytes, bytearray)):
        return onnx.load_model_from_string(bytes(model))
    return onnx.load(os.fspath(model))


def _check_loads(model_dir, model_words="the model"):
    """Has `onnx-run test` load the model in model_dir (it holds no test sets): the model
    layer says, by structured causes rather than message text, whether it is supported."""
    report = os.path.join(os.path.dirname(model_dir), "load.json")
    p = _run_cli(["test", model_dir, "--json", report, "-q"])
    if not os.path.exists(report):
        paths = [(os.path.join(model_dir, "model.onnx"), model_words), (model_dir, model_words)]
        raise OnnxRunError(_failure_line(p, paths), p.returncode)
    with open(report) as f:
        (test,) = json.load(f)["tests"]
    # The message starts with the temporary model's path, which means nothing to the caller.
    message = test.get("message", "").removeprefix(test["model"] + ": ").replace(test["model"], model_words)
    if test["outcome"] == "unsupported":
        raise OnnxRunUnsupported(message, test.get("causes", []))
    if test["outcome"] not in ("no data", "passed"):
        raise OnnxRunError(message, p.returncode)


def _check_device(device):
    if Device(device).type != DeviceType.CPU:
        raise ValueError(f"onnx-run runs on the CPU only, not on {device}")


class OnnxRunBackendRep(BackendRep):
    """A prepared model: its copy on disk and its graph's inputs and outputs."""

    def __init__(self, model, workdir, model_words="the model"):
        self._workdir = workdir
        self._model_words = model_words
        self._cleanup = weakref.finalize(self, shutil.rmtree, workdir, True)
        self.model_path = os.path.join(workdir, "model", "model.onnx")
        initializers = {t.name for t in model.graph.initializer}
        # (name, element type) of each graph input, in order (ONNX's runner feeds
        # input_K.pb to graph.input[K]); those without an initializer must be given.
        self._inputs = [(i.name, i.type.tensor_type.elem_type) for i in model.graph.input]
        self._required = [name for name, _ in self._inputs if name not in initializers]
        self.output_names = [o.name for o in model.graph.output]

    def close(self):
        """Removes the model's folder (also done when the object is collected)."""
        self._cleanup()

    def _named(self, inputs):
        if isinstance(inputs, dict):
            named = dict(inputs)
        else:
            if not isinstance(inputs, (list, tuple)):
                inputs = [inputs]
            if len(inputs) > len(self._inputs):
                raise ValueError(f"{len(inputs)} inputs given, the graph has {len(self._inputs)}")
            named = {name: value for (name, _), value in zip(self._inputs, inputs)}
        missing = [name for name in self._required if name not in named]
        if missing:  # onnx-run would make inputs up for a model given none
            raise ValueError(f"no value for graph input {', '.join(missing)}")
        return named

    def run_protos(self, inputs, **kwargs):
        """Runs the model; the outputs as TensorProto, in graph output order."""
        types = dict(self._inputs)
        rundir = tempfile.mkdtemp(prefix="run_", dir=self._workdir)
        try:
            args = ["run", self.model_path, "-q", "-o", os.path.join(rundir, "out"), "--format", "pb"]
            paths = [(self.model_path, self._model_words), (os.path.join(rundir, "out"), "the outputs")]
            for k, (name, value) in enumerate(self._named(inputs).items()):
                path = os.path.join(rundir, f"input_{k}.pb")
                tensors.write_proto(tensors.input_proto(value, name, types.get(name, 0)), path)
                args += ["-i", f"{name}={path}"]
                paths.append((path, f"the value given for '{name}'"))
            p = _run_cli(args)
            if p.returncode != 0:
                raise OnnxRunError(_failure_line(p, paths), p.returncode)
            return [tensors.read_proto(os.path.join(rundir, "out", f"output_{k}.pb"))
                    for k in range(len(self.output_names))]
        finally:
            shutil.rmtree(rundir, ignore_errors=True)

    def run(self, inputs, **kwargs):
        """Runs the model; the outputs as numpy arrays, by index or by output name."""
        arrays = [tensors.output_array(t) for t in self.run_protos(inputs, **kwargs)]
        return namedtupledict("Outputs", self.output_names)(*arrays)


class OnnxRunBackend(Backend):
    @classmethod
    def supports_device(cls, device):
        return Device(device).type == DeviceType.CPU

    @classmethod
    def prepare(cls, model, device="CPU", **kwargs):
        """A ModelProto, a path or serialized bytes -> OnnxRunBackendRep; raises
        OnnxRunUnsupported or OnnxRunError when onnx-run cannot run the model."""
        _check_device(device)
        words = _model_words(model)
        model = _as_model(model)
        workdir = tempfile.mkdtemp(prefix="onnx_run_")
        try:
            os.mkdir(os.path.join(workdir, "model"))
            onnx.save(model, os.path.join(workdir, "model", "model.onnx"))
            _check_loads(os.path.join(workdir, "model"), words)
            return OnnxRunBackendRep(model, workdir, words)
        except BaseException:
            shutil.rmtree(workdir, ignore_errors=True)
            raise

    @classmethod
    def run_model(cls, model, inputs, device="CPU", **kwargs):
        rep = cls.prepare(model, device, **kwargs)
        try:
            return rep.run(inputs, **kwargs)
        finally:
            rep.close()

    @classmethod
    def run_node(cls, node, inputs, device="CPU", outputs_info=None, **kwargs):
        """Runs one node on `inputs` (in node.input order) as a one-node model of opset
        `opset_version` (default: the newest this onnx knows). Output types come from
        `outputs_info` ([(dtype, shape)] per output), else from ONNX's shape inference.
        An input's type is its array's (numpy has no bfloat16: give such an input as a
        TensorProto)."""
        values = [tensors.input_proto(v, name, 0) for name, v in zip(node.input, inputs) if name]
        graph_inputs = [helper.make_tensor_value_info(t.name, t.data_type, t.dims) for t in values]
        if outputs_info:
            outputs = [helper.make_tensor_value_info(name, NP_TYPE_TO_TENSOR_TYPE[np.dtype(dtype)], shape)
                       for name, (dtype, shape) in zip(node.output, outputs_info)]
        else:
            outputs = [helper.make_empty_tensor_value_info(name) for name in node.output]
        opsets = [helper.make_opsetid("", kwargs.get("opset_version", onnx.defs.onnx_opset_version()))]
        if node.domain not in ("", "ai.onnx"):
            opsets.append(helper.make_opsetid(node.domain, 1))
        graph = helper.make_graph([node], f"run_node_{node.op_type}", graph_inputs, outputs)
        model = helper.make_model(graph, opset_imports=opsets, producer_name="onnx_run.backend")
        if not outputs_info:
            model = _with_inferred_outputs(model)
        return cls.run_model(model, values, device)


def _with_inferred_outputs(model):
    inferred = shape_inference.infer_shapes(model)
    known = {v.name: v for v in list(inferred.graph.value_info) + list(inferred.graph.output)}
    for out in model.graph.output:
        if out.name in known and known[out.name].type.tensor_type.elem_type:
            out.CopyFrom(known[out.name])
    return model


prepare = OnnxRunBackend.prepare
run_model = OnnxRunBackend.run_model
run_node = OnnxRunBackend.run_node
supports_device = OnnxRunBackend.supports_device
