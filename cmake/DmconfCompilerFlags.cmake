# Warnings (-Wall -Wextra, warning-free on g++ 12 and clang 14) and the sanitizer switch.
set(DMCONF_WARNING_FLAGS -Wall -Wextra)
if(DMCONF_WERROR)
  list(APPEND DMCONF_WARNING_FLAGS -Werror)
endif()

if(DMCONF_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=all)
endif()

# dmconf_target_defaults(<target>): the project's warning flags and include root.
function(dmconf_target_defaults target)
  target_compile_options(${target} PRIVATE ${DMCONF_WARNING_FLAGS})
endfunction()

# libFuzzer coverage instrumentation for everything the fuzz targets link (fuzz/CMakeLists.txt
# links the targets with -fsanitize=fuzzer). Under OSS-Fuzz the engine's own CFLAGS carry it.
if(DMCONF_FUZZ AND CMAKE_CXX_COMPILER_ID MATCHES "Clang" AND NOT DMCONF_FUZZ_ENGINE)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
