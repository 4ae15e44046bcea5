#include "conformance/ports/isolated_port.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <iostream>
#include <string_view>

#include "conformance/ports/load_errors.h"
#include "core/interrupt.h"
#include "core/text.h"

namespace npuconf {
namespace {

constexpr uint64_t kMessageBytes = 1024;     // the `message` buffer handed to `call`
constexpr size_t kMaxControlMessage = 4096;  // one socket message
constexpr uint64_t kInitialArenaBytes = 1u << 20;
// Tensors move between this process and the arena file in chunks of this size.
constexpr uint64_t kArenaChunkBytes = 1u << 20;
// An arena above this is sized to the case and given back after it: a huge
// case must not keep its memory for the rest of the run.
constexpr uint64_t kKeepArenaBytes = 64u << 20;
// Behind every buffer a PROT_NONE guard as large as the buffer, at least
// kMinGuardBytes and at most kMaxGuardBytes: a write that skips over a page
// (a wrong stride, a wrong row count) still faults, and is attributed. The
// guards are address space of a sparse file: they cost no memory.
constexpr uint64_t kMinGuardBytes = 1u << 20;
constexpr uint64_t kMaxGuardBytes = 64u << 20;
// The worker maps the arena inside a PROT_NONE reservation of this much in
// front of it and behind it, so a stray access just outside the arena faults
// there and is attributed too (instead of landing in whatever is mapped next).
constexpr uint64_t kArenaHeadGuardBytes = 1u << 20;
constexpr uint64_t kArenaTailGuardBytes = 64u << 20;
constexpr int kSocketFd = 3;  // in the worker
constexpr int kArenaFd = 4;

// Control messages. Runner -> worker: 'C' (answer the case in the arena).
// Worker -> runner: 'H' (loaded; strings in the arena), 'E' (cannot load),
// 'R' (answered), 'X' (an exception came through call), 'S' (fatal signal,
// sent from the signal handler just before the worker dies).
struct CaseMessage {
  char kind = 'C';
  uint64_t arena_bytes = 0;
  uint64_t blob_bytes = 0;
};
struct HelloMessage {
  char kind = 'H';
  uint64_t n_claims = 0;
  uint64_t bytes = 0;
  uint8_t name_terminated = 1;
  uint8_t version_terminated = 1;
  uint8_t claims_truncated = 0;
};
struct ResultMessage {
  char kind = 'R';
  int32_t call_result = 0;
  int64_t status = 0;
};
struct SignalMessage {
  char kind = 'S';
  int32_t signal_number = 0;
  int32_t is_write = -1;     // -1 unknown
  int32_t in_arena = 0;      // the faulting address lies in the arena or its reservation
  int64_t arena_offset = 0;  // of the faulting address (negative: before the arena)
};

size_t PageBytes() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}
uint64_t RoundUp(uint64_t n, uint64_t to) { return (n + to - 1) / to * to; }

// ---- case blob: the case as the worker reads it from the arena -------------

class BlobWriter {
 public:
  template <typename T>
  void Put(T value) {
    const size_t at = bytes_.size();
    bytes_.resize(at + sizeof(T));
    std::memcpy(bytes_.data() + at, &value, sizeof(T));
  }
  void PutString(const std::string& s) {
    Put<uint64_t>(s.size());
    bytes_.append(s);
  }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

class BlobReader {
 public:
  BlobReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  template <typename T>
  T Get() {
    T value{};
    if (at_ + sizeof(T) > size_) {
      ok_ = false;
      return value;
    }
    std::memcpy(&value, data_ + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  std::string GetString() {
    const uint64_t n = Get<uint64_t>();
    if (!ok_ || n > size_ - at_) {
      ok_ = false;
      return {};
    }
    std::string s(reinterpret_cast<const char*>(data_ + at_), n);
    at_ += n;
    return s;
  }
  bool ok() const { return ok_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
  bool ok_ = true;
};

// One buffer in the arena: [start, data_offset) is padding the runner fills
// with a pattern and checks after the call (for an output its last
// kGuardBytes are the guard bytes of core/buffer.h), then the data, then a
// PROT_NONE guard of guard_bytes.
struct Region {
  enum class Kind { kControl, kInput, kOutput, kMessage } kind;
  std::string name;
  uint64_t start = 0;
  uint64_t data_offset = 0;
  uint64_t bytes = 0;  // of the data (input bytes, output capacity)
  uint64_t guard_offset = 0;
  uint64_t guard_bytes = 0;
};

// How the port sees a region, for messages: "input 'nd'", "the message buffer".
std::string RegionName(const Region& region) {
  switch (region.kind) {
    case Region::Kind::kControl:
      return "the runner's control block";
    case Region::Kind::kInput:
      return "input '" + region.name + "'";
    case Region::Kind::kOutput:
      return "output '" + region.name + "'";
    case Region::Kind::kMessage:
      return "the message buffer";
  }
  return region.name;
}

// The pattern of the padding byte at `offset` before `data_offset`; the last
// kGuardBytes are GuardByteAt(0 .. kGuardBytes - 1), as in a GuardedBuffer.
uint8_t PaddingByte(uint64_t offset, uint64_t data_offset) {
  return GuardByteAt((kGuardBytes - (data_offset - offset) % kGuardBytes) % kGuardBytes);
}

struct Layout {
  uint64_t control_bytes = 0;
  uint64_t result_offset = 0;  // per output: rank, then NPUCONF_MAX_RANK dims (int64)
  uint64_t message_offset = 0;
  std::vector<uint64_t> input_offsets;   // 0: no data (an empty input is NULL)
  std::vector<uint64_t> output_offsets;  // 0: a null output
  std::vector<Region> regions;           // each with its guard
  uint64_t total_bytes = 0;
};

constexpr uint64_t kResultSlotBytes = (1 + NPUCONF_MAX_RANK) * sizeof(int64_t);

std::string SerializeCase(const Invocation& inv, const Layout& layout) {
  BlobWriter w;
  w.PutString(inv.c.routine);
  w.PutString(inv.c.profile);
  w.Put<uint64_t>(inv.c.params.size());
  for (const auto& [key, value] : inv.c.params) {
    w.PutString(key);
    int32_t kind = NPUCONF_PARAM_NULL;
    switch (value.kind) {
      case ParamValue::Kind::kNull:
        kind = NPUCONF_PARAM_NULL;
        break;
      case ParamValue::Kind::kInt:
        kind = NPUCONF_PARAM_INT;
        break;
      case ParamValue::Kind::kFloat:
        kind = NPUCONF_PARAM_FLOAT;
        break;
      case ParamValue::Kind::kString:
        kind = NPUCONF_PARAM_STRING;
        break;
      case ParamValue::Kind::kIntList:
        kind = NPUCONF_PARAM_INT_LIST;
        break;
    }
    w.Put<int32_t>(kind);
    w.Put<int64_t>(value.i);
    w.Put<double>(value.f);
    w.PutString(value.s);
    w.Put<uint64_t>(value.ints.size());
    for (int64_t v : value.ints) w.Put<int64_t>(v);
  }
  w.Put<uint64_t>(inv.inputs.size());
  for (size_t i = 0; i < inv.inputs.size(); ++i) {
    const auto& input = inv.inputs[i];
    w.PutString(input.name);
    w.Put<int32_t>(static_cast<int32_t>(input.dtype));
    w.Put<uint64_t>(input.shape.size());
    for (int64_t d : input.shape) w.Put<int64_t>(d);
    w.Put<uint64_t>(i < layout.input_offsets.size() ? layout.input_offsets[i] : 0);
    w.Put<uint64_t>(input.bytes.size());
  }
  w.Put<uint64_t>(inv.outputs.size());
  for (size_t i = 0; i < inv.outputs.size(); ++i) {
    const auto& output = inv.outputs[i];
    w.PutString(output.name);
    w.Put<int32_t>(static_cast<int32_t>(output.dtype));
    w.Put<uint64_t>(i < layout.output_offsets.size() ? layout.output_offsets[i] : 0);
    w.Put<uint64_t>(output.null ? 0 : output.capacity_bytes);
  }
  w.Put<uint64_t>(layout.result_offset);
  w.Put<uint64_t>(layout.message_offset);
  w.Put<uint64_t>(layout.regions.size());
  for (const auto& region : layout.regions) {
    w.Put<uint64_t>(region.guard_offset);
    w.Put<uint64_t>(region.guard_bytes);
  }
  return w.bytes();
}

Layout PlanLayout(const Invocation& inv, uint64_t blob_bytes) {
  const uint64_t page = PageBytes();
  Layout layout;
  // blob_bytes is the size of the blob without its list of guards; two words
  // per region, at most 2 + inputs + outputs regions.
  const uint64_t results =
      RoundUp(blob_bytes + 2 * sizeof(uint64_t) * (2 + inv.inputs.size() + inv.outputs.size()), 8);
  layout.result_offset = results;
  layout.control_bytes = RoundUp(results + inv.outputs.size() * kResultSlotBytes, page);
  const auto guard_bytes = [page](uint64_t bytes) {
    return RoundUp(std::clamp(bytes, kMinGuardBytes, kMaxGuardBytes), page);
  };
  // A guard page between the control block and the message buffer.
  layout.regions.push_back(
      {Region::Kind::kControl, "control", 0, 0, 0, layout.control_bytes, page});
  uint64_t at = layout.control_bytes + page;
  // The message buffer ends at a guard: a port writing past message_bytes faults.
  const uint64_t message_region = RoundUp(kMessageBytes, page);
  layout.message_offset = at + message_region - kMessageBytes;
  layout.regions.push_back({Region::Kind::kMessage, "message", at, layout.message_offset,
                            kMessageBytes, at + message_region, guard_bytes(kMessageBytes)});
  at += message_region + layout.regions.back().guard_bytes;
  for (const auto& input : inv.inputs) {
    const uint64_t bytes = input.bytes.size();
    if (bytes == 0) {
      layout.input_offsets.push_back(0);
      continue;
    }
    const uint64_t region = RoundUp(bytes, page);
    layout.input_offsets.push_back(at + region - bytes);
    layout.regions.push_back({Region::Kind::kInput, input.name, at, at + region - bytes, bytes,
                              at + region, guard_bytes(bytes)});
    at += region + layout.regions.back().guard_bytes;
  }
  for (const auto& output : inv.outputs) {
    if (output.null) {
      layout.output_offsets.push_back(0);
      continue;
    }
    const uint64_t cap = output.capacity_bytes;
    const uint64_t region = RoundUp(cap + kGuardBytes, page);
    layout.output_offsets.push_back(at + region - cap);
    layout.regions.push_back({Region::Kind::kOutput, output.name, at, at + region - cap, cap,
                              at + region, guard_bytes(cap)});
    at += region + layout.regions.back().guard_bytes;
  }
  layout.total_bytes = at;
  return layout;
}

// ---- the worker (child process) ---------------------------------------------

int g_worker_socket = -1;
uint8_t* g_worker_arena = nullptr;
uint64_t g_worker_arena_bytes = 0;
uint8_t* g_worker_reservation = nullptr;  // the arena with its head and tail guards
uint64_t g_worker_reservation_bytes = 0;
uint64_t g_worker_arena_generation = 0;  // changes with every (re)mapping

// The worker's memory limit (IsolatedPort::Start): RLIMIT_DATA is what the
// worker held at its start plus g_worker_memory_limit, 0 for none.
uint64_t g_worker_memory_limit = 0;
uint64_t g_worker_data_at_start = 0;

// The worker's private data (statm's data field: heap, private anonymous
// mappings, stack; the shared arena is not in it), in bytes; 0 when unknown.
// Only system calls: it runs in the fatal-signal handler too.
uint64_t WorkerDataBytes() {
  const int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char text[256];
  const ssize_t n = read(fd, text, sizeof(text) - 1);
  close(fd);
  if (n <= 0) return 0;
  // size resident shared text lib data dt, in pages: the 6th.
  int field = 0;
  uint64_t value = 0;
  for (ssize_t i = 0; i < n; ++i) {
    if (text[i] == ' ') {
      if (++field == 6) break;
      value = 0;
    } else if (text[i] >= '0' && text[i] <= '9') {
      value = value * 10 + static_cast<uint64_t>(text[i] - '0');
    }
  }
  return field >= 5 ? value * static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) : 0;
}

// Whether a call that failed did so at the memory limit: the worker's data grew
// to within a quarter of the limit (at least 65 MiB: the allocation that failed
// may be large) of it. Signal-safe.
bool NearMemoryLimit() {
  if (g_worker_memory_limit == 0) return false;
  const uint64_t now = WorkerDataBytes();
  if (now <= g_worker_data_at_start) return false;
  const uint64_t grown = now - g_worker_data_at_start;
  const uint64_t slack = std::max<uint64_t>(g_worker_memory_limit / 4, uint64_t{65} << 20);
  return grown + slack >= g_worker_memory_limit;
}

// Sets RLIMIT_DATA to what the worker holds now plus `limit` bytes (0: none).
// Not under AddressSanitizer: its shadow and allocator map terabytes, which the
// kernel counts, and malloc failing inside ASan's allocator is its own abort.
void LimitWorkerMemory(uint64_t limit) {
#if defined(__SANITIZE_ADDRESS__)
  limit = 0;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  limit = 0;
#endif
#endif
  g_worker_memory_limit = limit;
  if (limit == 0) return;
  g_worker_data_at_start = WorkerDataBytes();
  struct rlimit data {};
  data.rlim_cur = data.rlim_max = g_worker_data_at_start + limit;
  if (g_worker_data_at_start == 0 || setrlimit(RLIMIT_DATA, &data) != 0) g_worker_memory_limit = 0;
}

void SendAll(int fd, const void* data, size_t size) {
  // SOCK_SEQPACKET: one send is one message.
  while (send(fd, data, size, MSG_NOSIGNAL) < 0 && errno == EINTR) {
  }
}

void SendText(int fd, char kind, const std::string& text) {
  std::string message(1, kind);
  message += text.substr(0, kMaxControlMessage - 1);
  SendAll(fd, message.data(), message.size());
}

// 1 when the faulting access was a write, 0 a read, -1 unknown.
int32_t FaultWasWrite(void* context) {
  const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  // Bit 1 of the x86 page-fault error code: the access was a write.
  return (uc->uc_mcontext.gregs[REG_ERR] & 2) ? 1 : 0;
#elif defined(__aarch64__)
  // The kernel appends an esr_context record (ESR_MAGIC) to the signal frame;
  // for a data abort (EC 0x24 / 0x25) ISS bit 6 (WnR) says a write.
  const auto* at = reinterpret_cast<const uint8_t*>(uc->uc_mcontext.__reserved);
  const uint8_t* end = at + sizeof(uc->uc_mcontext.__reserved);
  while (at + 8 <= end) {
    uint32_t magic = 0, size = 0;
    std::memcpy(&magic, at, 4);
    std::memcpy(&size, at + 4, 4);
    if (magic == 0 || size < 8 || at + size > end) break;
    if (magic == 0x45535201 && size >= 16) {  // ESR_MAGIC, struct esr_context
      uint64_t esr = 0;
      std::memcpy(&esr, at + 8, 8);
      const uint64_t ec = esr >> 26;
      if (ec == 0x24 || ec == 0x25) return (esr >> 6) & 1 ? 1 : 0;
      return -1;
    }
    at += size;
  }
  return -1;
#else
  (void)uc;
  return -1;
#endif
}

void OnWorkerFatalSignal(int signal_number, siginfo_t* info, void* context) {
  SignalMessage message;
  message.signal_number = signal_number;
  const auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  const auto base = reinterpret_cast<uintptr_t>(g_worker_arena);
  const auto first = reinterpret_cast<uintptr_t>(g_worker_reservation);
  if ((signal_number == SIGSEGV || signal_number == SIGBUS) && info->si_code > 0 && base &&
      address >= first && address < first + g_worker_reservation_bytes) {
    message.in_arena = 1;
    message.arena_offset = static_cast<int64_t>(address) - static_cast<int64_t>(base);
    message.is_write = FaultWasWrite(context);
  }
  send(g_worker_socket, &message, sizeof(message), MSG_NOSIGNAL | MSG_DONTWAIT);
  if (NearMemoryLimit()) {
    const char note = 'M';
    send(g_worker_socket, &note, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
  }
  // SA_RESETHAND restored the default action; the signal is blocked in the
  // handler, so it is delivered (and ends the worker) on return.
  raise(signal_number);
}

void InstallWorkerSignals() {
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig == SIGKILL || sig == SIGSTOP) continue;
    signal(sig, SIG_DFL);
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  // An alternate stack, so a stack overflow is reported like any SIGSEGV.
  static std::array<uint8_t, 64 * 1024> alternate_stack;
  stack_t stack{};
  stack.ss_sp = alternate_stack.data();
  stack.ss_size = alternate_stack.size();
  sigaltstack(&stack, nullptr);
  // SIGABRT: a port that aborts when malloc fails (std::terminate of a
  // bad_alloc) is named at the memory limit too.
  for (int sig : {SIGSEGV, SIGBUS, SIGABRT}) {
    struct sigaction action {};
    action.sa_sigaction = OnWorkerFatalSignal;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    sigaction(sig, &action, nullptr);
  }
}

bool MapWorkerArena(uint64_t bytes) {
  if (g_worker_arena && g_worker_arena_bytes == bytes) return true;
  if (g_worker_reservation) munmap(g_worker_reservation, g_worker_reservation_bytes);
  g_worker_arena = g_worker_reservation = nullptr;
  g_worker_arena_bytes = g_worker_reservation_bytes = 0;
  const uint64_t reservation = kArenaHeadGuardBytes + bytes + kArenaTailGuardBytes;
  void* r =
      mmap(nullptr, reservation, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (r == MAP_FAILED) return false;
  void* p = mmap(static_cast<uint8_t*>(r) + kArenaHeadGuardBytes, bytes, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_FIXED, kArenaFd, 0);
  if (p == MAP_FAILED) {
    munmap(r, reservation);
    return false;
  }
  g_worker_reservation = static_cast<uint8_t*>(r);
  g_worker_reservation_bytes = reservation;
  g_worker_arena = static_cast<uint8_t*>(p);
  g_worker_arena_bytes = bytes;
  g_worker_arena_generation += 1;
  return true;
}

// Writes name, version and claims into the arena, NUL-separated.
void SendHello(const npuconf_port* table) {
  HelloMessage hello;
  uint64_t at = 0;
  auto put = [&](const char* s, uint8_t* terminated) {
    const size_t n = s ? strnlen(s, kMaxPortStringBytes) : 0;
    if (terminated) *terminated = n < kMaxPortStringBytes;
    if (at + n + 1 > g_worker_arena_bytes) return false;
    if (n) std::memcpy(g_worker_arena + at, s, n);
    g_worker_arena[at + n] = 0;
    at += n + 1;
    return true;
  };
  put(table->name, &hello.name_terminated);
  put(table->version, &hello.version_terminated);
  for (const char* const* claim = table->claims; claim && *claim; ++claim) {
    if (hello.n_claims == kMaxPortClaims || !put(*claim, nullptr)) {
      hello.claims_truncated = 1;
      break;
    }
    hello.n_claims += 1;
  }
  hello.bytes = at;
  SendAll(kSocketFd, &hello, sizeof(hello));
}

// The case as npuconf structs; deques keep every string and list where the
// structs point while more are added.
struct WorkerCase {
  std::deque<std::string> strings;  // keys and string params
  std::deque<std::vector<int64_t>> int_lists;
  std::vector<npuconf_param> params;
  std::deque<std::string> names;
  std::deque<std::vector<int64_t>> input_dims;
  std::vector<npuconf_tensor> inputs;
  std::vector<std::array<int64_t, NPUCONF_MAX_RANK>> output_dims;
  std::vector<npuconf_tensor> outputs;
  std::vector<uint64_t> result_slots;
  std::string routine, profile;
  uint64_t message_offset = 0;
  std::vector<std::pair<uint64_t, uint64_t>> guards;  // offset, bytes
};

bool ReadWorkerCase(uint64_t blob_bytes, WorkerCase* wc) {
  if (blob_bytes > g_worker_arena_bytes) return false;
  BlobReader r(g_worker_arena, blob_bytes);
  wc->routine = r.GetString();
  wc->profile = r.GetString();
  const uint64_t n_params = r.Get<uint64_t>();
  if (!r.ok() || n_params > blob_bytes) return false;
  for (uint64_t i = 0; i < n_params && r.ok(); ++i) {
    npuconf_param p{};
    wc->strings.push_back(r.GetString());
    p.key = wc->strings.back().c_str();
    p.kind = r.Get<int32_t>();
    p.i = r.Get<int64_t>();
    p.f = r.Get<double>();
    wc->strings.push_back(r.GetString());
    p.s = p.kind == NPUCONF_PARAM_STRING ? wc->strings.back().c_str() : nullptr;
    const uint64_t n_ints = r.Get<uint64_t>();
    if (!r.ok() || n_ints > blob_bytes) return false;
    wc->int_lists.emplace_back();
    for (uint64_t k = 0; k < n_ints; ++k) wc->int_lists.back().push_back(r.Get<int64_t>());
    if (p.kind == NPUCONF_PARAM_INT_LIST) {
      p.ints = wc->int_lists.back().data();
      p.n_ints = n_ints;
    }
    wc->params.push_back(p);
  }
  const uint64_t n_inputs = r.Get<uint64_t>();
  if (!r.ok() || n_inputs > blob_bytes) return false;
  for (uint64_t i = 0; i < n_inputs && r.ok(); ++i) {
    npuconf_tensor t{};
    wc->names.push_back(r.GetString());
    t.name = wc->names.back().c_str();
    t.dtype = r.Get<int32_t>();
    const uint64_t rank = r.Get<uint64_t>();
    if (!r.ok() || rank > blob_bytes) return false;
    wc->input_dims.emplace_back();
    for (uint64_t k = 0; k < rank; ++k) wc->input_dims.back().push_back(r.Get<int64_t>());
    t.rank = static_cast<int32_t>(rank);
    t.dims = wc->input_dims.back().data();
    const uint64_t offset = r.Get<uint64_t>();
    t.bytes = r.Get<uint64_t>();
    if (offset + t.bytes > g_worker_arena_bytes) return false;
    t.data = offset ? g_worker_arena + offset : nullptr;
    wc->inputs.push_back(t);
  }
  const uint64_t n_outputs = r.Get<uint64_t>();
  if (!r.ok() || n_outputs > blob_bytes) return false;
  wc->output_dims.resize(n_outputs);
  for (uint64_t i = 0; i < n_outputs && r.ok(); ++i) {
    npuconf_tensor t{};
    wc->names.push_back(r.GetString());
    t.name = wc->names.back().c_str();
    t.dtype = r.Get<int32_t>();
    const uint64_t offset = r.Get<uint64_t>();
    t.bytes = r.Get<uint64_t>();
    if (offset + t.bytes > g_worker_arena_bytes) return false;
    t.data = offset ? g_worker_arena + offset : nullptr;
    t.rank = -1;
    wc->output_dims[i].fill(-1);
    t.dims = wc->output_dims[i].data();
    wc->outputs.push_back(t);
  }
  const uint64_t result_offset = r.Get<uint64_t>();
  wc->message_offset = r.Get<uint64_t>();
  const uint64_t n_guards = r.Get<uint64_t>();
  if (!r.ok() || n_guards > blob_bytes) return false;
  for (uint64_t i = 0; i < n_guards; ++i) {
    const uint64_t offset = r.Get<uint64_t>();
    wc->guards.emplace_back(offset, r.Get<uint64_t>());
  }
  for (uint64_t i = 0; i < n_outputs; ++i)
    wc->result_slots.push_back(result_offset + i * kResultSlotBytes);
  if (!r.ok() || wc->message_offset + kMessageBytes > g_worker_arena_bytes ||
      result_offset + n_outputs * kResultSlotBytes > g_worker_arena_bytes) {
    return false;
  }
  for (const auto& [offset, bytes] : wc->guards) {
    if (offset > g_worker_arena_bytes || bytes > g_worker_arena_bytes - offset ||
        offset % PageBytes() != 0 || bytes % PageBytes() != 0) {
      return false;
    }
  }
  return true;
}

// Makes exactly `guards` PROT_NONE (a no-op when the layout did not change).
void ProtectGuards(const std::vector<std::pair<uint64_t, uint64_t>>& guards) {
  static std::vector<std::pair<uint64_t, uint64_t>> protected_now;
  static uint64_t protected_generation = 0;
  if (protected_generation == g_worker_arena_generation && protected_now == guards) return;
  if (protected_generation == g_worker_arena_generation) {
    for (const auto& [offset, bytes] : protected_now) {
      mprotect(g_worker_arena + offset, bytes, PROT_READ | PROT_WRITE);
    }
  }
  for (const auto& [offset, bytes] : guards) mprotect(g_worker_arena + offset, bytes, PROT_NONE);
  protected_now = guards;
  protected_generation = g_worker_arena_generation;
}

[[noreturn]] void WorkerMain(const std::string& path, pid_t runner, uint64_t memory_limit) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != runner) _exit(0);
  setpgid(0, 0);
  struct rlimit no_core {};
  setrlimit(RLIMIT_CORE, &no_core);
  InstallWorkerSignals();
  g_worker_socket = kSocketFd;
  if (int devnull = open("/dev/null", O_RDONLY); devnull >= 0) {
    dup2(devnull, STDIN_FILENO);
    if (devnull != STDIN_FILENO) close(devnull);
  }
  struct stat st {};
  if (fstat(kArenaFd, &st) != 0 || !MapWorkerArena(static_cast<uint64_t>(st.st_size))) {
    SendText(kSocketFd, 'E', "the port worker cannot map its shared memory arena");
    _exit(0);
  }
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* why = dlerror();
    SendText(kSocketFd, 'E', ExplainDlopenFailure(path, why));
    _exit(0);
  }
  auto entry = reinterpret_cast<npuconf_port_entry_fn>(dlsym(library, "npuconf_port_entry"));
  if (!entry) {
    SendText(kSocketFd, 'E', MissingEntryMessage(path));
    _exit(0);
  }
  LimitWorkerMemory(memory_limit);
  const npuconf_port* table = entry(NPUCONF_PORT_ABI_VERSION);
  if (!table || table->abi_version != NPUCONF_PORT_ABI_VERSION || !table->call || !table->name) {
    SendText(kSocketFd, 'E',
             "port library '" + path + "' does not speak port ABI version " +
                 std::to_string(NPUCONF_PORT_ABI_VERSION));
    _exit(0);
  }
  SendHello(table);
  for (;;) {
    CaseMessage request;
    const ssize_t got = recv(kSocketFd, &request, sizeof(request), 0);
    if (got < 0 && errno == EINTR) continue;
    if (got != static_cast<ssize_t>(sizeof(request)) || request.kind != 'C') _exit(0);
    if (!MapWorkerArena(request.arena_bytes)) {
      SendText(kSocketFd, 'E', "the port worker cannot map its shared memory arena");
      _exit(0);
    }
    WorkerCase wc;
    if (!ReadWorkerCase(request.blob_bytes, &wc)) {
      SendText(kSocketFd, 'E', "the port worker received a malformed case");
      _exit(0);
    }
    ProtectGuards(wc.guards);
    npuconf_case c{};
    c.routine = wc.routine.c_str();
    c.profile = wc.profile.c_str();
    c.params = wc.params.data();
    c.n_params = wc.params.size();
    c.inputs = wc.inputs.data();
    c.n_inputs = wc.inputs.size();
    c.outputs = wc.outputs.data();
    c.n_outputs = wc.outputs.size();
    ResultMessage result;
    std::string exception;
    bool threw = false;
    try {
      result.call_result =
          table->call(&c, &result.status,
                      reinterpret_cast<char*>(g_worker_arena + wc.message_offset), kMessageBytes);
    } catch (const std::exception& e) {
      threw = true;
      exception = e.what() ? e.what() : "";
    } catch (...) {
      threw = true;
      exception = "(an exception that is not a std::exception)";
    }
    for (size_t i = 0; i < wc.outputs.size(); ++i) {
      int64_t slot[1 + NPUCONF_MAX_RANK];
      slot[0] = wc.outputs[i].rank;
      std::memcpy(slot + 1, wc.output_dims[i].data(), sizeof(int64_t) * NPUCONF_MAX_RANK);
      std::memcpy(g_worker_arena + wc.result_slots[i], slot, sizeof(slot));
    }
    // An exception at the memory limit (std::bad_alloc, say): the runner names
    // the limit and restarts the worker, whose memory would fail every case after.
    if (threw && NearMemoryLimit()) SendText(kSocketFd, 'M', "");
    if (threw) {
      SendText(kSocketFd, 'X', exception);
    } else {
      SendAll(kSocketFd, &result, sizeof(result));
    }
  }
}

// ---- the runner's side -------------------------------------------------------

std::string SignalName(int sig) {
  switch (sig) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    case SIGABRT:
      return "SIGABRT";
    case SIGKILL:
      return "SIGKILL";
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    case SIGHUP:
      return "SIGHUP";
    case SIGQUIT:
      return "SIGQUIT";
    case SIGPIPE:
      return "SIGPIPE";
    case SIGTRAP:
      return "SIGTRAP";
    case SIGSYS:
      return "SIGSYS";
    case SIGALRM:
      return "SIGALRM";
    case SIGUSR1:
      return "SIGUSR1";
    case SIGUSR2:
      return "SIGUSR2";
    case SIGXCPU:
      return "SIGXCPU";
    case SIGXFSZ:
      return "SIGXFSZ";
    default:
      return "signal " + std::to_string(sig);
  }
}

// `where`: "inside call", or "while loading" (npuconf_port_entry).
std::string DescribeDeath(int status, const char* where) {
  if (WIFEXITED(status)) {
    return "called exit(" + std::to_string(WEXITSTATUS(status)) + ") " + where;
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    if (sig == SIGABRT) return "aborted (SIGABRT)";
    std::string description = strsignal(sig) ? strsignal(sig) : "";
    std::transform(description.begin(), description.end(), description.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    return "killed by " + SignalName(sig) + (description.empty() ? "" : " (" + description + ")");
  }
  return "stopped (wait status " + std::to_string(status) + ")";
}

int PidfdOpen(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  return -1;
#endif
}

}  // namespace

// One worker process and the arena it shares with this process.
class IsolatedWorker {
 public:
  IsolatedWorker(std::string path, int64_t timeout_ms, uint64_t memory_limit_bytes)
      : path_(std::move(path)), timeout_ms_(timeout_ms), memory_limit_bytes_(memory_limit_bytes) {}
  ~IsolatedWorker() {
    if (owner_ == getpid()) {
      Stop();
    } else {
      CloseDescriptors();
    }
    if (owner_ == getpid() && arena_) munmap(arena_, arena_bytes_);
    if (memfd_ >= 0) close(memfd_);
  }

