#include "conformance/ports/load_errors.h"

namespace npuconf {

std::string ExplainDlopenFailure(const std::string& path, const char* dlerror_text) {
  const std::string why = dlerror_text ? dlerror_text : "dlopen failed";
  std::string hint;
  if (why.find("invalid ELF header") != std::string::npos ||
      why.find("file too short") != std::string::npos ||
      why.find("not an ELF") != std::string::npos ||
      why.find("only ET_DYN and ET_EXEC") != std::string::npos) {
    hint = "not a shared object: build the port with -shared -fPIC";
  } else if (why.find("wrong ELF class") != std::string::npos ||
             why.find("ELF file data encoding") != std::string::npos ||
             why.find("machine") != std::string::npos) {
    hint = "built for another architecture (32/64-bit or CPU) than this npuconf";
  } else if (why.find("undefined symbol") != std::string::npos) {
    hint = "the library needs a symbol nothing provides: link its dependencies into it";
  } else if (why.find("cannot open shared object file") != std::string::npos) {
    hint = "the file or one of its dependencies is missing (ldd shows which)";
  }
  return "cannot load port library '" + path + "': " + why +
         (hint.empty() ? "" : " (" + hint + ")");
}

std::string MissingEntryMessage(const std::string& path) {
  return "port library '" + path +
         "' does not export npuconf_port_entry (a C++ port must declare it extern \"C\" "
         "with default visibility; `nm -D` lists what the library exports)";
}

}  // namespace npuconf
