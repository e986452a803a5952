# dmconf_add_backend_tests(NAME <name> PLUGIN <target-or-path>
#     [EXPECTATIONS <file>] [LANES kernel shape vectors] [OPS <op>...] [FUZZ_SECONDS <n>]
#     [DMCONF <executable>] [VECTORS <folder>])
#
# Registers ctest tests that run dmconf against a plugin (the C ABI of dmconf_plugin.h), one per
# op and lane that the plugin declares (asked when ctest reads the tests, from the built plugin:
# DmconfBackendTestsDiscover.cmake), named dmconf.<name>.<op>.<lane>, with the labels dmconf,
# dmconf-<op> and dmconf-<lane>. An asked op the plugin does not declare is listed once, as the
# disabled test dmconf.<name>.<op>.not_provided; a test that ran no case fails. The lanes:
#   kernel   the case catalogue, the seeded sweep and the directed sweep (dmconf run's defaults)
#   shape    the shape-inference lane (static and partial cases), for a plugin with infer_static
#            / infer_partial (registered only for such a plugin)
#   vectors  the golden vector and shape-case sets that ship with dmconf
# Each test writes its JSON report and JUnit XML under <build>/dmconf/<name>/, saves failing
# cases under <build>/dmconf/<name>/failures/, and prints every failing case with its one-line
# repro. FUZZ_SECONDS adds dmconf.<name>.fuzz (label dmconf-fuzz): `dmconf fuzz` for that long.
# PLUGIN is a CMake target (a SHARED or MODULE library) or a path to a built plugin; the tests
# depend on nothing else. DMCONF and VECTORS default to the installed package's (find_package) or,
# inside dmconf's own tree, to the in-tree dmconf and vectors/.
# Every argument is checked when the project is configured, each refusal a FATAL_ERROR that
# names its rule (docs/bad-input.md):
#   cmake.backend_tests.args          an unknown argument, or a keyword without its value
#   cmake.backend_tests.name          NAME is the folder <build>/dmconf/<name>/ and part of the
#                                     test names: 1 to 64 of [A-Za-z0-9_.+-], not "." or ".."
#   cmake.backend_tests.plugin        PLUGIN is a target defined before this call (a shared or
#                                     module library) or an existing regular ELF file
#   cmake.backend_tests.ops           OPS: op names dmconf knows (SpaceToBatch, s2b,
#                                     SpaceToBatch-2, ...), each op once
#   cmake.backend_tests.lanes         LANES: kernel, shape, vectors, each once
#   cmake.backend_tests.fuzz_seconds  FUZZ_SECONDS: a whole number of seconds in [1, 86400]
# Where DmconfBackendTestsDiscover.cmake is: beside this file, in the tree and when installed.
set(_DMCONF_BACKEND_TESTS_DIR "${CMAKE_CURRENT_LIST_DIR}")

