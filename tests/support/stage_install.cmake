# cmake -DBUILD=<build dir> -DPREFIX=<dir> -P stage_install.cmake
# A fresh `cmake --install BUILD --prefix PREFIX` (what an earlier run left is removed
# first), for the tests of what onnx-run installs: its CMake package and Python package.
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD}" --prefix "${PREFIX}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD} --prefix ${PREFIX} failed: ${rc}")
endif()
