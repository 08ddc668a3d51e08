# cmake -DEXE=<installed onnx-run> -DREADELF=<readelf> [-DMAX_BYTES=N] -P check_installed_binary.cmake
# What `cmake --install` puts in bin/ is a package's binary: stripped of its debug
# information and, in a release build, at most MAX_BYTES (16 MiB; the build tree's copy,
# with its debug information, is over 100 MB).
file(SIZE "${EXE}" size)
if(MAX_BYTES AND size GREATER MAX_BYTES)
  math(EXPR mib "${MAX_BYTES} / 1024 / 1024")
  message(FATAL_ERROR "${EXE} is ${size} bytes, over the ${mib} MiB an installed onnx-run may take")
endif()
execute_process(COMMAND "${READELF}" -S -W "${EXE}" OUTPUT_VARIABLE sections RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${READELF} -S ${EXE} failed: ${rc}")
endif()
if(sections MATCHES "\\.debug_info")
  message(FATAL_ERROR "${EXE} carries debug information (.debug_info): the install did not strip it")
endif()
message("${EXE}: ${size} bytes, no debug information")
