# Compiles through ccache when it is installed (scripts/install-deps.sh installs it) and no
# launcher was chosen. Paths are hashed relative to the source tree (base_dir) and the build
# folder is left out of the hash (hash_dir=false), so that two checkouts of the same commit, or
# a fresh clone in CI, reuse each other's objects. -DDMCONF_CCACHE=OFF turns it off.
if(DMCONF_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(DMCONF_CCACHE_PROGRAM ccache)
  if(DMCONF_CCACHE_PROGRAM)
    set(_dmconf_launcher env "CCACHE_BASEDIR=${CMAKE_SOURCE_DIR}" CCACHE_NOHASHDIR=1
        "${DMCONF_CCACHE_PROGRAM}")
    set(CMAKE_C_COMPILER_LAUNCHER ${_dmconf_launcher})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${_dmconf_launcher})
  endif()
endif()
