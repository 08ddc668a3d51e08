# Installing and packaging: `cmake --install build` puts the binary, the man page and the
# bash completion in the usual places under the prefix; `cpack -G DEB` (from the build
# folder) makes onnx-run_<version>_<arch>.deb whose Depends come from dpkg-shlibdeps
# (Debian's dpkg-dev), so they name exactly the shared libraries the binary links: none
# for the default static executable (ONNXRUN_STATIC), libc, libstdc++, libprotobuf and
# the others for a dynamic one.
# tools/test-deb.sh proves the .deb installs with apt on a clean Debian 12 and runs.
include(GNUInstallDirs)

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
include(CPack)
