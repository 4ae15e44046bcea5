#include "conformance/ports/exec_port.h"

#include <fcntl.h>
#include <linux/falloc.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/case_json.h"
#include "core/codec.h"
#include "core/interrupt.h"
#include "core/json_text.h"

namespace npuconf {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

// A port's stdout line longer than this (beyond what its outputs need as
// base64) is garbage, not an answer.
constexpr size_t kLineSlackBytes = size_t{16} << 20;
// The handshake gets at least this long: an interpreter has to start first.
constexpr int64_t kMinHandshakeMs = 5000;
// How long a port that closed its stdout gets to exit before it is killed.
constexpr int kExitGraceMs = 1000;

// Replaces every byte that is not part of a well-formed UTF-8 sequence with
// U+FFFD, so a port's text can never make the JSON writer throw.
std::string SanitizeUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<uint8_t>(text[i]);
    size_t length = c < 0x80           ? 1
                    : (c >> 5) == 0x6  ? 2
                    : (c >> 4) == 0xE  ? 3
                    : (c >> 3) == 0x1E ? 4
                                       : 0;
    bool valid = length > 0 && i + length <= text.size();
    for (size_t k = 1; valid && k < length; ++k)
      valid = (static_cast<uint8_t>(text[i + k]) & 0xC0) == 0x80;
    if (valid && length > 1) {
      uint32_t cp = c & (0xFF >> (length + 1));
      for (size_t k = 1; k < length; ++k)
        cp = (cp << 6) | (static_cast<uint8_t>(text[i + k]) & 0x3F);
      const uint32_t min_cp[] = {0, 0, 0x80, 0x800, 0x10000};
      valid = cp >= min_cp[length] && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
    }
    if (!valid) {
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

// The first 80 bytes of a line as readable text: UTF-8 repaired, control
// characters shown as \xNN.
std::string Excerpt(std::string_view line) {
  std::string text;
  for (const char c : line.substr(0, 80)) {
    const auto byte = static_cast<uint8_t>(c);
    if (byte < 0x20 || byte == 0x7F) {
      static const char kHex[] = "0123456789abcdef";
      text += std::string("\\x") + kHex[byte >> 4] + kHex[byte & 0xF];
    } else {
      text += c;
    }
  }
  text = SanitizeUtf8(text);
  return line.size() > 80 ? text + "..." : text;
}

std::string Describe(const json& value) {
  return Excerpt(value.dump(-1, ' ', false, json::error_handler_t::replace));
}

// A line of the port's as JSON, with invalid UTF-8 inside strings replaced
// (a port's bytes, not its syntax); discarded when it is not JSON, and then
// *why says so when the reason is a limit of core/json_text.h (", an array
// nested 65 levels deep, ...").
json ParseLine(const std::string& line, std::string* why) {
  std::string error;
  auto doc = ParseJsonText(line, &error);
  if (!doc) doc = ParseJsonText(SanitizeUtf8(line), &error);
  if (doc) return std::move(*doc);
  if (error.find("kMaxJsonDepth") != std::string::npos) *why = ", " + error;
  return json(json::value_t::discarded);
}

std::string Command(const std::vector<std::string>& argv) {
  std::string text;
  for (const auto& word : argv) text += (text.empty() ? "" : " ") + word;
  return text;
}

int64_t MsLeft(Clock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return std::max<int64_t>(left + 1, 0);
}

void CloseFd(int* fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

enum class Io { kOk, kTimeout, kClosed, kTooLong };

Io WriteAll(int fd, std::string_view data, Clock::time_point deadline) {
  while (!data.empty()) {
    const ssize_t n = write(fd, data.data(), data.size());
    if (n > 0) {
      data.remove_prefix(static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN) return Io::kClosed;  // EPIPE: the child closed its stdin
    pollfd p{.fd = fd, .events = POLLOUT};
    const int64_t left = MsLeft(deadline);
    if (left == 0) return Io::kTimeout;
    const int ready = poll(&p, 1, static_cast<int>(std::min<int64_t>(left, INT32_MAX)));
    if (ready == 0 && MsLeft(deadline) == 0) return Io::kTimeout;
  }
  return Io::kOk;
}

// One line (without its '\n') from the child's stdout.
Io ReadLine(ExecChild& child, Clock::time_point deadline, size_t max_bytes, std::string* line) {
  size_t scanned = 0;
  char chunk[65536];
  while (true) {
    const size_t newline = child.pending.find('\n', scanned);
    if (newline != std::string::npos) {
      line->assign(child.pending, 0, newline);
      child.pending.erase(0, newline + 1);
      return Io::kOk;
    }
    scanned = child.pending.size();
    if (child.pending.size() > max_bytes) {
      *line = child.pending;
      return Io::kTooLong;
    }
    const ssize_t n = read(child.from_child, chunk, sizeof(chunk));
    if (n > 0) {
      child.pending.append(chunk, static_cast<size_t>(n));
      continue;
    }
    if (n == 0) return Io::kClosed;
    if (errno == EINTR) continue;
    if (errno != EAGAIN) return Io::kClosed;
    pollfd p{.fd = child.from_child, .events = POLLIN};
    const int64_t left = MsLeft(deadline);
    if (left == 0) return Io::kTimeout;
    poll(&p, 1, static_cast<int>(std::min<int64_t>(left, INT32_MAX)));
  }
}

// fork + execvp with the child's stdin/stdout on pipes; stderr inherited.
std::string Spawn(const std::vector<std::string>& argv, ExecChild* child) {
  int in[2], out[2], report[2];
  if (pipe2(in, O_CLOEXEC) != 0) return std::string("pipe: ") + strerror(errno);
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]), close(in[1]);
    return std::string("pipe: ") + strerror(errno);
  }
  if (pipe2(report, O_CLOEXEC) != 0) {
    for (int fd : {in[0], in[1], out[0], out[1]}) close(fd);
    return std::string("pipe: ") + strerror(errno);
  }
  std::vector<char*> args;
  for (const auto& word : argv) args.push_back(const_cast<char*>(word.c_str()));
  args.push_back(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {in[0], in[1], out[0], out[1], report[0], report[1]}) close(fd);
    return std::string("fork: ") + strerror(errno);
  }
  if (pid == 0) {
    // The port dies with the runner, so a hanging port never outlives a run.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    signal(SIGPIPE, SIG_DFL);
    dup2(in[0], STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    execvp(args[0], args.data());
    const int error = errno;
    ssize_t ignored = write(report[1], &error, sizeof(error));
    (void)ignored;
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  close(report[1]);
  int error = 0;
  ssize_t n;
  do {
    n = read(report[0], &error, sizeof(error));
  } while (n < 0 && errno == EINTR);
  close(report[0]);
  if (n == static_cast<ssize_t>(sizeof(error))) {
    close(in[1]);
    close(out[0]);
    waitpid(pid, nullptr, 0);
    return "cannot run '" + argv[0] + "': " + strerror(error);
  }
  interrupt::AddChild(pid, interrupt::ChildKind::kProcess);
  fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
  fcntl(out[0], F_SETFL, fcntl(out[0], F_GETFL) | O_NONBLOCK);
  *child = ExecChild{.pid = pid, .owner = parent, .to_child = in[1], .from_child = out[0]};
  return "";
}

std::string ExitText(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const char* abbrev = sigabbrev_np(WTERMSIG(status));
    return std::string("killed by ") +
           (abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(WTERMSIG(status)));
  }
  return "stopped (wait status " + std::to_string(status) + ")";
}

// Reads and checks the handshake line; "" or what was wrong.
std::string ReadHello(ExecChild& child, int64_t timeout_ms, PortHandshake* hello, bool* timed_out,
                      bool* closed) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  std::string line;
  switch (ReadLine(child, deadline, kLineSlackBytes, &line)) {
    case Io::kTimeout:
      *timed_out = true;
      return "printed no handshake within " + std::to_string(timeout_ms) + " ms";
    case Io::kClosed:
      *closed = true;
      return "closed its stdout before the handshake";
    case Io::kTooLong:
      return "printed a handshake line longer than " + std::to_string(kLineSlackBytes) + " bytes";
    case Io::kOk:
      break;
  }
  return ParseHandshakeLine(line, hello);
}

