#include "cli/open_port.h"

#include <sys/stat.h>

#include "cli/families.h"
#include "conformance/ports/exec_port.h"
#include "conformance/ports/isolated_port.h"
#include "core/status.h"

namespace npuconf {

// "reference", "mutant:NAME", "exec:CMD ARGS", or a path to a shared library:
// isolated in a worker process (conformance/ports/isolated_port.h) unless --in-process.
PortChoice OpenPort(const std::string& arg, const PortOptions& options) {
  PortChoice choice;
  std::vector<std::string> words;
  const std::string split_error =
      arg.rfind("exec:", 0) == 0 ? SplitCommandLine(arg.substr(5), &words) : "";
  if (!split_error.empty()) {
    choice.exit_code = kExitBadUsage;
    choice.error = "--port '" + arg + "': " + split_error;
  } else if (arg.rfind("exec:", 0) == 0 && words.empty()) {
    choice.exit_code = kExitBadUsage;
    choice.error = "--port '" + arg + "' names no command (exec:CMD ARGS)";
  } else if (arg.rfind("exec:", 0) == 0) {
    choice.port = ExecPort::Start(arg.substr(5), options.timeout_ms, &choice.error);
    if (!choice.port) choice.exit_code = kExitPortFailure;
  } else if (arg == "reference") {
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
    // dlopen searches the library path for a name without '/'; a port is a
    // file, so "port.so" means ./port.so.
    const std::string path = arg.find('/') == std::string::npos ? "./" + arg : arg;
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) {
      choice.exit_code = kExitPortFailure;
      choice.error = "no such port library '" + arg + "'";
      return choice;
    }
    if (options.in_process) {
      choice.port = InProcessPort::LoadLibrary(path, &choice.error);
    } else {
      choice.port =
          IsolatedPort::Start(path, options.timeout_ms, options.memory_limit_bytes, &choice.error);
    }
    if (!choice.port) choice.exit_code = kExitPortFailure;
  } else {
    choice.exit_code = kExitBadUsage;
    choice.error =
        "unknown port '" + arg + "': use reference, mutant:NAME, exec:CMD ARGS or a path to a .so";
  }
  return choice;
}

}  // namespace npuconf
