# Warnings (-Wall -Wextra, warning-free on g++ 12 and clang 14) and the sanitizer switch.
set(DMCONF_WARNING_FLAGS -Wall -Wextra)
if(DMCONF_WERROR)
  list(APPEND DMCONF_WARNING_FLAGS -Werror)
endif()

# No absolute path of this tree in the objects of what is installed (the debug information's
# compilation folder, __FILE__): what `cmake --install` ships names no folder of the machine it
# was built on (docs/install.md; the test package_install_paths greps every installed file).
# Paths in the build folder and the source tree are written relative to them ("./harness/...");
# the build folder's map comes last, so it wins for the build folder inside the source tree.
# oracle/ and harness/ (whose objects make the installed binary and plugin) add these options
# to their folders; the test folders, never installed, keep their compile lines.
set(DMCONF_PATH_MAP_FLAGS "-ffile-prefix-map=${PROJECT_SOURCE_DIR}=."
                          "-ffile-prefix-map=${PROJECT_BINARY_DIR}=.")

if(DMCONF_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=all)
endif()

# dmconf_target_defaults(<target>): the project's warning flags and include root.
function(dmconf_target_defaults target)
  target_compile_options(${target} PRIVATE ${DMCONF_WARNING_FLAGS})
endfunction()

# dmconf_add_c_plugins(<prefix> <source> <macro> <name:value>...): one shared-library plugin
# (C ABI, plain C11, only dmconf_plugin_get visible) per variant, named <prefix><name> and built
# from <source> with -D<macro>=<value>: the test plugins that misbehave on purpose.
function(dmconf_add_c_plugins prefix source macro)
  foreach(_v ${ARGN})
    string(REPLACE ":" ";" _parts "${_v}")
    list(GET _parts 0 _name)
    list(GET _parts 1 _value)
    add_library(${prefix}${_name} SHARED ${source})
    target_include_directories(${prefix}${_name} PRIVATE ${PROJECT_SOURCE_DIR})
    target_compile_definitions(${prefix}${_name} PRIVATE ${macro}=${_value})
    set_target_properties(${prefix}${_name} PROPERTIES C_STANDARD 11 C_VISIBILITY_PRESET hidden)
    dmconf_target_defaults(${prefix}${_name})
  endforeach()
endfunction()

# libFuzzer coverage instrumentation for everything the fuzz targets link (fuzz/CMakeLists.txt
# links the targets with -fsanitize=fuzzer). Under OSS-Fuzz the engine's own CFLAGS carry it.
if(DMCONF_FUZZ AND CMAKE_CXX_COMPILER_ID MATCHES "Clang" AND NOT DMCONF_FUZZ_ENGINE)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