// The bytes a port returned for an output, into the runner's buffer.
void CopyOut(const Bytes& bytes, GuardedBuffer* buffer, OutputResult* out) {
  const uint64_t capacity = buffer->capacity_bytes();
  if (!bytes.empty() && capacity > 0)
    std::memcpy(buffer->data(), bytes.data(), std::min<uint64_t>(bytes.size(), capacity));
  if (bytes.size() > capacity) {
    // What a real overflow does to the guard: broken at the first byte past
    // capacity.
    out->guards_intact = false;
    out->first_bad_offset = static_cast<int64_t>(capacity);
  }
}

// Copies an answer line into `answer`; "" or what in the line breaks the
// protocol.
std::string ApplyAnswer(const json& doc, const Invocation& inv,
                        const std::vector<std::shared_ptr<GuardedBuffer>>& buffers,
                        const std::vector<std::string>& output_paths, Answer* answer) {
  if (!doc.contains("result") || !doc["result"].is_string())
    return "\"result\" must be \"answered\", \"unclaimed\" or \"bad_case\"";
  const std::string result = doc["result"].get<std::string>();
  if (result == "answered") {
    answer->call_result = NPUCONF_CALL_ANSWERED;
  } else if (result == "unclaimed") {
    answer->call_result = NPUCONF_CALL_UNCLAIMED;
  } else if (result == "bad_case") {
    answer->call_result = NPUCONF_CALL_BAD_CASE;
  } else {
    return "result " + Describe(doc["result"]) + " is not answered, unclaimed or bad_case";
  }
  if (doc.contains("status")) {
    const json& status = doc["status"];
    if (!status.is_number_integer() ||
        (status.is_number_unsigned() && status.get<uint64_t>() > INT64_MAX))
      return "status " + Describe(status) + " is not an int64";
    answer->status = status.get<int64_t>();
  } else if (answer->call_result == NPUCONF_CALL_ANSWERED) {
    return "an answered case needs \"status\"";
  }
  if (doc.contains("message")) {
    if (!doc["message"].is_string())
      return "message " + Describe(doc["message"]) + " is not a string";
    answer->message = doc["message"].get<std::string>();
  }
  if (!doc.contains("outputs")) return "";
  if (!doc["outputs"].is_array()) return "\"outputs\" must be a list";
  for (size_t i = 0; i < doc["outputs"].size(); ++i) {
    const json& o = doc["outputs"][i];
    const std::string path = "outputs[" + std::to_string(i) + "]";
    if (!o.is_object() || !o.contains("name") || !o["name"].is_string())
      return path + " must be an object with a \"name\"";
    const std::string name = o["name"].get<std::string>();
    size_t k = 0;
    while (k < inv.outputs.size() && inv.outputs[k].name != name) ++k;
    if (k == inv.outputs.size()) return path + ": the case has no output " + Describe(o["name"]);
    OutputResult& out = answer->outputs[k];
    if (o.contains("dims")) {
      const json& dims = o["dims"];
      if (!dims.is_array() || dims.size() > NPUCONF_MAX_RANK)
        return path + ".dims must be a list of at most " + std::to_string(NPUCONF_MAX_RANK) +
               " integers";
      out.dims.clear();
      for (const auto& d : dims) {
        if (!d.is_number_integer() || (d.is_number_unsigned() && d.get<uint64_t>() > INT64_MAX))
          return path + ".dims " + Describe(dims) + " is not a list of integers";
        out.dims.push_back(d.get<int64_t>());
      }
      out.rank = static_cast<int32_t>(out.dims.size());
    }
    if (o.contains("data")) {
      if (!output_paths[k].empty())
        return path + ".data: output " + Describe(o["name"]) + " goes to its file, not in the line";
      if (!o["data"].is_string()) return path + ".data must be a base64 string";
      auto bytes = Base64Decode(o["data"].get<std::string>());
      if (!bytes) return path + ".data is not padded base64";
      if (inv.outputs[k].null) {
        // As through a null pointer: never a valid answer.
        out.guards_intact = false;
        out.first_bad_offset = 0;
        continue;
      }
      GuardedBuffer& buffer = *buffers[k];
      CopyOut(*bytes, &buffer, &out);
    }
  }
  return "";
}

