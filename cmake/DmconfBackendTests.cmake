# dmconf_add_backend_tests(NAME <name> PLUGIN <target-or-path>
#     [EXPECTATIONS <file>] [LANES kernel shape vectors] [OPS <op>...] [FUZZ_SECONDS <n>]
#     [DMCONF <executable>] [VECTORS <folder>])
#
# Registers ctest tests that run dmconf against a plugin (the C ABI of dmconf_plugin.h), one per
# op and lane, named dmconf.<name>.<op>.<lane>, with the labels dmconf, dmconf-<op> and
# dmconf-<lane>:
#   kernel   the case catalogue, the seeded sweep and the directed sweep (dmconf run's defaults)
#   shape    the shape-inference lane (static and partial cases), for a plugin with infer_static
#            / infer_partial (a plugin without them reports its cases as unsupported)
#   vectors  the golden vector and shape-case sets that ship with dmconf
# Each test writes its JSON report and JUnit XML under <build>/dmconf/<name>/, saves failing
# cases under <build>/dmconf/<name>/failures/, and prints every failing case with its one-line
# repro. FUZZ_SECONDS adds dmconf.<name>.fuzz (label dmconf-fuzz): `dmconf fuzz` for that long.
# PLUGIN is a CMake target (a SHARED or MODULE library) or a path to a built plugin; the tests
# depend on nothing else. DMCONF and VECTORS default to the installed package's (find_package) or,
# inside dmconf's own tree, to the in-tree dmconf and vectors/.
function(dmconf_add_backend_tests)
  cmake_parse_arguments(ARG "" "NAME;PLUGIN;EXPECTATIONS;FUZZ_SECONDS;DMCONF;VECTORS"
                        "LANES;OPS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "dmconf_add_backend_tests: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_NAME OR NOT ARG_PLUGIN)
    message(FATAL_ERROR "dmconf_add_backend_tests: NAME and PLUGIN are required")
  endif()
  if(NOT ARG_NAME MATCHES "^[A-Za-z0-9_.-]+$")
    message(FATAL_ERROR "dmconf_add_backend_tests: NAME '${ARG_NAME}' may hold letters, digits, "
                        "'_', '.' and '-' only")
  endif()
  set(_all_lanes kernel shape vectors)
  if(NOT ARG_LANES)
    set(ARG_LANES ${_all_lanes})
  endif()
  foreach(_lane IN LISTS ARG_LANES)
    if(NOT _lane IN_LIST _all_lanes)
      message(FATAL_ERROR "dmconf_add_backend_tests: unknown lane '${_lane}' (kernel, shape, "
                          "vectors)")
    endif()
  endforeach()
  if(NOT ARG_OPS)
    set(ARG_OPS SpaceToBatch BatchToSpace SpaceToDepth DepthToSpace ExtractImagePatches)
  endif()
  if(DEFINED ARG_FUZZ_SECONDS AND NOT ARG_FUZZ_SECONDS MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "dmconf_add_backend_tests: FUZZ_SECONDS is a whole number of seconds")
  endif()

  # The dmconf to run and the sets it runs.
  if(ARG_DMCONF)
    set(_dmconf "${ARG_DMCONF}")
  elseif(TARGET dmconf::dmconf)
    set(_dmconf "$<TARGET_FILE:dmconf::dmconf>")
  elseif(TARGET dmconf)
    set(_dmconf "$<TARGET_FILE:dmconf>")
  else()
    message(FATAL_ERROR "dmconf_add_backend_tests: no dmconf found (find_package(dmconf) first)")
  endif()
  if(ARG_VECTORS)
    set(_vectors "${ARG_VECTORS}")
  elseif(DEFINED DMCONF_VECTORS_DIR)
    set(_vectors "${DMCONF_VECTORS_DIR}")
  else()
    message(FATAL_ERROR "dmconf_add_backend_tests: no vector sets found (VECTORS <folder>)")
  endif()

  if(TARGET ${ARG_PLUGIN})
    set(_plugin "$<TARGET_FILE:${ARG_PLUGIN}>")
  else()
    get_filename_component(_plugin "${ARG_PLUGIN}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  set(_common --backend-lib "${_plugin}")
  if(ARG_EXPECTATIONS)
    get_filename_component(_exp "${ARG_EXPECTATIONS}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND _common --expectations "${_exp}")
  endif()
  set(_out "${CMAKE_CURRENT_BINARY_DIR}/dmconf/${ARG_NAME}")

  foreach(_op IN LISTS ARG_OPS)
    foreach(_lane IN LISTS ARG_LANES)
      if(_lane STREQUAL "kernel")
        set(_lane_args --no-shapes)
      elseif(_lane STREQUAL "shape")
        set(_lane_args --no-kernels)
      else()
        set(_lane_args --vectors "${_vectors}/golden" --vectors "${_vectors}/shapes"
                       --no-catalogue)
      endif()
      set(_test "dmconf.${ARG_NAME}.${_op}.${_lane}")
      add_test(NAME ${_test}
               COMMAND "${_dmconf}" run ${_common} --ops ${_op} ${_lane_args} --quiet
                       --report "${_out}/${_op}.${_lane}.json"
                       --junit "${_out}/${_op}.${_lane}.xml"
                       --failures "${_out}/failures")
      set_tests_properties(${_test} PROPERTIES LABELS "dmconf;dmconf-${_op};dmconf-${_lane}"
                           TIMEOUT 1800)
    endforeach()
  endforeach()
  if(ARG_FUZZ_SECONDS)
    set(_test "dmconf.${ARG_NAME}.fuzz")
    add_test(NAME ${_test}
             COMMAND "${_dmconf}" fuzz ${_common} --time ${ARG_FUZZ_SECONDS}
                     --failures "${_out}/fuzz-findings")
    math(EXPR _timeout "${ARG_FUZZ_SECONDS} * 2 + 120")
    set_tests_properties(${_test} PROPERTIES LABELS "dmconf;dmconf-fuzz" TIMEOUT ${_timeout})
  endif()
endfunction()
