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
#include "reports/result_json.h"

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

namespace {

std::string& FailingWrite() {
  static std::string name;  // FailNextReportWriteForTesting
  return name;
}

// Writes `text` to `temp` (created or truncated). The error, empty on success;
// on an error `temp` is removed.
std::string WriteTemp(const std::string& temp, const std::string& text) {
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return "cannot write '" + temp + "': " + std::strerror(errno);
  const char* data = text.data();
  size_t left = text.size();
  const bool fail =
      !FailingWrite().empty() && std::filesystem::path(temp).filename() == FailingWrite() + ".tmp";
  if (fail) {
    FailingWrite().clear();
    ::close(fd);
    ::unlink(temp.c_str());
    return "cannot write '" + temp + "': " + std::strerror(ENOSPC);
  }
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
  return {};
}

// Removes every temporary of a set from the interrupt handler's list on scope exit.
struct ForgetTemps {
  std::vector<std::string> temps;
  ~ForgetTemps() {
    for (const auto& t : temps) interrupt::RemoveFile(t);
  }
};

}  // namespace

void FailNextReportWriteForTesting(const std::string& name) { FailingWrite() = name; }

std::string WriteFileAtomically(const std::string& path, const std::string& text) {
  const std::string temp = path + ".tmp";
  // A signal mid-write removes the temporary (core/interrupt.h); `path` keeps its last whole text.
  interrupt::AddFile(temp);
  ForgetTemps forget{{temp}};
  if (std::string error = WriteTemp(temp, text); !error.empty()) return error;
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(temp.c_str());
    return "cannot rename '" + temp + "' to '" + path + "': " + why;
  }
  return {};
}

std::string WriteReportsAtomically(const RunReport& report, const std::string& dir, bool complete,
                                   const std::string& incomplete_reason) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return "cannot create report directory '" + dir + "': " + ec.message();
  // The verdict, once, before anything is rendered: every file says it.
  nlohmann::json doc = ToJson(report);
  doc["complete"] = complete;
  if (!complete) {
    // Nothing is conformant before the run ends.
    doc["conformant"] = false;
    // Nor is it "nothing checked" (that reads as a port claiming nothing, breaker
    // F9): a run that stopped early, or is still going, is incomplete. A run
    // that ended on bad input and checked nothing says so.
    if (doc["verdict"] == ToString(Verdict::kConformant) ||
        (doc["verdict"] == ToString(Verdict::kNothingChecked) && incomplete_reason.empty()))
      doc["verdict"] = "INCOMPLETE";
    if (!incomplete_reason.empty()) doc["incomplete_reason"] = incomplete_reason;
  }
  doc["digest"] = ReportDigest(doc);
  std::string markdown = ToMarkdown(report);
  if (!complete) {
    // The verdict line of an unfinished run must not read as a pass.
    if (const size_t at = markdown.find("✅ CONFORMANT"); at != std::string::npos) {
      markdown.replace(at, std::string("✅ CONFORMANT").size(),
                       incomplete_reason.empty() ? "⏳ INCOMPLETE, no failure so far"
                                                 : "⛔ INCOMPLETE, no failure in what was checked");
    }
    markdown = (incomplete_reason.empty()
                    ? std::string("> **INCOMPLETE**: the run has not finished (or died); these "
                                  "are the results so far.\n\n")
                    : "> **INCOMPLETE**: " + incomplete_reason + "\n\n") +
               markdown;
  }
  const std::string json = doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::vector<std::pair<std::string, std::string>> files = {
      {"junit.xml", ToJunitXml(report, complete, incomplete_reason)}, {"report.md", markdown}};
  // The self-contained page only once, at the end: it is the costliest to render.
  if (complete) files.emplace_back("report.html", ToHtml(report, doc));
  // report.json renamed last: when it says complete, the other files are too.
  files.emplace_back("report.json", json);
  // Phase 1: every file to its temporary; a failure renames nothing.
  ForgetTemps temps;
  for (const auto& [name, text] : files) {
    const std::string temp = dir + "/" + name + ".tmp";
    interrupt::AddFile(temp);
    temps.temps.push_back(temp);
    if (std::string error = WriteTemp(temp, text); !error.empty()) {
      for (const auto& t : temps.temps) ::unlink(t.c_str());
      return error + " (no report file was replaced)";
    }
  }
  // Phase 2: the renames. One that fails takes back the files renamed before
  // it, so the set left is the old one, less those files: never a new verdict
  // in some files beside the old in others.
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string path = dir + "/" + files[i].first;
    if (std::rename(temps.temps[i].c_str(), path.c_str()) != 0) {
      const std::string why = std::strerror(errno);
      for (size_t j = 0; j < i; ++j) ::unlink((dir + "/" + files[j].first).c_str());
      for (size_t j = i; j < files.size(); ++j) ::unlink(temps.temps[j].c_str());
      return "cannot rename '" + temps.temps[i] + "' to '" + path + "': " + why +
             " (the reports renamed before it were removed)";
    }
  }
  // An incomplete set has no page: one left from before would show another verdict.
  if (!complete) ::unlink((dir + "/report.html").c_str());
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
