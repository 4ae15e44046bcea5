#include "cli/fingerprint.h"

#include <fstream>
#include <iterator>

#include "core/digest.h"
#include "reference/simd/isa.h"

namespace npuconf {

std::string FileIdentity(const std::string& path, std::string* error) {
  if (path.empty()) return "none";
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    *error = "cannot read '" + path + "' to take its digest for the run fingerprint";
    return {};
  }
  const std::string bytes((std::istreambuf_iterator<char>(file)), {});
  if (file.bad()) {
    *error = "cannot read '" + path + "' to take its digest for the run fingerprint";
    return {};
  }
  return DigestText({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
}

std::string PortIdentity(const std::string& port_arg, std::string* error) {
  const std::string suite = std::string(" (built in, npuconf ") + NPUCONF_SUITE_VERSION + ")";
  if (port_arg == "reference") return "reference" + suite;
  if (port_arg.rfind("mutant:", 0) == 0) return port_arg + suite;
  if (port_arg.rfind("exec:", 0) == 0) return port_arg;
  const std::string digest = FileIdentity(port_arg, error);
  return digest.empty() ? std::string() : "shared library " + digest;
}

report::Fingerprint RunFingerprint(const FingerprintOptions& o, const Port& port,
                                   std::string* error) {
  report::Fingerprint f;
  f["suite_version"] = NPUCONF_SUITE_VERSION;
  f["port"] = PortIdentity(o.port_arg, error);
  std::string claims;
  for (const std::string& c : port.claims()) claims += (claims.empty() ? "" : "; ") + c;
  f["claims"] = claims;
  f["isa"] = simd::IsaName(simd::ActiveIsa());
  f["seed"] = std::to_string(o.seed);
  f["cases"] = std::to_string(o.cases);
  f["real_shapes"] = !o.real_shapes ? "off"
                     : o.real_shapes_file.empty()
                         ? "built-in"
                         : "file " + FileIdentity(o.real_shapes_file, error);
  f["max_case_bytes"] = std::to_string(o.max_case_bytes);
  f["timeout_ms"] = std::to_string(o.timeout_ms);
  f["determinism_every"] = std::to_string(o.determinism_every);
  f["in_process"] = o.in_process ? "yes" : "no";
  f["waivers"] = FileIdentity(o.waivers_file, error);
  return f;
}

}  // namespace npuconf
