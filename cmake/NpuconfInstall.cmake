# What `cmake --install` puts under the prefix, and the Debian package of it
# (`make package`). Included by the top-level CMakeLists.txt when NPUCONF_INSTALL.
#
#   bin/npuconf
#   include/npuconf/port.h                       the C port ABI (npuconf::port)
#   lib/cmake/npuconf/                           the CMake package: find_package(npuconf CONFIG)
#     npuconfConfig.cmake, npuconfConfigVersion.cmake
#     npuconfTargets.cmake                       npuconf::port, npuconf::npuconf
#     NpuconfAddPortTest.cmake                   npuconf_add_port_test()
#   lib/python3/dist-packages/npuconf_port/      the Python port helper (on Debian's
#                                                sys.path for the /usr prefix)
#   share/doc/npuconf/                           README.md, docs/, examples/
#   share/npuconf/corpus/                        vectors/corpus (npuconf vectors check)
#
# Every path in the package is relative to the prefix, so an installed tree can
# be moved (or unpacked with dpkg-deb -x) and still be found through
# CMAKE_PREFIX_PATH.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(NPUCONF_CMAKE_DIR lib/cmake/npuconf)
set(NPUCONF_PYTHON_INSTALL_DIR lib/python3/dist-packages)

install(TARGETS npuconf EXPORT npuconfTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS npuconf_port EXPORT npuconfTargets)
install(FILES ${PROJECT_SOURCE_DIR}/include/npuconf/port.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/npuconf)
# The GoogleTest adapter (include/npuconf/gtest.h, npuconf::gtest) is in npuconf's own
# build and under add_subdirectory only: installing it means installing the suite's
# static libraries and their dev packages (README "GoogleTest adapter").

install(EXPORT npuconfTargets NAMESPACE npuconf:: DESTINATION ${NPUCONF_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/npuconfConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/npuconfConfig.cmake
                              INSTALL_DESTINATION ${NPUCONF_CMAKE_DIR}
                              PATH_VARS NPUCONF_PYTHON_INSTALL_DIR)
# npuconf::port is a header; the program is built for this machine's
# architecture, which a consumer's 32/64-bit build does not change.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/npuconfConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/npuconfConfig.cmake
              ${PROJECT_BINARY_DIR}/npuconfConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/NpuconfAddPortTest.cmake
        DESTINATION ${NPUCONF_CMAKE_DIR})

install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/npuconf_port
        DESTINATION ${NPUCONF_PYTHON_INSTALL_DIR} PATTERN __pycache__ EXCLUDE)

install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
# examples/CMakeLists.txt builds the template inside this tree and is left out;
# examples/consumer/ is a project of its own and goes whole.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples
        PATTERN __pycache__ EXCLUDE REGEX "/examples/CMakeLists\\.txt$" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/vectors/corpus/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/npuconf/corpus)

# The Debian package: `make package` (cpack -G DEB in the build directory).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME npuconf)
set(CPACK_PACKAGE_VENDOR "npuconf")
set(CPACK_PACKAGE_CONTACT "npuconf maintainers <npuconf@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "property-based conformance suite for NPU host-side tensor layout routines")
set(CPACK_PACKAGE_DESCRIPTION
    "npuconf checks implementations (ports) of the CANN and RKNN host-side routines that lay out,\n\
size and dequantize tensors against oracles, with shrunk counterexamples and reproducers.\n\
It installs the npuconf program, the C port ABI header, a CMake package\n\
(find_package(npuconf), npuconf_add_port_test) and the npuconf_port Python module.")
set(CPACK_PACKAGE_INSTALL_DIRECTORY npuconf)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # npuconf_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# The runtime libraries of bin/npuconf (libc6, libstdc++6, libssl3, libxxhash0,
# ...) come from dpkg-shlibdeps (Debian's dpkg-dev), read off the binary.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The Python helper, the CMake package and a port's build want these; npuconf
# itself runs without them.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3, cmake")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-numpy, g++")
set(CPACK_STRIP_FILES ON)
include(CPack)
