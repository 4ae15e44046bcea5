#include "cli/options.h"

#include <charconv>
#include <filesystem>

#include "cli/families.h"
#include "core/status.h"
#include "rapidcheck/detail/Configuration.h"

namespace npuconf {

CLI::Validator IntegerIn(int64_t lo, int64_t hi) {
  const std::string range = std::to_string(lo) + " to " + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        int64_t value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size() || value < lo || value > hi) {
          return "'" + text + "' is not an integer from " + range;
        }
        return {};
      },
      "INT in " + range);
}

CLI::Validator Unsigned64() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        uint64_t value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || text[0] == '-' || text[0] == '+' || ec != std::errc() ||
            end != text.data() + text.size()) {
          return "'" + text + "' is not an integer from 0 to 18446744073709551615";
        }
        return {};
      },
      "UINT64");
}

std::string CheckRcReproduce(const std::string& text) {
  rc::detail::Configuration config;
  try {
    config = rc::detail::configFromString(text);
  } catch (const std::exception& e) {
    return "--rc-reproduce '" + text + "' is malformed: " + e.what();
  }
  if (config.reproduce.empty()) {
    return "--rc-reproduce '" + text +
           "' holds no reproduce= entry (copy rapidcheck_reproduce from report.json)";
  }
  for (const auto& [id, reproduce] : config.reproduce) {
    const size_t at = id.rfind('@');
    const std::string property = id.substr(0, at);
    const std::string profile = at == std::string::npos ? "" : id.substr(at + 1);
    if (!BuiltinSuite().FindProperty(property) || !FindProfile(profile)) {
      return "--rc-reproduce '" + text + "' replays '" + id +
             "', which is no property@profile of npuconf";
    }
  }
  return {};
}

std::string CheckSubcommand(int argc, char** argv, const std::vector<std::string>& names) {
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') continue;
    for (const auto& name : names) {
      if (word == name) return {};
    }
    std::string known;
    for (const auto& name : names) known += (known.empty() ? "" : ", ") + name;
    return "unknown subcommand '" + word + "' (" + known + ")";
  }
  return {};
}

std::string JoinGlobs(const std::vector<std::string>& globs) {
  std::string out;
  for (const auto& glob : globs) out += (out.empty() ? "" : ",") + glob;
  return out.empty() ? "*" : out;
}

int ParseSubcommand(CLI::App& app, int argc, char** argv, const std::string& program,
                    std::ostream& out, std::ostream& err) {
  try {
    app.parse(argc - 1, argv + 1);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      app.exit(e, out, err);
      return kExitConformant;
    }
    err << program << ": " << e.what() << "\n";
    return kExitBadUsage;
  }
  return -1;
}

std::string AbsoluteProgram(int argc, char** argv) {
  const std::string given = argc > 0 && argv[0] ? argv[0] : "";
  if (given.find('/') != std::string::npos)
    return std::filesystem::absolute(given).lexically_normal().string();
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec && !self.empty()) return self.string();
  return given.empty() ? "npuconf" : given;
}

}  // namespace npuconf
