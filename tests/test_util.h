// Helpers for the suite's own tests: run the npuconf binary and read what it
// wrote.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace npuconf::testing {

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs `command` in /bin/sh; returns its exit code and output.
inline CommandResult RunShell(const std::string& command) {
  CommandResult result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> chunk{};
  size_t n = 0;
  while ((n = fread(chunk.data(), 1, chunk.size(), pipe)) > 0)
    result.output.append(chunk.data(), n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

inline std::string DefaultOut();

// `npuconf ARGS`. A `run` that names no --out writes into a directory of this
// test process's own, never into the shared ./npuconf-report, whose lock
// another test's run may hold at the same moment (ctest -j).
inline CommandResult RunNpuconf(const std::string& args) {
  const bool own_out = args.rfind("run", 0) == 0 && args.find("--out") == std::string::npos &&
                       args.find("--help") == std::string::npos;
  return RunShell(std::string(NPUCONF_BINARY) + " " + args +
                  (own_out ? " --out " + DefaultOut() : ""));
}

// A fresh directory under the system temp dir, removed by the destructor.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    path_ =
        std::filesystem::temp_directory_path() /
        ("npuconf-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string path() const { return path_.string(); }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

// The --out of RunNpuconf's runs that name none: one per test process.
inline std::string DefaultOut() {
  static const TempDir dir("default-out");
  return dir.path();
}

inline nlohmann::json ReadJson(const std::string& path) {
  std::ifstream file(path);
  return nlohmann::json::parse(file);
}

// The whole file; "" when it cannot be read.
inline std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

}  // namespace npuconf::testing
