// The `npuconf` command line: run, check, case, list. Returns the process exit
// code (DESIGN.md): 0 conformant, 1 non-conformant, 2 bad usage or input,
// 3 the port could not be loaded or crashed, 4 nothing was checked.
#pragma once

#include <iosfwd>

namespace npuconf {

int RunCli(int argc, char** argv, std::ostream& out, std::ostream& err);

}  // namespace npuconf
