#include "cli/open_port.h"

#include "cli/families.h"
#include "core/status.h"

namespace npuconf {

// "reference", "mutant:NAME", or a path to a shared library.
PortChoice OpenPort(const std::string& arg, const PortOptions& /*options*/) {
  PortChoice choice;
  if (arg == "reference") {
    choice.port = MakeReferencePort();
  } else if (arg.rfind("mutant:", 0) == 0) {
    const Mutant* mutant = FindMutant(arg.substr(7));
    if (!mutant) {
      choice.exit_code = kExitBadUsage;
      choice.error = "unknown mutant '" + arg.substr(7) + "' (npuconf list ports)";
    } else {
      choice.port = MakeMutantPort(*mutant);
    }
  } else if (arg.find('/') != std::string::npos || arg.find(".so") != std::string::npos) {
    choice.port = InProcessPort::LoadLibrary(arg, &choice.error);
    if (!choice.port) choice.exit_code = kExitPortFailure;
  } else {
    choice.exit_code = kExitBadUsage;
    choice.error = "unknown port '" + arg + "': use reference, mutant:NAME or a path to a .so";
  }
  return choice;
}

}  // namespace npuconf
