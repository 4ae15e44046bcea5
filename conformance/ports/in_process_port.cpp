#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <csignal>
#include <cstring>

#include "conformance/ports/load_errors.h"
#include "conformance/ports/port.h"
#include "core/case_json.h"
#include "core/digest.h"
#include "core/status.h"
#include "core/text.h"

namespace npuconf {
namespace {

// What the port was answering when it crashed, for the signal handler: a
// command that replays it (SetCrashReplayPrefix + the case, shell-quoted).
char g_current_case[4096] = {0};
// And, when a crash note goes to g_crash_note_fd, the frame to write there:
// the case's JSON after its size (a CrashNoteFrame header).
int g_crash_note_fd = -1;
char g_crash_note[kCrashNoteMaxBytes + sizeof(uint64_t)] = {0};
size_t g_crash_note_bytes = 0;

std::string& CrashReplayPrefix() {
  static std::string prefix = "npuconf case ";
  return prefix;
}

// The case's words, each quoted for a POSIX shell when it holds more than safe characters.
std::string ShellCase(const std::string& case_text) {
  std::string out;
  size_t start = 0;
  while (start <= case_text.size()) {
    size_t end = case_text.find(' ', start);
    if (end == std::string::npos) end = case_text.size();
    const std::string word = case_text.substr(start, end - start);
    if (!out.empty()) out += ' ';
    if (word.find_first_not_of(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:=,/+@") ==
        std::string::npos) {
      out += word;
    } else {
      out += '\'';
      for (char ch : word) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
      out += '\'';
    }
    start = end + 1;
  }
  return out;
}

void OnPortCrash(int signal_number) {
  const char prefix[] = "npuconf: the port crashed (signal ";
  char digits[8];
  int n = 0;
  for (int s = signal_number; s > 0 && n < 7; s /= 10)
    digits[n++] = static_cast<char>('0' + s % 10);
  ssize_t ignored = write(STDERR_FILENO, prefix, sizeof(prefix) - 1);
  while (n > 0) ignored = write(STDERR_FILENO, &digits[--n], 1);
  const char middle[] = ") while answering; replay: ";
  ignored = write(STDERR_FILENO, middle, sizeof(middle) - 1);
  ignored = write(STDERR_FILENO, g_current_case, strnlen(g_current_case, sizeof(g_current_case)));
  ignored = write(STDERR_FILENO, "\n", 1);
  if (g_crash_note_fd >= 0 && g_crash_note_bytes > 0) {
    ignored = write(g_crash_note_fd, g_crash_note, g_crash_note_bytes);
  }
  (void)ignored;
  _exit(kExitPortFailure);
}

class CrashGuard {
 public:
  explicit CrashGuard(const Case& c) {
    const std::string command = CrashReplayPrefix() + ShellCase(c.ToText());
    std::strncpy(g_current_case, command.c_str(), sizeof(g_current_case) - 1);
    g_crash_note_bytes = 0;
    // A case too large for the note (explicit inputs) is left out, and not
    // serialized on every call only to be dropped: the parent then says the
    // case is on stderr. Inputs travel in base64, 4 bytes per 3.
    uint64_t input_bytes = 0;
    for (const auto& input : c.inputs) input_bytes += input.bytes.size();
    if (g_crash_note_fd >= 0 && input_bytes / 3 * 4 <= kCrashNoteMaxBytes) {
      const std::string json = ToJson(c).dump();
      if (json.size() <= kCrashNoteMaxBytes) {
        const uint64_t header = kCrashNoteFlag | json.size();
        std::memcpy(g_crash_note, &header, sizeof header);
        std::memcpy(g_crash_note + sizeof header, json.data(), json.size());
        g_crash_note_bytes = sizeof header + json.size();
      }
    }
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
      struct sigaction action {};
      action.sa_handler = OnPortCrash;
      sigemptyset(&action.sa_mask);
      sigaction(sig, &action, &previous_[Slot(sig)]);
    }
  }
  ~CrashGuard() {
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
      sigaction(sig, &previous_[Slot(sig)], nullptr);
    }
  }

 private:
  static int Slot(int sig) {
    switch (sig) {
      case SIGSEGV:
        return 0;
      case SIGBUS:
        return 1;
      case SIGFPE:
        return 2;
      case SIGILL:
        return 3;
      default:
        return 4;
    }
  }
  struct sigaction previous_[5]{};
};

bool MatchField(const std::string& pattern, const std::string& value) {
  return pattern == "*" || pattern == value;
}

}  // namespace

void InProcessPort::SetCrashReplayPrefix(std::string prefix) {
  CrashReplayPrefix() = std::move(prefix);
}

