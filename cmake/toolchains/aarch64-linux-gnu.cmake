# Cross-builds npuconf for aarch64 with Debian's toolchain (g++-aarch64-linux-gnu)
# and the :arm64 library packages installed through multiarch (`make test-arm64`
# installs both): headers are shared in /usr/include, libraries and their CMake
# packages live in /usr/lib/aarch64-linux-gnu. Programs run under
# qemu-user-static with the multiarch root as its sysroot (binfmt is not
# relied on).
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Makes find_package / find_library search lib/aarch64-linux-gnu under /usr,
# never the host's lib/x86_64-linux-gnu.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# FindOpenSSL asks pkg-config first: its arm64 .pc files, not the host's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
# qemu -L: "/", the multiarch root, whose libc6:arm64 comes with the :arm64
# libraries. Not /usr/aarch64-linux-gnu: that cross libc (libc6-arm64-cross,
# another Debian revision) mixed with the multiarch libc6:arm64 that the
# libraries load made every fork() child spin forever under qemu 7.2.
if(NOT DEFINED NPUCONF_QEMU_SYSROOT)
  set(NPUCONF_QEMU_SYSROOT /)
endif()
# CTest runs every test program through it, and so does gtest_discover_tests.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -L ${NPUCONF_QEMU_SYSROOT})
