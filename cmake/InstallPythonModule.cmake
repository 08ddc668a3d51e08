# The Python package onnx_run (python/onnx_run: onnx_run.backend, ONNX's backend interface
# over the CLI) goes where Debian's python3 finds modules of every python3 version:
# lib/python3/dist-packages under the prefix (/usr for the .deb). It finds the installed
# executable through _install_paths.py, which records the bindir relative to the module
# (so a staged or relocated install works too). Component `python`: the .deb puts it in
# its own package, python3-onnx-run, which alone depends on python3-onnx and python3-numpy.
set(ONNXRUN_PYTHON_INSTALL_DIR lib/python3/dist-packages CACHE STRING
    "where the onnx_run Python package is installed, relative to the prefix")
set(onnxrun_python_module_dir ${ONNXRUN_PYTHON_INSTALL_DIR}/onnx_run)
file(RELATIVE_PATH onnxrun_bindir_from_module "/prefix/${onnxrun_python_module_dir}" "/prefix/${CMAKE_INSTALL_BINDIR}")
file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/python/onnx_run/_install_paths.py
     CONTENT "# Written by cmake/InstallPythonModule.cmake: the installed bindir, relative to this module.\nBINDIR_FROM_MODULE = \"${onnxrun_bindir_from_module}\"\n")
install(FILES
          ${PROJECT_SOURCE_DIR}/python/onnx_run/__init__.py
          ${PROJECT_SOURCE_DIR}/python/onnx_run/backend.py
          ${PROJECT_SOURCE_DIR}/python/onnx_run/backend_test.py
          ${PROJECT_SOURCE_DIR}/python/onnx_run/bfloat16.py
          ${PROJECT_SOURCE_DIR}/python/onnx_run/executable.py
          ${PROJECT_SOURCE_DIR}/python/onnx_run/tensors.py
          ${PROJECT_BINARY_DIR}/python/onnx_run/_install_paths.py
        DESTINATION ${onnxrun_python_module_dir} COMPONENT python)
# Debian wants the licence and changelog in every package's doc folder.
install(FILES ${PROJECT_SOURCE_DIR}/packaging/copyright ${PROJECT_BINARY_DIR}/docs/changelog.gz
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/python3-onnx-run COMPONENT python)