  struct Hello {
    std::string name, version;
    std::vector<std::string> claims;
  };

  // Starts the worker and reads the port's table; false and *error on failure.
  bool Start(Hello* hello, std::string* error) {
    if (owner_ != getpid()) AdoptAfterFork();
    if (!EnsureArena(kInitialArenaBytes, error)) return false;
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds) != 0) {
      *error = std::string("cannot create the port worker's socket: ") + std::strerror(errno);
      return false;
    }
    // Output buffered in this process must not be written twice by a worker
    // that calls exit().
    std::fflush(nullptr);
    std::cout.flush();
    std::cerr.flush();
    const pid_t runner = getpid();
    const pid_t pid = fork();
    if (pid < 0) {
      *error = std::string("cannot fork the port worker: ") + std::strerror(errno);
      close(fds[0]);
      close(fds[1]);
      return false;
    }
    if (pid == 0) {
      // Descriptors 3 and 4 are the socket and the arena; nothing else of the
      // runner's stays open in the worker.
      const int sock = fcntl(fds[1], F_DUPFD, 16);
      const int arena = fcntl(memfd_, F_DUPFD, 16);
      if (sock < 0 || arena < 0) _exit(0);
      dup2(sock, kSocketFd);
      dup2(arena, kArenaFd);
#ifdef SYS_close_range
      if (syscall(SYS_close_range, kArenaFd + 1, ~0u, 0) != 0)
#endif
        for (int fd = kArenaFd + 1; fd < 4096; ++fd) close(fd);
      WorkerMain(path_, runner, memory_limit_bytes_);
    }
    close(fds[1]);
    setpgid(pid, pid);  // also done by the worker; whichever runs first
    interrupt::AddChild(pid, interrupt::ChildKind::kProcessGroup);
    pid_ = pid;
    socket_ = fds[0];
    pidfd_ = PidfdOpen(pid);
    // The hello.
    std::string message;
    std::string fault;
    loading_ = true;
    const bool received = Receive(&message, &fault);
    loading_ = false;
    if (!received) {
      *error = "port library '" + path_ + "' could not be loaded: " + fault;
      return false;
    }
    if (message[0] == 'E') {
      *error = SanitizeUtf8(message.substr(1));
      Stop();
      return false;
    }
    HelloMessage h;
    if (message[0] != 'H' || message.size() != sizeof(h)) {
      *error = "port library '" + path_ + "': the port worker answered garbage while loading";
      Stop();
      return false;
    }
    std::memcpy(&h, message.data(), sizeof(h));
    if (h.bytes > arena_bytes_) {
      *error = "port library '" + path_ + "': the port worker answered garbage while loading";
      Stop();
      return false;
    }
    std::vector<std::string> fields;
    const char* p = reinterpret_cast<const char*>(arena_);
    const char* end = p + h.bytes;
    while (p < end) {
      const size_t n = strnlen(p, static_cast<size_t>(end - p));
      fields.push_back(SanitizeUtf8(std::string_view(p, n)));
      p += n + 1;
    }
    if (fields.size() != 2 + h.n_claims) {
      *error = "port library '" + path_ + "': the port worker answered garbage while loading";
      Stop();
      return false;
    }
    hello->name = fields[0];
    if (!h.name_terminated) hello->name += " [name truncated]";
    hello->version = fields[1];
    if (!h.version_terminated) hello->version += " [version truncated]";
    hello->claims.assign(fields.begin() + 2, fields.end());
    dead_ = false;
    return true;
  }

  Answer Call(const Invocation& inv) {
    Answer answer = CallOnce(inv);
    if (arena_bytes_ > kKeepArenaBytes && owner_ == getpid()) {
      // The memory goes back; the file keeps its size (it cannot shrink).
      if (fallocate(memfd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
                    static_cast<off_t>(arena_bytes_)) != 0) {
        // The worker knows only this arena: both start afresh.
        Stop();
        munmap(arena_, arena_bytes_);
        arena_ = nullptr;
        arena_bytes_ = 0;
        close(memfd_);
        memfd_ = -1;
      }
    }
    return answer;
  }

  // Ends the worker; the next call starts a fresh one.
  void Restart() {
    if (owner_ != getpid()) AdoptAfterFork();
    Stop();
  }

 private:
  Answer CallOnce(const Invocation& inv) {
    Answer answer;
    if (owner_ != getpid()) AdoptAfterFork();
    if (!dead_ && WorkerGone()) {
      // It died between cases (a thread the port left running, say): no case
      // to blame; a fresh worker answers this one.
      Reap();
    }
    if (dead_) {
      Hello ignored;
      std::string error;
      if (restart_failed_ || !Start(&ignored, &error)) {
        if (!restart_failed_) restart_error_ = error;
        restart_failed_ = true;
        answer.fault = "port worker could not be restarted: " + restart_error_;
        FillOutputs(inv, nullptr, &answer);
        return answer;
      }
    }
    Layout layout = PlanLayout(inv, SerializeCase(inv, Layout{}).size());
    std::string error;
    if (!EnsureArena(layout.total_bytes, &error)) {
      answer.fault = error;
      FillOutputs(inv, nullptr, &answer);
      return answer;
    }
    // The last guard runs to the end of the arena (the worker's reservation
    // goes on behind it): no part of the arena a case does not use is writable.
    Region& last = layout.regions.back();
    last.guard_bytes = arena_bytes_ - last.guard_offset;
    const std::string blob = SerializeCase(inv, layout);
    last_layout_regions_ = layout.regions;
    std::memcpy(arena_, blob.data(), blob.size());
    std::memset(arena_ + layout.message_offset, 0, kMessageBytes);
    for (const Region& region : layout.regions) {
      for (uint64_t at = region.start; at < region.data_offset; ++at) {
        arena_[at] = PaddingByte(at, region.data_offset);
      }
    }
    // Tensors go through the arena's file, not its mapping: the worker holds
    // the port's buffers, and this process only its own copy of the case.
    bool placed = true;
    for (size_t i = 0; i < inv.inputs.size(); ++i) {
      if (layout.input_offsets[i]) {
        placed = placed && ArenaWrite(layout.input_offsets[i], inv.inputs[i].bytes.data(),
                                      inv.inputs[i].bytes.size(), &error);
      }
    }
    for (size_t i = 0; i < inv.outputs.size(); ++i) {
      const OutputSpec& spec = inv.outputs[i];
      if (!layout.output_offsets[i]) continue;
      const uint64_t at = layout.output_offsets[i];
      const uint64_t head = std::min<uint64_t>(spec.initial.size(), spec.capacity_bytes);
      if (head) placed = placed && ArenaWrite(at, spec.initial.data(), head, &error);
      placed = placed && ArenaFill(at + head, kSentinelByte, spec.capacity_bytes - head, &error);
    }
    if (!placed) {
      answer.fault = error;
      FillOutputs(inv, nullptr, &answer);
      return answer;
    }
    CaseMessage request;
    request.arena_bytes = arena_bytes_;
    request.blob_bytes = blob.size();
    if (send(socket_, &request, sizeof(request), MSG_NOSIGNAL) !=
        static_cast<ssize_t>(sizeof(request))) {
      answer.fault = "the port worker is gone: " + Reap();
      FillOutputs(inv, &layout, &answer);
      return answer;
    }
    std::string message;
    std::string fault;
    if (!Receive(&message, &fault)) {
      answer.fault = fault;
      answer.timed_out = timed_out_;
      if (!last_signal_.empty()) answer.fault += last_signal_;
      if (at_memory_limit_) answer.fault = MemoryLimitFault(answer.fault);
      FillOutputs(inv, &layout, &answer);
      return answer;
    }
    ResultMessage result;
    if (message[0] == 'R' && message.size() == sizeof(result)) {
      std::memcpy(&result, message.data(), sizeof(result));
      answer.call_result = result.call_result;
      answer.status = result.status;
    } else if (message[0] == 'X') {
      answer.fault = "threw a C++ exception through call: " + SanitizeUtf8(message.substr(1));
      if (at_memory_limit_) {
        answer.fault = MemoryLimitFault(answer.fault);
        Stop();  // the next case gets a fresh worker
      }
    } else {
      answer.fault =
          "the port worker answered garbage (" + SanitizeUtf8(message.substr(0, 64)) + ")";
      Stop();
    }
    if (answer.fault.empty()) answer.fault = InputWrites(inv, layout);
    if (answer.fault.empty()) answer.fault = PaddingWrites(layout);
    bool terminated = true;
    answer.message = BoundedCString(reinterpret_cast<const char*>(arena_ + layout.message_offset),
                                    kMessageBytes, &terminated);
    if (!terminated) {
      answer.message += " [message not NUL-terminated within " + std::to_string(kMessageBytes) +
                        " bytes; truncated]";
    }
    FillOutputs(inv, &layout, &answer);
    return answer;
  }

  // A call that failed with the worker at its memory limit: the limit first,
  // then how the port took the failing allocation.
  std::string MemoryLimitFault(const std::string& how) const {
    return "exceeded the memory limit of " + std::to_string(memory_limit_bytes_) +
           " bytes (--max-case-bytes), then " + how;
  }

  // Inputs are read-only (include/npuconf/port.h): names the first input the
  // port wrote to in the arena, "" when none (as the in-process port does).
  std::string InputWrites(const Invocation& inv, const Layout& layout) const {
    Bytes chunk(kArenaChunkBytes);
    for (size_t i = 0; i < inv.inputs.size(); ++i) {
      if (!layout.input_offsets[i]) continue;
      const Bytes& want = inv.inputs[i].bytes;
      for (uint64_t done = 0; done < want.size(); done += chunk.size()) {
        const uint64_t n = std::min<uint64_t>(chunk.size(), want.size() - done);
        std::string error;
        if (!ArenaRead(layout.input_offsets[i] + done, chunk.data(), n, &error)) return error;
        const auto at = std::mismatch(chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(n),
                                      want.begin() + static_cast<std::ptrdiff_t>(done))
                            .first;
        if (at != chunk.begin() + static_cast<std::ptrdiff_t>(n)) {
          return "wrote to its input '" + inv.inputs[i].name + "' (inputs are read-only), byte " +
                 std::to_string(done + static_cast<uint64_t>(at - chunk.begin()));
        }
      }
    }
    return {};
  }

  // A write between buffers that no guard caught (it skipped over one, or ran
  // back past an output's guard bytes): names the first damaged padding byte
  // by the buffers on either side of it, "" when every padding is intact. The
  // guard bytes right in front of an output are FillOutputs' to report.
  std::string PaddingWrites(const Layout& layout) const {
    for (size_t i = 0; i < layout.regions.size(); ++i) {
      const Region& region = layout.regions[i];
      const uint64_t end = region.kind == Region::Kind::kOutput ? region.data_offset - kGuardBytes
                                                                : region.data_offset;
      for (uint64_t at = region.start; at < end; ++at) {
        if (arena_[at] == PaddingByte(at, region.data_offset)) continue;
        std::string where = "wrote outside every buffer it was given, " +
                            std::to_string(region.data_offset - at) + " bytes before " +
                            RegionName(region);
        if (i > 0 && layout.regions[i - 1].kind != Region::Kind::kControl) {
          const Region& before = layout.regions[i - 1];
          where += " (" + std::to_string(at - before.data_offset - before.bytes) +
                   " bytes past the end of " + RegionName(before) + ")";
        }
        return where;
      }
    }
    return {};
  }

  // pwrite / pread of the arena's file at `offset`; false and *error on failure.
  bool ArenaWrite(uint64_t offset, const uint8_t* data, uint64_t bytes, std::string* error) const {
    for (uint64_t done = 0; done < bytes;) {
      const ssize_t n =
          pwrite(memfd_, data + done, bytes - done, static_cast<off_t>(offset + done));
      if (n <= 0) {
        if (n < 0 && errno == EINTR) continue;
        *error = "cannot write the port arena: " + std::string(std::strerror(n < 0 ? errno : EIO));
        return false;
      }
      done += static_cast<uint64_t>(n);
    }
    return true;
  }
  bool ArenaFill(uint64_t offset, uint8_t value, uint64_t bytes, std::string* error) const {
    const Bytes fill(std::min<uint64_t>(bytes, kArenaChunkBytes), value);
    for (uint64_t done = 0; done < bytes; done += fill.size()) {
      if (!ArenaWrite(offset + done, fill.data(), std::min<uint64_t>(fill.size(), bytes - done),
                      error))
        return false;
    }
    return true;
  }
  bool ArenaRead(uint64_t offset, uint8_t* data, uint64_t bytes, std::string* error) const {
    for (uint64_t done = 0; done < bytes;) {
      const ssize_t n = pread(memfd_, data + done, bytes - done, static_cast<off_t>(offset + done));
      if (n <= 0) {
        if (n < 0 && errno == EINTR) continue;
        *error = "cannot read the port arena: " + std::string(std::strerror(n < 0 ? errno : EIO));
        return false;
      }
      done += static_cast<uint64_t>(n);
    }
    return true;
  }

  // After fork() of the runner: the inherited worker belongs to the parent.
  void AdoptAfterFork() {
    CloseDescriptors();
    if (arena_) munmap(arena_, arena_bytes_);
    arena_ = nullptr;
    arena_bytes_ = 0;
    if (memfd_ >= 0) close(memfd_);
    memfd_ = -1;
    pid_ = -1;
    dead_ = true;
    restart_failed_ = false;
    owner_ = getpid();
  }

  // Whether the worker has ended since the last case (never blocks).
  bool WorkerGone() const {
    pollfd fds[2] = {{socket_, 0, 0}, {pidfd_, POLLIN, 0}};
    if (poll(fds, pidfd_ >= 0 ? 2 : 1, 0) <= 0) return false;
    return (fds[0].revents & (POLLHUP | POLLERR)) || (pidfd_ >= 0 && (fds[1].revents & POLLIN));
  }

  void CloseDescriptors() {
    if (socket_ >= 0) close(socket_);
    if (pidfd_ >= 0) close(pidfd_);
    socket_ = pidfd_ = -1;
  }

  bool EnsureArena(uint64_t bytes, std::string* error) {
    if (memfd_ < 0) {
      memfd_ = memfd_create("npuconf-port-arena", MFD_CLOEXEC | MFD_ALLOW_SEALING);
      // Sealed against shrinking (and further seals): a port that truncates
      // the arena it shares would make this process's next access to its
      // mapping a SIGBUS (found by the breaker: ftruncate through /proc/self/fd).
      if (memfd_ < 0 || fcntl(memfd_, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL) != 0) {
        *error = std::string("cannot create the port arena: ") + std::strerror(errno);
        if (memfd_ >= 0) close(memfd_);
        memfd_ = -1;
        return false;
      }
    }
    if (arena_ && arena_bytes_ >= bytes) return true;
    uint64_t want = std::max<uint64_t>(RoundUp(bytes, PageBytes()), kInitialArenaBytes);
    if (want <= kKeepArenaBytes) {
      want = std::min<uint64_t>(kKeepArenaBytes, std::max<uint64_t>(want, 2 * arena_bytes_));
    }
    // Grown only: the file cannot shrink, and a port may have grown it already.
    struct stat st {};
    const bool large_enough = fstat(memfd_, &st) == 0 && static_cast<uint64_t>(st.st_size) >= want;
    if (!large_enough && ftruncate(memfd_, static_cast<off_t>(want)) != 0) {
      *error = "cannot grow the port arena to " + std::to_string(want) +
               " bytes: " + std::strerror(errno);
      return false;
    }
    void* p = arena_ ? mremap(arena_, arena_bytes_, want, MREMAP_MAYMOVE)
                     : mmap(nullptr, want, PROT_READ | PROT_WRITE, MAP_SHARED, memfd_, 0);
    if (p == MAP_FAILED) {
      arena_ = nullptr;
      arena_bytes_ = 0;
      *error = "cannot map the port arena of " + std::to_string(want) +
               " bytes: " + std::strerror(errno);
      return false;
    }
    arena_ = static_cast<uint8_t*>(p);
    arena_bytes_ = want;
    return true;
  }

  // Waits for one message from the worker. false and *fault (what happened)
  // when the worker died or did not answer in time; the worker is then gone.
  bool Receive(std::string* message, std::string* fault) {
    last_signal_.clear();
    at_memory_limit_ = false;
    timed_out_ = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms_);
    std::array<char, kMaxControlMessage> buffer{};
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                            deadline - std::chrono::steady_clock::now())
                            .count();
      if (left < 0) {
        Kill();
        *fault = "timed out after " + std::to_string(timeout_ms_) + " ms";
        timed_out_ = true;
        return false;
      }
      pollfd fds[2] = {{socket_, POLLIN, 0}, {pidfd_, POLLIN, 0}};
      const int ready =
          poll(fds, pidfd_ >= 0 ? 2 : 1, static_cast<int>(std::min<int64_t>(left + 1, 1 << 30)));
      if (ready < 0 && errno != EINTR) {
        Kill();
        *fault = std::string("could not be waited for: ") + std::strerror(errno);
        return false;
      }
      if (ready <= 0) continue;
      if (fds[0].revents & POLLIN) {
        const ssize_t got = recv(socket_, buffer.data(), buffer.size(), MSG_DONTWAIT);
        if (got > 0) {
          message->assign(buffer.data(), static_cast<size_t>(got));
          if ((*message)[0] == 'S') {
            NoteSignal(*message);
            continue;  // the worker is about to die of it
          }
          if ((*message)[0] == 'M') {
            at_memory_limit_ = true;
            continue;  // the answer (or the worker's death) follows
          }
          return true;
        }
        if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      }
      if ((fds[0].revents & (POLLHUP | POLLERR | POLLIN)) ||
          (pidfd_ >= 0 && (fds[1].revents & POLLIN))) {
        // Drain a signal note the worker sent just before dying.
        for (;;) {
          const ssize_t got = recv(socket_, buffer.data(), buffer.size(), MSG_DONTWAIT);
          if (got <= 0) break;
          const std::string late(buffer.data(), static_cast<size_t>(got));
          if (late[0] == 'S') NoteSignal(late);
          if (late[0] == 'M') at_memory_limit_ = true;
        }
        *fault = Reap();
        return false;
      }
    }
  }

  // A fault in a guard: what the port touched, named by the buffer the guard
  // follows and, for a write, by the buffer it precedes.
  void NoteSignal(const std::string& message) {
    SignalMessage s;
    if (message.size() != sizeof(s)) return;
    std::memcpy(&s, message.data(), sizeof(s));
    const std::vector<Region>& regions = last_layout_regions_;
    if (!s.in_arena || regions.empty()) return;
    const std::string verb = s.is_write == 1 ? "wrote" : s.is_write == 0 ? "read" : "read or wrote";
    if (s.arena_offset < 0) {
      last_signal_ = ": " + verb + " " + std::to_string(-s.arena_offset) +
                     " bytes before the port's shared arena (before every buffer it was given)";
      return;
    }
    const auto offset = static_cast<uint64_t>(s.arena_offset);
    for (size_t i = 0; i < regions.size(); ++i) {
      const Region& region = regions[i];
      // The last guard goes on into the worker's reservation behind the arena.
      const bool in_guard =
          offset >= region.guard_offset &&
          (i + 1 == regions.size() || offset < region.guard_offset + region.guard_bytes);
      if (!in_guard) continue;
      const std::string at = " (byte " + std::to_string(offset - region.data_offset) + " of " +
                             std::to_string(region.bytes) + ")";
      switch (region.kind) {
        case Region::Kind::kControl:
          last_signal_ = ": " + verb + " outside every buffer it was given";
          break;
        case Region::Kind::kInput:
          last_signal_ = ": " + verb + " past the end of input '" + region.name + "'" + at;
          break;
        case Region::Kind::kOutput:
          last_signal_ = ": " + verb + " past the capacity of output '" + region.name + "'" + at;
          break;
        case Region::Kind::kMessage:
          last_signal_ = ": " + verb + " past message_bytes" + at;
          break;
      }
      if (i + 1 < regions.size() && s.is_write != 0) {
        const Region& next = regions[i + 1];
        last_signal_ += region.kind == Region::Kind::kControl ? ", " : ", or ";
        last_signal_ +=
            std::to_string(next.data_offset - offset) + " bytes before " + RegionName(next);
      }
      return;
    }
  }

  // The worker died (or is dying): waits for it and says how it ended.
  std::string Reap() {
    if (pid_ <= 0) return "is not running";
    int status = 0;
    kill(-pid_, SIGKILL);  // whatever the port started goes with it
    pid_t got;
    do {
      got = waitpid(pid_, &status, 0);
    } while (got < 0 && errno == EINTR);
    interrupt::RemoveChild(pid_);
    pid_ = -1;
    dead_ = true;
    CloseDescriptors();
    if (got < 0) return "died (its status is unknown)";
    return DescribeDeath(status, loading_ ? "while loading" : "inside call");
  }

  void Kill() {
    if (pid_ > 0) {
      kill(-pid_, SIGKILL);
      kill(pid_, SIGKILL);
    }
    Reap();
  }

  void Stop() {
    if (pid_ > 0) Kill();
    CloseDescriptors();
    dead_ = true;
  }

  // The outputs as the port left them, in the runner's GuardedBuffer form.
  void FillOutputs(const Invocation& inv, const Layout* layout, Answer* answer) {
    answer->outputs.resize(inv.outputs.size());
    for (size_t i = 0; i < inv.outputs.size(); ++i) {
      const OutputSpec& spec = inv.outputs[i];
      OutputResult& out = answer->outputs[i];
      out.name = spec.name;
      out.null = spec.null;
      auto buffer = std::make_shared<GuardedBuffer>(spec.capacity_bytes);
      const uint64_t offset = layout && arena_ ? layout->output_offsets[i] : 0;
      std::string error;
      if (offset && !ArenaRead(offset, buffer->data(), spec.capacity_bytes, &error)) {
        if (answer->fault.empty()) answer->fault = error;
      } else if (offset) {
        // The guard page behind the capacity makes a write past it a fault;
        // the guard bytes in front show a write before the start.
        for (size_t g = 0; g < kGuardBytes; ++g) {
          if (arena_[offset - kGuardBytes + g] != GuardByteAt(g)) {
            out.guards_intact = false;
            out.first_bad_offset = static_cast<int64_t>(g) - static_cast<int64_t>(kGuardBytes);
            break;
          }
        }
      } else {
        const uint64_t head = std::min<uint64_t>(spec.initial.size(), spec.capacity_bytes);
        if (head) std::memcpy(buffer->data(), spec.initial.data(), head);
      }
      if (layout && arena_) {
        int64_t slot[1 + NPUCONF_MAX_RANK];
        std::memcpy(slot, arena_ + layout->result_offset + i * kResultSlotBytes, sizeof(slot));
        out.rank = static_cast<int32_t>(slot[0]);  // an int32 in the worker
        if (out.rank >= 0 && out.rank <= NPUCONF_MAX_RANK) {
          out.dims.assign(slot + 1, slot + 1 + out.rank);
        }
      }
      out.buffer = std::move(buffer);
    }
  }

 private:
  std::string path_;
  int64_t timeout_ms_;
  uint64_t memory_limit_bytes_ = 0;  // of the worker's own data; 0: none
  pid_t owner_ = getpid();
  pid_t pid_ = -1;
  int socket_ = -1;
  int pidfd_ = -1;
  int memfd_ = -1;
  uint8_t* arena_ = nullptr;
  uint64_t arena_bytes_ = 0;
  bool dead_ = true;
  bool restart_failed_ = false;
  bool loading_ = false;  // waiting for the hello
  std::string restart_error_;
  std::string last_signal_;
  bool timed_out_ = false;        // the last Receive gave up waiting
  bool at_memory_limit_ = false;  // the last Receive heard the worker was at its memory limit
  std::vector<Region> last_layout_regions_;
};

