#include "reports/report_writer.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "core/interrupt.h"
#include "core/status.h"
#include "reports/matrix.h"

namespace npuconf::report {

std::string RemoveStaleReports(const std::string& dir) {
  for (const char* name : {"report.json", "junit.xml", "report.md", "report.html", "failures"}) {
    const std::filesystem::path path = std::filesystem::path(dir) / name;
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
    if (ec) return "cannot remove the stale report '" + path.string() + "': " + ec.message();
  }
  return {};
}

std::string LockReportDir(const std::string& dir) {
  static std::string locked;  // the directory this process holds (one per run)
  if (!locked.empty() && locked == dir) return {};
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return "cannot open --out '" + dir + "' to lock it: " + std::strerror(errno);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd);
    if (error == EWOULDBLOCK) {
      return "another npuconf run is writing its reports into --out '" + dir +
             "' (it holds the directory's lock); wait for it to end or give another --out";
    }
    return "cannot lock --out '" + dir + "': " + std::strerror(error);
  }
  locked = dir;  // the descriptor stays open: the lock lasts the run
  return {};
}

std::string WriteFileAtomically(const std::string& path, const std::string& text) {
  const std::string temp = path + ".tmp";
  // A signal mid-write removes the temporary (core/interrupt.h); `path` keeps its last whole text.
  interrupt::AddFile(temp);
  struct Forget {
    const std::string& temp;
    ~Forget() { interrupt::RemoveFile(temp); }
  } forget{temp};
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return "cannot write '" + temp + "': " + std::strerror(errno);
  const char* data = text.data();
  size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      ::unlink(temp.c_str());
      return "cannot write '" + temp + "': " + why;
    }
    data += n;
    left -= static_cast<size_t>(n);
  }
  if (::close(fd) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(temp.c_str());
    return "cannot write '" + temp + "': " + why;
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(temp.c_str());
    return "cannot rename '" + temp + "' to '" + path + "': " + why;
  }
  return {};
}

std::string WriteReportsAtomically(const RunReport& report, const std::string& dir, bool complete) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return "cannot create report directory '" + dir + "': " + ec.message();
  nlohmann::json doc = ToJson(report);
  doc["complete"] = complete;
  if (!complete) {
    // Nothing is conformant before the run ends.
    doc["conformant"] = false;
    // Nor is it "nothing checked" (that reads as a port claiming nothing, breaker
    // F9): a run that stopped early, or is still going, is incomplete.
    if (doc["verdict"] == ToString(Verdict::kConformant) ||
        doc["verdict"] == ToString(Verdict::kNothingChecked))
      doc["verdict"] = "INCOMPLETE";
  }
  // report.json last: when it says complete, the other files are too.
  std::string markdown = ToMarkdown(report);
  if (!complete) {
    // The verdict line of an unfinished run must not read as a pass.
    if (const size_t at = markdown.find("✅ CONFORMANT"); at != std::string::npos) {
      markdown.replace(at, std::string("✅ CONFORMANT").size(), "⏳ INCOMPLETE, no failure so far");
    }
    markdown =
        "> **INCOMPLETE**: the run has not finished (or died); these are the results so "
        "far.\n\n" +
        markdown;
  }
  const std::string json = doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::vector<std::pair<std::string, std::string>> files = {
      {"junit.xml", ToJunitXml(report, complete)}, {"report.md", markdown}};
  // The self-contained page only once, at the end: it is the costliest to render.
  if (complete) files.emplace_back("report.html", ToHtml(report, doc));
  files.emplace_back("report.json", json);
  for (const auto& [name, text] : files) {
    if (std::string error = WriteFileAtomically(dir + "/" + name, text); !error.empty()) {
      return error;
    }
  }
  return {};
}

int RunExitCode(const RunReport& report) {
  if (EmptyShard(report)) return kExitConformant;
  switch (VerdictOf(report)) {
    case Verdict::kNonConformant:
      return kExitNonConformant;
    case Verdict::kConformant:
      return kExitConformant;
    case Verdict::kNothingChecked:
      break;
  }
  return kExitNothingChecked;
}

}  // namespace npuconf::report