// Extra time per MiB of tensors a case moves, beyond --timeout-ms.
constexpr int64_t kMsPerMiB = 20;

// Tensors of at least this many bytes travel as files, not base64 in the line.
constexpr uint64_t kFileTensorBytes = uint64_t{1} << 20;

// The tensor files of one request: created before it, removed after it.
class TensorFiles {
 public:
  explicit TensorFiles(uint64_t id) {
    static const std::string dir = [] {
      std::error_code ec;
      if (access("/dev/shm", W_OK | X_OK) == 0) return std::string("/dev/shm");
      return std::filesystem::temp_directory_path(ec).string();
    }();
    prefix_ = dir + "/npuconf-exec-" + std::to_string(getpid()) + "-" + std::to_string(id) + "-";
  }
  ~TensorFiles() {
    for (const auto& path : paths_) {
      unlink(path.c_str());
      interrupt::RemoveFile(path);
    }
  }
  // A new file holding `bytes`, or an empty one with `reserve` bytes of space
  // set aside (an output's capacity, so a port writing it, even through mmap,
  // cannot run out of space: tmpfs answers that with SIGBUS); "" when it cannot
  // be made, and the tensor goes as base64 instead.
  std::string Create(const std::string& tag, std::span<const uint8_t> bytes, uint64_t reserve = 0) {
    const std::string path = prefix_ + std::to_string(count_++) + "-" + tag;
    interrupt::AddFile(path);  // before it exists: a signal in between removes it too
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
      interrupt::RemoveFile(path);
      Warn(path, errno);
      return "";
    }
    size_t done = 0;
    int error = 0;
    while (done < bytes.size()) {
      const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error = n < 0 ? errno : ENOSPC;
        break;
      }
      done += static_cast<size_t>(n);
    }
    if (error == 0 && reserve > 0 &&
        fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, static_cast<off_t>(reserve)) != 0 &&
        errno != EOPNOTSUPP)
      error = errno;
    close(fd);
    if (error != 0) {
      // Removed at once: a half-written file would hold the space the next one needs.
      unlink(path.c_str());
      interrupt::RemoveFile(path);
      Warn(path, error);
      return "";
    }
    paths_.push_back(path);
    return path;
  }

 private:
  // Once per run: the tensors then travel as base64 in the line (slower, still right).
  static void Warn(const std::string& path, int error) {
    static bool warned = false;
    if (warned) return;
    warned = true;
    std::cerr << "npuconf: exec: cannot write the tensor file " << path << ": "
              << std::strerror(error) << (error == ENOSPC ? " (/dev/shm is full)" : "")
              << "; tensors that do not fit go as base64 in the request line instead\n";
  }

  std::string prefix_;
  std::vector<std::string> paths_;
  size_t count_ = 0;
};