void InProcessPort::SetCrashNoteFd(int fd) { g_crash_note_fd = fd; }

std::string ReportedDims(const OutputResult& out) {
  if (out.rank == -1) return "not reported";
  if (out.rank < 0) return "rank " + std::to_string(out.rank) + ", not a rank";
  if (out.rank > NPUCONF_MAX_RANK) {
    return "rank " + std::to_string(out.rank) + ", beyond NPUCONF_MAX_RANK (" +
           std::to_string(NPUCONF_MAX_RANK) + ")";
  }
  return ToString(out.dims);
}

const OutputResult* Answer::Output(const std::string& output_name) const {
  for (const auto& output : outputs) {
    if (output.name == output_name) return &output;
  }
  return nullptr;
}

InProcessPort::InProcessPort(std::string name, std::string version, std::vector<std::string> claims,
                             PortCallFn call)
    : Port(std::move(name), std::move(version), std::move(claims)), call_(std::move(call)) {}

InProcessPort::~InProcessPort() {
  if (library_) dlclose(library_);
}

std::unique_ptr<InProcessPort> InProcessPort::LoadLibrary(const std::string& path,
                                                          std::string* error) {
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    *error = ExplainDlopenFailure(path, dlerror());
    return nullptr;
  }
  auto entry = reinterpret_cast<npuconf_port_entry_fn>(dlsym(library, "npuconf_port_entry"));
  if (!entry) {
    *error = MissingEntryMessage(path);
    dlclose(library);
    return nullptr;
  }
  const npuconf_port* table = entry(NPUCONF_PORT_ABI_VERSION);
  if (!table || table->abi_version != NPUCONF_PORT_ABI_VERSION || !table->call || !table->name) {
    *error = "port library '" + path + "' does not speak port ABI version " +
             std::to_string(NPUCONF_PORT_ABI_VERSION);
    dlclose(library);
    return nullptr;
  }
  // Port text is untrusted: bounded and made valid UTF-8.
  std::vector<std::string> claims;
  for (const char* const* claim = table->claims; claim && *claim; ++claim)
    claims.push_back(BoundedCString(*claim, strnlen(*claim, kMaxPortStringBytes)));
  auto bounded = [&](const char* s) {
    return s ? BoundedCString(s, strnlen(s, kMaxPortStringBytes)) : std::string();
  };
  auto port = std::make_unique<InProcessPort>(bounded(table->name), bounded(table->version),
                                              std::move(claims), table->call);
  port->library_ = library;
  return port;
}

bool Port::Claims(const std::string& routine, const std::string& profile) const {
  for (const auto& claim : claims()) {
    if (claim.rfind("choice:", 0) == 0) continue;
    const size_t colon = claim.find(':');
    if (colon == std::string::npos) continue;
    // ROUTINE:PROFILE[:CONDITIONS] (conformance/ports/claims.h decides conditions).
    const size_t end = claim.find(':', colon + 1);
    if (MatchField(claim.substr(0, colon), routine) &&
        MatchField(claim.substr(colon + 1, end == std::string::npos ? end : end - colon - 1),
                   profile)) {
      return true;
    }
  }
  return false;
}

std::optional<std::string> Port::ClaimedChoice(const std::string& choice_name) const {
  const std::string prefix = "choice:" + choice_name + "=";
  for (const auto& claim : claims()) {
    if (claim.rfind(prefix, 0) == 0) return claim.substr(prefix.size());
  }
  return std::nullopt;
}