IsolatedPort::IsolatedPort(std::string name, std::string version, std::vector<std::string> claims,
                           std::unique_ptr<IsolatedWorker> worker)
    : Port(std::move(name), std::move(version), std::move(claims)), worker_(std::move(worker)) {}

IsolatedPort::~IsolatedPort() = default;

std::unique_ptr<IsolatedPort> IsolatedPort::Start(const std::string& path, int64_t timeout_ms,
                                                  std::string* error) {
  return Start(path, timeout_ms, 0, error);
}

std::unique_ptr<IsolatedPort> IsolatedPort::Start(const std::string& path, int64_t timeout_ms,
                                                  uint64_t memory_limit_bytes, std::string* error) {
  auto worker = std::make_unique<IsolatedWorker>(path, timeout_ms, memory_limit_bytes);
  IsolatedWorker::Hello hello;
  if (!worker->Start(&hello, error)) return nullptr;
  return std::unique_ptr<IsolatedPort>(new IsolatedPort(
      std::move(hello.name), std::move(hello.version), std::move(hello.claims), std::move(worker)));
}

Answer IsolatedPort::Call(const Invocation& invocation) const { return worker_->Call(invocation); }

bool IsolatedPort::Restart() const {
  worker_->Restart();
  return true;
}

}  // namespace npuconf