// A tensor as the protocol sends it: base64 in the line, or a file for big
// ones.
json TensorJson(DType dtype, const Shape& shape, const Bytes& bytes, const std::string& tag,
                TensorFiles* files) {
  json j = {{"dtype", std::string(Name(dtype))}, {"shape", shape}, {"bytes", bytes.size()}};
  if (bytes.size() >= kFileTensorBytes) {
    if (std::string path = files->Create(tag, bytes); !path.empty()) {
      j["encoding"] = "file";
      j["path"] = path;
      return j;
    }
  }
  j["encoding"] = "base64";
  j["data"] = Base64Encode(bytes);
  return j;
}

// The request line for one case (docs/port-protocol.md, "Request").
std::string RequestLine(uint64_t id, const Invocation& inv, TensorFiles* files,
                        std::vector<std::string>* output_paths) {
  json c = ToJson(inv.c);
  json inputs = json::object();
  for (const auto& t : inv.inputs)
    inputs[t.name] = TensorJson(t.dtype, t.shape, t.bytes, "in", files);
  c["inputs"] = inputs;
  json outputs = json::array();
  output_paths->assign(inv.outputs.size(), "");
  for (size_t i = 0; i < inv.outputs.size(); ++i) {
    const OutputSpec& o = inv.outputs[i];
    json j = {{"name", o.name},
              {"dtype", std::string(Name(o.dtype))},
              {"capacity_bytes", o.capacity_bytes},
              {"null", o.null}};
    if (!o.initial.empty()) j["initial"] = TensorJson(o.dtype, {}, o.initial, "initial", files);
    if (!o.null && o.capacity_bytes >= kFileTensorBytes) {
      // Space for the capacity and a page past it (a write past it is the port's fault).
      (*output_paths)[i] = files->Create("out", {}, o.capacity_bytes + 4096);
      if (!(*output_paths)[i].empty()) j["path"] = (*output_paths)[i];
    }
    outputs.push_back(j);
  }
  c["outputs"] = outputs;
  std::string line =
      json{{"id", id}, {"case", c}}.dump(-1, ' ', false, json::error_handler_t::replace);
  line += '\n';
  return line;
}