Answer InProcessPort::Call(const Invocation& inv) const {
  // Params: keep every string and list alive for the duration of the call.
  std::vector<npuconf_param> params;
  params.reserve(inv.c.params.size());
  for (const auto& [key, value] : inv.c.params) {
    npuconf_param p{};
    p.key = key.c_str();
    switch (value.kind) {
      case ParamValue::Kind::kNull:
        p.kind = NPUCONF_PARAM_NULL;
        break;
      case ParamValue::Kind::kInt:
        p.kind = NPUCONF_PARAM_INT;
        p.i = value.i;
        break;
      case ParamValue::Kind::kFloat:
        p.kind = NPUCONF_PARAM_FLOAT;
        p.f = value.f;
        break;
      case ParamValue::Kind::kString:
        p.kind = NPUCONF_PARAM_STRING;
        p.s = value.s.c_str();
        break;
      case ParamValue::Kind::kIntList:
        p.kind = NPUCONF_PARAM_INT_LIST;
        p.ints = value.ints.data();
        p.n_ints = value.ints.size();
        break;
    }
    params.push_back(p);
  }
  // The port gets copies of the inputs, so it cannot change the case, nor,
  // through a pointer it kept, an earlier call's inputs that a property still
  // compares with. Inputs larger than kCopyInputsBytes in all (real model
  // shapes: gigabytes; they go to single-call properties) are handed over in
  // place instead, with a digest per chunk to show a write. Either way a write
  // to an input fails the case, named.
  uint64_t input_bytes = 0;
  for (const auto& input : inv.inputs) input_bytes += input.bytes.size();
  const bool in_place = input_bytes > kCopyInputsBytes;
  std::vector<Bytes> input_copies;
  std::vector<ChunkDigests> input_digests;
  std::vector<Shape> input_shapes;
  std::vector<npuconf_tensor> inputs;
  input_copies.reserve(inv.inputs.size());
  input_shapes.reserve(inv.inputs.size());
  for (const auto& input : inv.inputs) {
    input_shapes.push_back(input.shape);
    uint8_t* data = nullptr;
    if (in_place) {
      input_digests.push_back(DigestChunks(input.bytes));
      // The ABI's `data` is not const; the port must not write through it.
      data = const_cast<uint8_t*>(input.bytes.data());
    } else {
      input_copies.push_back(input.bytes);
      data = input_copies.back().data();
    }
    npuconf_tensor t{};
    t.name = input.name.c_str();
    t.data = input.bytes.empty() ? nullptr : data;
    t.bytes = input.bytes.size();
    t.dtype = static_cast<int32_t>(input.dtype);
    t.rank = static_cast<int32_t>(input.shape.size());
    t.dims = input_shapes.back().data();
    inputs.push_back(t);
  }
  std::vector<std::shared_ptr<GuardedBuffer>> buffers;
  std::vector<std::array<int64_t, NPUCONF_MAX_RANK>> dims(inv.outputs.size());
  std::vector<npuconf_tensor> outputs;
  for (size_t i = 0; i < inv.outputs.size(); ++i) {
    const OutputSpec& spec = inv.outputs[i];
    buffers.push_back(std::make_shared<GuardedBuffer>(spec.capacity_bytes));
    GuardedBuffer& buffer = *buffers.back();
    if (!spec.initial.empty()) {
      std::memcpy(buffer.data(), spec.initial.data(),
                  std::min<uint64_t>(spec.initial.size(), spec.capacity_bytes));
    }
    dims[i].fill(-1);
    npuconf_tensor t{};
    t.name = spec.name.c_str();
    t.data = spec.null ? nullptr : buffer.data();
    t.bytes = spec.null ? 0 : spec.capacity_bytes;
    t.dtype = static_cast<int32_t>(spec.dtype);
    t.rank = -1;
    t.dims = dims[i].data();
    outputs.push_back(t);
  }
  Answer answer;
  answer.outputs.resize(inv.outputs.size());
  npuconf_case c{};
  c.routine = inv.c.routine.c_str();
  c.profile = inv.c.profile.c_str();
  c.params = params.data();
  c.n_params = params.size();
  c.inputs = inputs.data();
  c.n_inputs = inputs.size();
  c.outputs = outputs.data();
  c.n_outputs = outputs.size();

  char message[1024] = {0};
  {
    CrashGuard guard(inv.c);
    answer.call_result = call_(&c, &answer.status, message, sizeof(message));
  }
  bool terminated = true;
  answer.message = BoundedCString(message, sizeof(message), &terminated);
  if (!terminated) {
    answer.message += " [message not NUL-terminated within " + std::to_string(sizeof(message)) +
                      " bytes; truncated]";
  }
  for (size_t i = 0; i < inv.inputs.size() && answer.fault.empty(); ++i) {
    const Bytes& want = inv.inputs[i].bytes;
    const std::string wrote =
        "wrote to its input '" + inv.inputs[i].name + "' (inputs are read-only), ";
    if (!in_place) {
      const auto at = std::mismatch(want.begin(), want.end(), input_copies[i].begin()).first;
      if (at != want.end()) answer.fault = wrote + "byte " + std::to_string(at - want.begin());
    } else if (auto at = FirstChangedChunk(input_digests[i], want)) {
      answer.fault = wrote + "within bytes " + ChunkRangeText(input_digests[i], *at);
    }
  }
  for (size_t i = 0; i < inv.outputs.size(); ++i) {
    OutputResult& out = answer.outputs[i];
    out.name = inv.outputs[i].name;
    out.null = inv.outputs[i].null;
    out.buffer = buffers[i];
    out.guards_intact = buffers[i]->GuardsIntact(&out.first_bad_offset);
    out.rank = outputs[i].rank;
    if (out.rank >= 0 && out.rank <= NPUCONF_MAX_RANK) {
      out.dims.assign(dims[i].begin(), dims[i].begin() + out.rank);
    }
  }
  return answer;
}

}  // namespace npuconf
