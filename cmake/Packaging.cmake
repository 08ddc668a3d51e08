# Installing and packaging: `cmake --install build` puts the binary, the man page, the
# bash completion, the CMake package (find_package(onnx-run)) and the Python package
# onnx_run in the usual places under the prefix; `cpack -G DEB` (from the build folder)
# makes two .deb files:
#  - onnx-run_<version>_<arch>.deb (component `cli`: all but the Python package), whose
#    Depends come from dpkg-shlibdeps (Debian's dpkg-dev), so they name exactly the shared
#    libraries the binary links: none for the default static executable (ONNXRUN_STATIC),
#    libc, libstdc++, libprotobuf and the others for a dynamic one;
#  - python3-onnx-run_<version>_all.deb (component `python`), onnx_run.backend, which
#    Depends on onnx-run of the same version, python3, python3-onnx and python3-numpy.
#    Split so that the command line stays free of Python: a Recommends in one package
#    would let apt install the module without what it imports.
# tools/test-deb.sh proves the .deb installs with apt on a clean Debian 12 and runs.
include(GNUInstallDirs)
set(CMAKE_INSTALL_DEFAULT_COMPONENT_NAME cli)

# The installed onnx-run is stripped, as `cmake --install --strip` and the .deb (CPACK_STRIP_FILES)
# make it, whether or not --strip is given: the build tree's copy keeps its debug
# information (over 200 MB), the installed one is about 7 MB. -DONNXRUN_INSTALL_STRIP=OFF
# installs it as built.
option(ONNXRUN_INSTALL_STRIP "strip the installed onnx-run of its debug information" ON)
if(ONNXRUN_INSTALL_STRIP)
  install(CODE "set(CMAKE_INSTALL_DO_STRIP ON)" COMPONENT cli)
endif()
install(TARGETS onnx-run RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# Generated at build time from the command line's definitions (src/CMakeLists.txt).
install(FILES ${PROJECT_BINARY_DIR}/docs/onnx-run.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_BINARY_DIR}/docs/onnx-run.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME onnx-run)
install(FILES ${PROJECT_BINARY_DIR}/docs/_onnx-run DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${PROJECT_BINARY_DIR}/docs/onnx-run.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
# Debian wants the licence as /usr/share/doc/PACKAGE/copyright and a changelog.gz beside it.
install(FILES ${PROJECT_SOURCE_DIR}/packaging/copyright ${PROJECT_BINARY_DIR}/docs/changelog.gz
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/packaging/lintian-overrides DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides
        RENAME onnx-run)
include(${CMAKE_CURRENT_LIST_DIR}/InstallCMakePackage.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/InstallPythonModule.cmake)

set(CPACK_PACKAGE_NAME onnx-run)
set(CPACK_PACKAGE_VENDOR "onnx-run")
# The Maintainer field: -DONNXRUN_MAINTAINER="Name <address>" for a real release.
set(ONNXRUN_MAINTAINER "onnx-run developers <onnx-run-developers@lists.onnx-run.org>"
    CACHE STRING "the .deb's Maintainer: Name <address>")
set(CPACK_PACKAGE_CONTACT "${ONNXRUN_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${ONNXRUN_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "run ONNX models from the command line and check them against ONNX test data")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
       "onnx-run is a standalone ONNX model interpreter for the shell: it runs\n"
       "models on TensorProto or numpy inputs, checks them against ONNX test data\n"
       "sets, and describes how each node resolves to an operator version.")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL cli python)
set(CPACK_DEBIAN_CLI_PACKAGE_NAME onnx-run)
set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-onnx-run)
set(CPACK_DEBIAN_PYTHON_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS "onnx-run (= ${PROJECT_VERSION}), python3, python3-onnx, python3-numpy")
set(CPACK_COMPONENT_CLI_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
# (CPack gives every package the one summary line above; the body says which this is.)
string(CONCAT CPACK_COMPONENT_PYTHON_DESCRIPTION
       "This package is the Python 3 module onnx_run, an ONNX backend over the\n"
       "onnx-run command line.\n"
       "onnx_run.backend implements onnx.backend.base.Backend (prepare, run,\n"
       "run_node, supports_device) by running onnx-run, so ONNX's own backend\n"
       "test runner and pytest suites can drive it; python3 -m\n"
       "onnx_run.backend_test runs ONNX's runner over a test data folder.")
include(CPack)