// The bytes a port wrote into an output's file; nullopt if it is gone or no
// longer a regular file (a FIFO put in its place must not block the runner).
std::optional<Bytes> ReadOutputFile(const std::string& path, uint64_t max_bytes) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return std::nullopt;
  }
  Bytes bytes(
      static_cast<size_t>(std::min<uint64_t>(static_cast<uint64_t>(st.st_size), max_bytes)));
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  close(fd);
  bytes.resize(done);
  return bytes;
}

}  // namespace

std::string ParseHandshakeLine(const std::string& line, PortHandshake* hello) {
  std::string why;
  json doc = ParseLine(line, &why);
  const std::string got = ": " + Excerpt(line);
  if (!doc.is_object()) return "handshake is not a JSON object" + why + got;
  if (doc.value("protocol", json()) != kPortProtocol)
    return "handshake: \"protocol\" must be \"" + std::string(kPortProtocol) + "\"" + got;
  if (!doc.contains("protocol_version") || !doc["protocol_version"].is_number_integer())
    return "handshake: \"protocol_version\" must be an integer" + got;
  if (doc["protocol_version"].get<int64_t>() != kPortProtocolVersion) {
    return "handshake: the port speaks protocol_version " + Describe(doc["protocol_version"]) +
           ", npuconf speaks " + std::to_string(kPortProtocolVersion);
  }
  if (!doc.contains("name") || !doc["name"].is_string() || doc["name"].get<std::string>().empty())
    return "handshake: \"name\" must be a non-empty string" + got;
  // The limits every port's text keeps (port.h), stated with the value past
  // them.
  auto too_long = [](const std::string& what, const std::string& text) {
    if (text.size() <= kMaxPortStringBytes) return std::string();
    return "handshake: " + what + " is " + std::to_string(text.size()) +
           " bytes, beyond kMaxPortStringBytes (" + std::to_string(kMaxPortStringBytes) +
           "): " + Excerpt(text);
  };
  hello->name = doc["name"].get<std::string>();
  if (std::string e = too_long("\"name\"", hello->name); !e.empty()) return e;
  if (doc.contains("version")) {
    if (!doc["version"].is_string()) return "handshake: \"version\" must be a string" + got;
    hello->version = doc["version"].get<std::string>();
    if (std::string e = too_long("\"version\"", hello->version); !e.empty()) return e;
  }
  if (!doc.contains("claims") || !doc["claims"].is_array())
    return "handshake: \"claims\" must be a list of strings" + got;
  if (doc["claims"].size() > kMaxPortClaims) {
    return "handshake: " + std::to_string(doc["claims"].size()) +
           " claims, beyond kMaxPortClaims (" + std::to_string(kMaxPortClaims) + ")";
  }
  hello->claims.clear();
  for (const auto& claim : doc["claims"]) {
    if (!claim.is_string()) return "handshake: claim " + Describe(claim) + " is not a string";
    hello->claims.push_back(claim.get<std::string>());
    const std::string what = "claim " + std::to_string(hello->claims.size() - 1);
    if (std::string e = too_long(what, hello->claims.back()); !e.empty()) return e;
  }
  return "";
}

