// The GoogleTest adapter on a port linked into this program that crashes on
// every call (tests/ports/crash_port.c): each test fails naming the crash, and
// the program runs every test. Run by tests/gtest_adapter_test.cpp.
#include <npuconf/gtest.h>

extern "C" const npuconf_port* npuconf_port_entry(uint32_t abi_version);

NPUCONF_GTEST_CONFORMANCE(CrashLinked, {.entry = npuconf_port_entry,
                                        .profiles = {"ascend910b"},
                                        .cases = 5,
                                        .suite_name = "CrashLinked"});
