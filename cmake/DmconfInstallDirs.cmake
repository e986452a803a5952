# Where `cmake --install` puts dmconf's files, relative to the prefix (cmake/DmconfInstall.cmake
# installs them; docs/install.md). Read before the harness is configured: the dmconf binary
# finds its plugins and Node adapters relative to itself, by the paths from the binary's folder
# to these (harness/backends/registry/builtin_files.h), so they must be relative.
include(GNUInstallDirs)
# Architecture-independent data and the CMake package: one path whatever the libdir.
set(DMCONF_INSTALL_CMAKEDIR "lib/cmake/dmconf")
set(DMCONF_INSTALL_DATADIR "${CMAKE_INSTALL_DATADIR}/dmconf")
# dmconf's own plugins (the example plugin of `--backend example` and `--backend all`).
set(DMCONF_INSTALL_PLUGINDIR "lib/dmconf")
foreach(_dir CMAKE_INSTALL_BINDIR CMAKE_INSTALL_DATADIR)
  if(IS_ABSOLUTE "${${_dir}}")
    message(FATAL_ERROR "${_dir} is ${${_dir}}: dmconf finds its own files relative to its "
                        "binary, so its install folders must be relative to the prefix")
  endif()
endforeach()
