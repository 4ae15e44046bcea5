// The GoogleTest adapter on two ports: the template port linked into this
// program (examples/port_template, correct: its tests pass), and the crash port
// as a library (tests/ports/crash_port.c: every call segfaults; each test fails
// with the signal and the program goes on). Run by tests/gtest_adapter_test.cpp.
#include <npuconf/gtest.h>

extern "C" const npuconf_port* npuconf_port_entry(uint32_t abi_version);

NPUCONF_GTEST_CONFORMANCE(Template, {.entry = npuconf_port_entry,
                                     .profiles = {"ascend910b"},
                                     .cases = 30,
                                     .reproduce_port = NPUCONF_TEMPLATE_PORT,
                                     .suite_name = "Template"});

NPUCONF_GTEST_CONFORMANCE(CrashIsolated, {.library = NPUCONF_CRASH_PORT,
                                          .profiles = {"ascend910b"},
                                          .cases = 5,
                                          .timeout_ms = 5000,
                                          .suite_name = "CrashIsolated"});