// How far a wrong answer id may be from the request's and still be named by its offset.
constexpr uint64_t kNearId = 16;

std::string ParseAnswerLine(const std::string& line, uint64_t id, const Invocation& inv,
                            const std::vector<std::shared_ptr<GuardedBuffer>>& buffers,
                            const std::vector<std::string>& output_paths, Answer* answer) {
  std::string why;
  json doc = ParseLine(line, &why);
  // A fault quotes the answer without its id, and names a wrong id relative to
  // the request's: the request numbers grow, so a port that answers the same
  // case the same way must get the same message (the determinism check
  // compares them).
  auto quoted = [&] {
    if (!doc.is_object() || !doc.contains("id")) return Excerpt(line);
    json without = doc;
    without.erase("id");
    return Describe(without);
  };
  std::string fault;
  if (!doc.is_object()) {
    fault = "printed garbage (not a JSON object" + why + "): " + Excerpt(line);
  } else if (!doc.contains("id")) {
    fault = "answered without an id: " + quoted();
  } else if (!doc["id"].is_number_unsigned()) {
    fault = "answered id " + Describe(doc["id"]) + ", not the request's number: " + quoted();
  } else if (const uint64_t got = doc["id"].get<uint64_t>(); got != id) {
    // Near the request's id (an answer one behind, say): the offset, which a
    // replay repeats. Far from it (a port that always answers one number): no
    // number, which would differ from one request to the next (breaker F10).
    const uint64_t distance = got > id ? got - id : id - got;
    const std::string offset =
        distance > kNearId ? "not within " + std::to_string(kNearId) + " of the request's id"
        : got > id         ? "the request's id +" + std::to_string(distance)
                           : "the request's id -" + std::to_string(distance);
    fault = "answered another request's id (" + offset + "): " + quoted();
  } else if (std::string wrong = ApplyAnswer(doc, inv, buffers, output_paths, answer);
             !wrong.empty()) {
    fault = "printed garbage (" + wrong + "): " + quoted();
  }
  return fault;
}

std::string SplitCommandLine(const std::string& command, std::vector<std::string>* words) {
  words->clear();
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words->push_back(word);
      word.clear();
      in_word = false;
    } else if (c == '\'') {
      const size_t end = command.find('\'', i + 1);
      if (end == std::string::npos) return "unterminated ' in '" + command + "'";
      word += command.substr(i + 1, end - i - 1);
      in_word = true;
      i = end;
    } else if (c == '"') {
      in_word = true;
      for (++i; i < command.size() && command[i] != '"'; ++i) {
        if (command[i] == '\\' && i + 1 < command.size() &&
            (command[i + 1] == '"' || command[i + 1] == '\\'))
          ++i;
        word += command[i];
      }
      if (i >= command.size()) return "unterminated \" in '" + command + "'";
    } else if (c == '\\' && i + 1 < command.size()) {
      word += command[++i];
      in_word = true;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words->push_back(word);
  return "";
}

ExecPort::ExecPort(std::string name, std::string version, std::vector<std::string> claims,
                   std::vector<std::string> argv, int64_t timeout_ms, ExecChild child)
    : Port(std::move(name), std::move(version), std::move(claims)),
      argv_(std::move(argv)),
      timeout_ms_(timeout_ms),
      child_(std::move(child)) {}

