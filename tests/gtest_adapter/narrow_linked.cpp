// The GoogleTest adapter on a port with narrowed claims linked into this
// program (tests/ports/narrow_port.c: ND <-> NZ for FLOAT16 and INT8, rank <= 3;
// NPUCONF_NARROW_BUG=1 plants a fault inside those claims). Run by
// tests/gtest_adapter_test.cpp.
#include <npuconf/gtest.h>

extern "C" const npuconf_port* npuconf_port_entry(uint32_t abi_version);

NPUCONF_GTEST_CONFORMANCE(Narrow, {.entry = npuconf_port_entry,
                                   .profiles = {"ascend910b"},
                                   .cases = 60,
                                   .reproduce_port = NPUCONF_NARROW_PORT,
                                   .suite_name = "Narrow"});
