"""onnx-run from Python: `onnx_run.backend` is an `onnx.backend.base.Backend` over the
onnx-run command line (the executable does the work; this package only writes the model
and its inputs as files, runs it, and reads the outputs back)."""
