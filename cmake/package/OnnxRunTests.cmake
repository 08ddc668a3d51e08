# onnx_run_add_tests(PATH <dir>... [LABELS <label>...] [RTOL <r>] [ATOL <a>] [STRICT])
#
# Registers every model test under each PATH as a ctest test of its own, so that
# `ctest -j`, `ctest -L`, CDash and ctest's scheduling see one entry per model. A model
# test is a folder holding model.onnx beside test_data_set_*/ folders (the ONNX test
# layout); they are found when CMake configures (file(GLOB_RECURSE), CONFIGURE_DEPENDS so
# that a build notices new ones). Each test is named by its folder's path relative to
# PATH (a PATH that is itself a model folder: its name) and runs
#   onnx-run test <folder> [--rtol R] [--atol A] [--strict]
# so it passes when every test set matches, fails on a mismatch or an error, and is
# reported skipped when onnx-run does not implement something the model uses (with
# STRICT, it fails instead). LABELS are set on every test registered by the call.
# REQUIRES: ONNX_RUN_EXECUTABLE (onnx-runConfig.cmake sets it).
function(onnx_run_add_tests)
  cmake_parse_arguments(PARSE_ARGV 0 arg "STRICT" "RTOL;ATOL" "PATH;LABELS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "onnx_run_add_tests: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_PATH)
    message(FATAL_ERROR "onnx_run_add_tests: PATH <dir>... is required")
  endif()
  set(options "")
  if(DEFINED arg_RTOL)
    list(APPEND options --rtol ${arg_RTOL})
  endif()
  if(DEFINED arg_ATOL)
    list(APPEND options --atol ${arg_ATOL})
  endif()
  if(arg_STRICT)
    list(APPEND options --strict)
  endif()
  foreach(root IN LISTS arg_PATH)
    get_filename_component(root "${root}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT IS_DIRECTORY "${root}")
      message(FATAL_ERROR "onnx_run_add_tests: PATH ${root} is not a folder")
    endif()
    file(GLOB_RECURSE models LIST_DIRECTORIES false CONFIGURE_DEPENDS "${root}/model.onnx" "${root}/*/model.onnx")
    list(SORT models)
    set(found 0)
    foreach(model IN LISTS models)
      get_filename_component(dir "${model}" DIRECTORY)
      file(GLOB sets LIST_DIRECTORIES true "${dir}/test_data_set_*")
      if(NOT sets)
        continue()  # a model without test data is not a test
      endif()
      file(RELATIVE_PATH name "${root}" "${dir}")
      if(name STREQUAL "")
        get_filename_component(name "${dir}" NAME)
      endif()
      if(TEST "${name}")
        message(FATAL_ERROR "onnx_run_add_tests: a test named ${name} exists already (from ${dir})")
      endif()
      add_test(NAME "${name}" COMMAND "${ONNX_RUN_EXECUTABLE}" test "${dir}" ${options})
      if(NOT arg_STRICT)
        # onnx-run test exits 0 for a model it does not implement: ctest says skipped.
        set_tests_properties("${name}" PROPERTIES SKIP_REGULAR_EXPRESSION "[^0-9]1 unsupported,")
      endif()
      if(arg_LABELS)
        set_tests_properties("${name}" PROPERTIES LABELS "${arg_LABELS}")
      endif()
      math(EXPR found "${found} + 1")
    endforeach()
    if(found EQUAL 0)
      message(WARNING "onnx_run_add_tests: no model folder (model.onnx beside test_data_set_*) under ${root}")
    endif()
  endforeach()
endfunction()