function(dmconf_add_backend_tests)
  cmake_parse_arguments(ARG "" "NAME;PLUGIN;EXPECTATIONS;FUZZ_SECONDS;DMCONF;VECTORS"
                        "LANES;OPS" ${ARGN})
  set(_rule "dmconf_add_backend_tests: cmake.backend_tests")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${_rule}.args: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(ARG_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "${_rule}.args: ${ARG_KEYWORDS_MISSING_VALUES} given without a value")
  endif()
  if(NOT DEFINED ARG_NAME OR NOT DEFINED ARG_PLUGIN)
    message(FATAL_ERROR "${_rule}.args: NAME and PLUGIN are required")
  endif()

  # NAME: one safe component of a path (<build>/dmconf/<name>/) and of the test names.
  string(LENGTH "${ARG_NAME}" _length)
  if(NOT ARG_NAME MATCHES "^[A-Za-z0-9_.+-]+$" OR ARG_NAME STREQUAL "." OR ARG_NAME STREQUAL ".."
     OR _length GREATER 64)
    message(FATAL_ERROR "${_rule}.name: NAME '${ARG_NAME}' is not a safe file name: 1 to 64 "
                        "letters, digits, '_', '.', '+' or '-', and not '.' or '..' (it names "
                        "the folder dmconf/<name>/ of the reports)")
  endif()

  # PLUGIN: a target defined before this call, or a file that exists now.
  if(TARGET ${ARG_PLUGIN})
    get_target_property(_type ${ARG_PLUGIN} TYPE)
    if(NOT _type MATCHES "^(SHARED_LIBRARY|MODULE_LIBRARY|UNKNOWN_LIBRARY)$")
      message(FATAL_ERROR "${_rule}.plugin: PLUGIN target '${ARG_PLUGIN}' is a ${_type}; a "
                          "plugin is a SHARED or MODULE library")
    endif()
  else()
    get_filename_component(_plugin_file "${ARG_PLUGIN}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${_plugin_file}")
      message(FATAL_ERROR "${_rule}.plugin: PLUGIN '${ARG_PLUGIN}' is neither a target (define "
                          "it before this call) nor an existing file (${_plugin_file})")
    endif()
    # test -f: a regular file (links followed), never a FIFO or device that a read would block on.
    execute_process(COMMAND test -f "${_plugin_file}" RESULT_VARIABLE _not_regular)
    if(_not_regular OR IS_DIRECTORY "${_plugin_file}")
      message(FATAL_ERROR "${_rule}.plugin: PLUGIN ${_plugin_file} is not a regular file")
    endif()
    file(READ "${_plugin_file}" _magic LIMIT 4 HEX)
    if(NOT _magic STREQUAL "7f454c46")
      message(FATAL_ERROR "${_rule}.plugin: PLUGIN ${_plugin_file} is not an ELF file (a plugin "
                          "is a shared library)")
    endif()
  endif()

  set(_all_lanes kernel shape vectors)
  if(NOT ARG_LANES)
    set(ARG_LANES ${_all_lanes})
  endif()
  set(_seen "")
  foreach(_lane IN LISTS ARG_LANES)
    if(NOT _lane IN_LIST _all_lanes)
      message(FATAL_ERROR "${_rule}.lanes: unknown lane '${_lane}' (kernel, shape, vectors)")
    endif()
    if(_lane IN_LIST _seen)
      message(FATAL_ERROR "${_rule}.lanes: lane '${_lane}' is given twice")
    endif()
    list(APPEND _seen ${_lane})
  endforeach()

  # OPS: the names `dmconf run --ops` accepts (oracle/op_case.cc, ParseOp), each op once.
  set(_known_ops SpaceToBatch:s2b:2 BatchToSpace:b2s:2 SpaceToDepth:s2d:1 DepthToSpace:d2s:1
                 ExtractImagePatches:eip:3)
  if(NOT ARG_OPS)
    set(ARG_OPS SpaceToBatch BatchToSpace SpaceToDepth DepthToSpace ExtractImagePatches)
  endif()
  set(_seen "")
  set(_op_pairs "")
  foreach(_op IN LISTS ARG_OPS)
    set(_canonical "")
    foreach(_known IN LISTS _known_ops)
      string(REPLACE ":" ";" _parts "${_known}")
      list(GET _parts 0 _name)
      list(GET _parts 1 _prefix)
      list(GET _parts 2 _version)
      if(_op STREQUAL _name OR _op STREQUAL _prefix OR _op STREQUAL "${_name}-${_version}")
        set(_canonical ${_name})
      endif()
    endforeach()
    if(NOT _canonical)
      message(FATAL_ERROR "${_rule}.ops: unknown op '${_op}' (known: SpaceToBatch, "
                          "BatchToSpace, SpaceToDepth, DepthToSpace, ExtractImagePatches, their "
                          "versioned names such as DepthToSpace-1, or s2b, b2s, s2d, d2s, eip)")
    endif()
    if(_canonical IN_LIST _seen)
      message(FATAL_ERROR "${_rule}.ops: ${_canonical} is given twice (as '${_op}')")
    endif()
    list(APPEND _seen ${_canonical})
    list(APPEND _op_pairs "${_canonical}=${_op}")
  endforeach()

  # FUZZ_SECONDS: what `dmconf fuzz --time` accepts, a whole number at most a day.
  if(DEFINED ARG_FUZZ_SECONDS)
    if(NOT ARG_FUZZ_SECONDS MATCHES "^[1-9][0-9]?[0-9]?[0-9]?[0-9]?$"
       OR ARG_FUZZ_SECONDS GREATER 86400)
      message(FATAL_ERROR "${_rule}.fuzz_seconds: FUZZ_SECONDS '${ARG_FUZZ_SECONDS}' is not a "
                          "whole number of seconds in [1, 86400]")
    endif()
  endif()

  # The dmconf to run and the sets it runs.
  if(ARG_DMCONF)
    set(_dmconf "${ARG_DMCONF}")
  elseif(TARGET dmconf::dmconf)
    set(_dmconf "$<TARGET_FILE:dmconf::dmconf>")
  elseif(TARGET dmconf)
    set(_dmconf "$<TARGET_FILE:dmconf>")
  else()
    message(FATAL_ERROR "${_rule}.args: no dmconf found (find_package(dmconf) first)")
  endif()
  if(ARG_VECTORS)
    set(_vectors "${ARG_VECTORS}")
  elseif(DEFINED DMCONF_VECTORS_DIR)
    set(_vectors "${DMCONF_VECTORS_DIR}")
  else()
    message(FATAL_ERROR "${_rule}.args: no vector sets found (VECTORS <folder>)")
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

  # The per-op tests are registered when ctest reads the tests, from what the built plugin
  # declares (DmconfBackendTestsDiscover.cmake): a script generated here (generator
  # expressions resolved, one per configuration), included through TEST_INCLUDE_FILES.
  set(_script_body "# Generated by dmconf_add_backend_tests(NAME ${ARG_NAME}): do not edit.\n")
  foreach(_var _dmconf _plugin _out _vectors)
    string(APPEND _script_body "set(${_var} [==[${${_var}}]==])\n")
  endforeach()
  string(APPEND _script_body "set(_name [==[${ARG_NAME}]==])\n"
                             "set(_ops [==[${_op_pairs}]==])\n"
                             "set(_lanes [==[${ARG_LANES}]==])\n"
                             "set(_common [==[${_common}]==])\n"
                             "include([==[${_DMCONF_BACKEND_TESTS_DIR}/DmconfBackendTestsDiscover.cmake]==])\n")
  get_property(_multi GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  set(_script "${_out}/ctest-tests")
  if(_multi)
    file(GENERATE OUTPUT "${_script}-$<CONFIG>.cmake" CONTENT "${_script_body}")
    file(WRITE "${_script}.cmake"
         "include(\"${_script}-\${CTEST_CONFIGURATION_TYPE}.cmake\" OPTIONAL)\n")
  else()
    file(GENERATE OUTPUT "${_script}.cmake" CONTENT "${_script_body}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${_script}.cmake")
  if(ARG_FUZZ_SECONDS)
    set(_test "dmconf.${ARG_NAME}.fuzz")
    add_test(NAME ${_test}
             COMMAND "${_dmconf}" fuzz ${_common} --time ${ARG_FUZZ_SECONDS}
                     --failures "${_out}/fuzz-findings")
    math(EXPR _timeout "${ARG_FUZZ_SECONDS} * 2 + 120")
    set_tests_properties(${_test} PROPERTIES LABELS "dmconf;dmconf-fuzz" TIMEOUT ${_timeout})
  endif()
endfunction()
