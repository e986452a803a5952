# Read by ctest (a TEST_INCLUDE_FILES script of dmconf_add_backend_tests, DmconfBackendTests.cmake)
# each time it loads the tests: asks the plugin which ops and lanes it declares
# (`dmconf backends --backend-lib PLUGIN --lanes`) and registers the tests of those only.
#   - an asked op and lane the plugin declares: dmconf.<name>.<op>.<lane>, a `dmconf run` of
#     that op and lane that fails when it ran no case (--require-cases) or when a declared slice
#     ran none of its cases (--strict-coverage);
#   - the vectors lane: for an op the plugin declares in either lane;
#   - an asked op the plugin declares in no lane: one test dmconf.<name>.<op>.not_provided,
#     disabled (ctest lists it as "Not Run (Disabled)"), never a pass;
#   - a plugin that cannot be asked (not built yet, or it does not load): one test
#     dmconf.<name>.discovery that runs the question again and fails with its answer.
# Set by the generated script that includes this file: _dmconf, _plugin, _name, _ops (pairs
# "<canonical op>=<op as given>"), _lanes, _common (the run's shared arguments), _out, _vectors.
execute_process(COMMAND "${_dmconf}" backends --backend-lib "${_plugin}" --lanes
                OUTPUT_VARIABLE _dmconf_declared ERROR_VARIABLE _dmconf_error
                RESULT_VARIABLE _dmconf_status TIMEOUT 120)
if(NOT _dmconf_status EQUAL 0)
  add_test("dmconf.${_name}.discovery" "${_dmconf}" backends --backend-lib "${_plugin}" --lanes)
  set_tests_properties("dmconf.${_name}.discovery" PROPERTIES LABELS "dmconf" TIMEOUT 120)
  return()
endif()
string(REPLACE "\n" ";" _dmconf_lines "${_dmconf_declared}")
foreach(_line IN LISTS _dmconf_lines)
  if(_line MATCHES "^([A-Za-z]+) (.+)$")
    string(REPLACE " " ";" "_dmconf_has_${CMAKE_MATCH_1}" "${CMAKE_MATCH_2}")
  endif()
endforeach()
foreach(_pair IN LISTS _ops)
  string(REPLACE "=" ";" _pair "${_pair}")
  list(GET _pair 0 _canonical)
  list(GET _pair 1 _op)
  set(_declared "${_dmconf_has_${_canonical}}")
  list(REMOVE_ITEM _declared "-")
  if(NOT _declared)
    set(_test "dmconf.${_name}.${_op}.not_provided")
    add_test("${_test}" "${_dmconf}" backends --backend-lib "${_plugin}" --lanes)
    set_tests_properties("${_test}" PROPERTIES DISABLED TRUE LABELS "dmconf;dmconf-${_op}")
    continue()
  endif()
  foreach(_lane IN LISTS _lanes)
    if(_lane STREQUAL "kernel")
      set(_lane_args --no-shapes)
    elseif(_lane STREQUAL "shape")
      set(_lane_args --no-kernels)
    else()
      set(_lane_args --vectors "${_vectors}/golden" --vectors "${_vectors}/shapes" --no-catalogue)
    endif()
    # list(FIND), not IN_LIST: ctest reads this without the project's policies (CMP0057).
    list(FIND _declared "${_lane}" _at)
    if(NOT _lane STREQUAL "vectors" AND _at EQUAL -1)
      continue()
    endif()
    set(_test "dmconf.${_name}.${_op}.${_lane}")
    add_test("${_test}" "${_dmconf}" run ${_common} --ops ${_op} ${_lane_args} --quiet
             --require-cases --strict-coverage --report "${_out}/${_op}.${_lane}.json"
             --junit "${_out}/${_op}.${_lane}.xml" --failures "${_out}/failures")
    set_tests_properties("${_test}" PROPERTIES LABELS "dmconf;dmconf-${_op};dmconf-${_lane}"
                         TIMEOUT 1800)
  endforeach()
endforeach()