ExecPort::~ExecPort() {
  if (child_.pid > 0 && child_.owner == getpid()) {
    // EOF on its stdin is the port's signal to exit; a port that does not is
    // killed.
    CloseFd(&child_.to_child);
    for (int waited = 0; waited < 500; ++waited) {
      if (waitpid(child_.pid, nullptr, WNOHANG) == child_.pid) {
        interrupt::RemoveChild(child_.pid);
        child_.pid = -1;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  Stop(true);
}

std::unique_ptr<ExecPort> ExecPort::Start(const std::string& command, int64_t timeout_ms,
                                          std::string* error) {
  std::vector<std::string> argv;
  if (std::string e = SplitCommandLine(command, &argv); !e.empty()) {
    *error = "exec: " + e;
    return nullptr;
  }
  if (argv.empty()) {
    *error = "exec: no command after 'exec:'";
    return nullptr;
  }
  // A port that dies makes writes to its stdin fail with EPIPE; without this
  // they would kill npuconf.
  signal(SIGPIPE, SIG_IGN);
  ExecChild child;
  if (std::string e = Spawn(argv, &child); !e.empty()) {
    *error = "exec port '" + Command(argv) + "': " + e;
    return nullptr;
  }
  PortHandshake hello;
  bool timed_out = false, closed = false;
  std::string e =
      ReadHello(child, std::max(timeout_ms, kMinHandshakeMs), &hello, &timed_out, &closed);
  if (!e.empty()) {
    if (closed) {
      CloseFd(&child.to_child);
      int status = 0;
      for (int waited = 0; waited < kExitGraceMs; ++waited) {
        if (waitpid(child.pid, &status, WNOHANG) == child.pid) {
          interrupt::RemoveChild(child.pid);
          e += " (" + ExitText(status) + ")";
          child.pid = -1;
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
    if (child.pid > 0) {
      kill(child.pid, SIGKILL);
      waitpid(child.pid, nullptr, 0);
      interrupt::RemoveChild(child.pid);
    }
    CloseFd(&child.to_child);
    CloseFd(&child.from_child);
    *error = "exec port '" + Command(argv) + "': " + e + " (docs/port-protocol.md)";
    return nullptr;
  }
  return std::unique_ptr<ExecPort>(new ExecPort(SanitizeUtf8(hello.name),
                                                SanitizeUtf8(hello.version), hello.claims,
                                                std::move(argv), timeout_ms, std::move(child)));
}

void ExecPort::Stop(bool kill_first) const {
  if (child_.pid > 0 && child_.owner == getpid()) {
    if (kill_first) kill(child_.pid, SIGKILL);
    CloseFd(&child_.to_child);
    CloseFd(&child_.from_child);
    waitpid(child_.pid, nullptr, 0);
    interrupt::RemoveChild(child_.pid);
  }
  // In a fork()ed copy of the runner the child is not ours: only our copies of
  // the fds go.
  CloseFd(&child_.to_child);
  CloseFd(&child_.from_child);
  child_.pid = -1;
  child_.pending.clear();
}

std::string ExecPort::DescribeExit() const {
  // Its stdout closed: it exited or is about to; one that lingers is killed.
  CloseFd(&child_.to_child);
  int status = 0;
  for (int waited = 0; waited < kExitGraceMs; ++waited) {
    if (waitpid(child_.pid, &status, WNOHANG) == child_.pid) {
      interrupt::RemoveChild(child_.pid);
      child_.pid = -1;
      Stop(false);
      return ExitText(status);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  Stop(true);
  return "closed its stdout without answering";
}

std::string ExecPort::EnsureRunning() const {
  if (child_.pid > 0 && child_.owner == getpid()) return "";
  Stop(false);
  if (std::string e = Spawn(argv_, &child_); !e.empty()) return "could not be restarted: " + e;
  PortHandshake hello;
  bool timed_out = false, closed = false;
  std::string e =
      ReadHello(child_, std::max(timeout_ms_, kMinHandshakeMs), &hello, &timed_out, &closed);
  if (e.empty() && (hello.name != name() || hello.claims != claims()))
    e = "handshake differs from the first one (name or claims changed)";
  if (!e.empty()) {
    Stop(true);
    return "could not be restarted: " + e;
  }
  return "";
}

bool ExecPort::Restart() const {
  Stop(true);
  return true;
}

Answer ExecPort::Call(const Invocation& inv) const {
  Answer answer;
  std::vector<std::shared_ptr<GuardedBuffer>> buffers;
  answer.outputs.resize(inv.outputs.size());
  for (size_t i = 0; i < inv.outputs.size(); ++i) {
    const OutputSpec& spec = inv.outputs[i];
    buffers.push_back(std::make_shared<GuardedBuffer>(spec.capacity_bytes));
    if (!spec.initial.empty()) {
      std::memcpy(buffers.back()->data(), spec.initial.data(),
                  std::min<uint64_t>(spec.initial.size(), spec.capacity_bytes));
    }
    OutputResult& out = answer.outputs[i];
    out.name = spec.name;
    out.null = spec.null;
    out.buffer = buffers.back();
  }
  if (answer.fault = EnsureRunning(); !answer.fault.empty()) return answer;

  const uint64_t id = next_id_++;
  TensorFiles files(id);
  std::vector<std::string> output_paths;
  const std::string request = RequestLine(id, inv, &files, &output_paths);
  uint64_t capacity_bytes = 0;
  for (const auto& spec : inv.outputs) capacity_bytes += spec.capacity_bytes;
  const size_t max_line = kLineSlackBytes + static_cast<size_t>(capacity_bytes / 3 * 4 + 8) * 2;

  // Moving tensors costs the protocol time in proportion to their size (base64,
  // files): the limit grows by kMsPerMiB for each MiB in and out.
  uint64_t moved_bytes = capacity_bytes;
  for (const auto& t : inv.inputs) moved_bytes += t.bytes.size();
  const int64_t limit_ms =
      timeout_ms_ + static_cast<int64_t>(moved_bytes / (uint64_t{1} << 20)) * kMsPerMiB;
  const auto deadline = Clock::now() + std::chrono::milliseconds(limit_ms);
  const std::string timed_out = "timed out after " + std::to_string(limit_ms) + " ms";
  switch (WriteAll(child_.to_child, request, deadline)) {
    case Io::kOk:
      break;
    case Io::kTimeout:
      Stop(true);
      answer.fault = timed_out + " (it did not read the request)";
      answer.timed_out = true;
      return answer;
    default:
      answer.fault = DescribeExit();
      return answer;
  }
  std::string line;
  switch (ReadLine(child_, deadline, max_line, &line)) {
    case Io::kOk:
      break;
    case Io::kTimeout:
      Stop(true);
      answer.fault = timed_out;
      answer.timed_out = true;
      return answer;
    case Io::kClosed:
      answer.fault = DescribeExit();
      return answer;
    case Io::kTooLong:
      Stop(true);
      answer.fault = "printed garbage (a line of more than " + std::to_string(max_line) +
                     " bytes): " + Excerpt(line);
      return answer;
  }
  const std::string fault = ParseAnswerLine(line, id, inv, buffers, output_paths, &answer);
  if (!fault.empty()) {
    // The stream is out of step with the protocol: start afresh for the next
    // case.
    Stop(true);
    answer = Answer{.outputs = std::move(answer.outputs)};
    answer.fault = fault;
    return answer;
  }
  for (size_t i = 0; i < answer.outputs.size(); ++i) {
    OutputResult& out = answer.outputs[i];
    if (!output_paths[i].empty()) {
      // One byte more than the capacity shows a write past it.
      auto bytes = ReadOutputFile(output_paths[i], buffers[i]->capacity_bytes() + 1);
      if (!bytes) {
        answer = Answer{.outputs = std::move(answer.outputs)};
        answer.fault =
            "removed its output file or put something else in its place: " + output_paths[i];
        return answer;
      }
      CopyOut(*bytes, buffers[i].get(), &out);
    }
    int64_t first_bad = 0;
    if (out.guards_intact && !buffers[i]->GuardsIntact(&first_bad)) {
      out.guards_intact = false;
      out.first_bad_offset = first_bad;
    }
  }
  answer.message = SanitizeUtf8(answer.message);
  return answer;
}

}  // namespace npuconf
