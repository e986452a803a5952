# dmconf_add_gtest(<name> SOURCES ... [LIBS ...] [LABELS ...])
# A GoogleTest (+ RapidCheck) executable whose tests ctest discovers one by one.
function(dmconf_add_gtest name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest_main GTest::gmock
                        rapidcheck_gtest rapidcheck)
  dmconf_target_defaults(${name})
  # gtest_discover_tests flattens list-valued PROPERTIES, so labels are applied by a script
  # that ctest includes after the discovered tests.
  gtest_discover_tests(${name} TEST_LIST ${name}_TESTS DISCOVERY_TIMEOUT 120)
  set(labels_file "${CMAKE_CURRENT_BINARY_DIR}/${name}_labels.cmake")
  file(WRITE "${labels_file}"
       "if(${name}_TESTS)\n  set_tests_properties(\${${name}_TESTS} PROPERTIES LABELS \"${ARG_LABELS}\")\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${labels_file}")
endfunction()

# dmconf_add_subdirectories(): adds every immediate sub-folder that has a CMakeLists.txt, so a
# new folder needs no edit of its parent.
macro(dmconf_add_subdirectories)
  file(GLOB _dmconf_children LIST_DIRECTORIES true CONFIGURE_DEPENDS
       "${CMAKE_CURRENT_SOURCE_DIR}/*/CMakeLists.txt")
  list(SORT _dmconf_children)
  foreach(_child ${_dmconf_children})
    get_filename_component(_dir "${_child}" DIRECTORY)
    add_subdirectory("${_dir}")
  endforeach()
endmacro()
