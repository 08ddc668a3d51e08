# The CMake package of onnx-run: find_package(onnx-run) in another project gives
# onnx_run_add_tests() (cmake/package/OnnxRunTests.cmake) and the installed executable.
# Installed under <datadir>/cmake/onnx-run (find_package's <prefix>/share/<name>*/cmake
# search path): it holds no library, only the function and the executable's location,
# which the config computes relative to itself (so `cmake --install --prefix` anywhere works).
include(CMakePackageConfigHelpers)
set(ONNXRUN_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/cmake/onnx-run)
file(RELATIVE_PATH ONNXRUN_BINDIR_FROM_CMAKEDIR "/prefix/${ONNXRUN_CMAKE_INSTALL_DIR}" "/prefix/${CMAKE_INSTALL_BINDIR}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/package/onnx-runConfig.cmake.in
               ${PROJECT_BINARY_DIR}/cmake-package/onnx-runConfig.cmake @ONLY)
# A request for version V is served by any installed V or later of the same major number;
# the package has no architecture.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake-package/onnx-runConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/cmake-package/onnx-runConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake-package/onnx-runConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/package/OnnxRunTests.cmake
        DESTINATION ${ONNXRUN_CMAKE_INSTALL_DIR})
