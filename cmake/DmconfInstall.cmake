# What `cmake --install` puts under a prefix, and the Debian package CPack builds from it
# (docs/install.md):
#   bin/dmconf                                 the command line
#   lib/dmconf/libdmconf_plugin_example.so     the example plugin (--backend example)
#   include/dmconf/dmconf_plugin.h             the plugin C ABI (#include <dmconf/dmconf_plugin.h>)
#   share/dmconf/vectors/{golden,shapes}       the golden vector and shape-case sets
#   share/dmconf/schemas/                      report, vector and shape-case JSON schemas
#   share/dmconf/node/                         the Node adapters (`dmconf vectors run-onnx`'s
#                                              runner, --backend onnxruntime / tfjs) and their
#                                              pinned npm lock (node_modules: --install)
#   share/doc/dmconf/                          README and docs
#   lib/cmake/dmconf/                          the CMake package: find_package(dmconf CONFIG)
# The folders are set in cmake/DmconfInstallDirs.cmake.
include(CMakePackageConfigHelpers)

install(TARGETS dmconf RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The example plugin, which `--backend example` and `--backend all` load; an installed dmconf
# finds it relative to itself (harness/backends/registry/builtin_files.h). The test plugins
# (fault-*) are not installed.
install(TARGETS dmconf_plugin_example LIBRARY DESTINATION ${DMCONF_INSTALL_PLUGINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/harness/plugin/dmconf_plugin.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dmconf)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/vectors/golden ${PROJECT_SOURCE_DIR}/vectors/shapes
        DESTINATION ${DMCONF_INSTALL_DATADIR}/vectors)
install(FILES ${PROJECT_SOURCE_DIR}/reports/dmconf-report-2.schema.json
              ${PROJECT_SOURCE_DIR}/vectors/schema/dmconf-vector-1.schema.json
              ${PROJECT_SOURCE_DIR}/vectors/schema/dmconf-shape-case-1.schema.json
        DESTINATION ${DMCONF_INSTALL_DATADIR}/schemas)
# The Node adapters: run-onnx's runner and the onnxruntime / tfjs backends (--backend
# onnxruntime), with their pinned npm lock; node_modules are installed there by --install.
set(_node ${PROJECT_SOURCE_DIR}/harness/backends/subprocess/node)
install(FILES ${_node}/run_onnx_tests.js ${_node}/adapter.js ${_node}/protocol.js
              ${_node}/onnx_model.js ${_node}/onnxruntime_adapter.js ${_node}/tfjs_adapter.js
              ${_node}/package.json ${_node}/package-lock.json
        DESTINATION ${DMCONF_INSTALL_DATADIR}/node)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/dmconfConfig.cmake.in ${PROJECT_BINARY_DIR}/dmconfConfig.cmake
  INSTALL_DESTINATION ${DMCONF_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_INCLUDEDIR DMCONF_INSTALL_DATADIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/dmconfConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/dmconfConfig.cmake
              ${PROJECT_BINARY_DIR}/dmconfConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/DmconfBackendTests.cmake
              ${PROJECT_SOURCE_DIR}/cmake/DmconfBackendTestsDiscover.cmake
        DESTINATION ${DMCONF_INSTALL_CMAKEDIR})

# The Debian package: `cpack -G DEB` in a build folder (scripts/package-deb.sh builds the
# release preset and runs it). Shared-library dependencies are computed by dpkg-shlibdeps.
set(CPACK_PACKAGE_NAME dmconf)
set(CPACK_PACKAGE_VENDOR "dmconf")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "dmconf maintainers <dmconf@localhost>")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# What the installed CMake package needs besides the binary: cmake for find_package and ctest.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "cmake")
include(CPack)
