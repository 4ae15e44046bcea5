// A port that answers correctly until a case trips it, then misbehaves the way
// NPUCONF_FAULT says: the fault kinds an isolated port must survive (issue 8).
//
// It answers cann.calculate_matmul_weight_size_v2 (spec cann.md §1.4, the rule
// of examples/port_template) and cann.nd_to_nz / cann.nz_to_nd (§2.5, element
// by element) on ascend910b. The fault fires in the size routine (in
// cann.nd_to_nz for read_past_input and write_input) on a shape whose last dim is odd and
// >= kTripDim: the generators reach it within a few cases, some cases pass
// before it, the other routine's properties pass, and a reproducer of the
// failing case replays it exactly.
//
// NPUCONF_FAULT = segv | abort | exit0 | _exit | throw | hang | overflow_far |
//   write_skip_page (one byte a page and 100 bytes past the size output) |
//   write_far (one byte 8 MiB past the size output) |
//   write_before (cann.nd_to_nz / nz_to_nd: one byte 8 KiB before the output) |
//   write_before_pad (cann.nd_to_nz / nz_to_nd: one byte in front of the guard bytes) |
//   segv_back (cann.nz_to_nd only: the way back of cann.nd_to_nz's round trip crashes) |
//   read_past_input | write_input | sigkill | stack_overflow | bad_utf8 | no_nul_message |
//   null_claims | segv_unlink (deletes NPUCONF_FAULT_UNLINK, then segv) |
//   truncate_arena (tries to shrink the arena the runner maps: must fail) |
//   entry_segv | entry_hang (in npuconf_port_entry, while loading) |
//   rank_1000 (cann.nd_to_nz / nz_to_nd report an output rank of 1000) |
//   stale (from the 4th call of its process on, every size answer is 32 too
//   large: a port that keeps state between calls, or reads memory it never
//   initialised, fails in a long-lived worker and passes in a fresh one)
//   leak64 (every call mallocs 64 MiB, writes it and never frees it; a failed
//   malloc is written through: the SIGSEGV of a C port that does not check) |
//   leak64_new (the same with new[]: std::bad_alloc thrown through call)
//   (unset: no fault).
// NPUCONF_FAULT_LOG = a file the port appends a line to each time it faults
// (hangs included), so a test can count the faults a run cost.
// It is C++ only for `throw`; everything else is plain C through the ABI.
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stdexcept>

#include "npuconf/port.h"

namespace {

constexpr int64_t kTripDim = 24;

enum {
  kSuccess = 0,            // ACLNN_SUCCESS
  kParamNullptr = 161001,  // ACLNN_ERR_PARAM_NULLPTR
  kParamInvalid = 161002,  // ACLNN_ERR_PARAM_INVALID
};

const char* Fault() {
  const char* fault = getenv("NPUCONF_FAULT");
  return fault ? fault : "";
}
bool Is(const char* name) { return strcmp(Fault(), name) == 0; }

const npuconf_param* FindParam(const npuconf_case* c, const char* key) {
  for (uint64_t i = 0; i < c->n_params; ++i) {
    if (strcmp(c->params[i].key, key) == 0) return &c->params[i];
  }
  return nullptr;
}
npuconf_tensor* FindOutput(const npuconf_case* c, const char* name) {
  for (uint64_t i = 0; i < c->n_outputs; ++i) {
    if (strcmp(c->outputs[i].name, name) == 0) return &c->outputs[i];
  }
  return nullptr;
}
const npuconf_tensor* FindInput(const npuconf_case* c, const char* name) {
  for (uint64_t i = 0; i < c->n_inputs; ++i) {
    if (strcmp(c->inputs[i].name, name) == 0) return &c->inputs[i];
  }
  return nullptr;
}

int64_t RoundUp(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

// §1.4 on 910B, as examples/port_template/port_template.c.
int64_t WeightSizeV2(const npuconf_param* shape, const char* dtype, uint64_t* out) {
  if (shape == nullptr || shape->kind == NPUCONF_PARAM_NULL) return kParamNullptr;
  if (out == nullptr) return kParamNullptr;
  if (shape->kind != NPUCONF_PARAM_INT_LIST || shape->n_ints < 2 || shape->n_ints > 6) {
    return kParamInvalid;
  }
  const bool half = strcmp(dtype, "FLOAT16") == 0 || strcmp(dtype, "BF16") == 0;
  __int128 size = 1;
  for (uint64_t i = 0; i < shape->n_ints; ++i) {
    int64_t d = shape->ints[i];
    if (d <= 0) return kParamInvalid;
    if (i == shape->n_ints - 2) d = RoundUp(d, 16);
    if (i == shape->n_ints - 1) d = RoundUp(d, half ? 16 : 32);
    size *= d;
    if (size > INT64_MAX) return kParamInvalid;
  }
  *out = static_cast<uint64_t>(size);
  return kSuccess;
}

// Element bits and the ascend910b C0 (profiles/cann/ascend910b.json
// fractal_nz.c0: 32 B / element size; FLOAT/INT32 8, INT4 64); 0 when the
// profile gives none.
void DTypeFacts(const char* dtype, int* bits, int64_t* c0) {
  struct Row {
    const char* name;
    int bits;
    int64_t c0;
  };
  static const Row kRows[] = {
      {"FLOAT16", 16, 16}, {"BF16", 16, 16},         {"FLOAT", 32, 8},    {"INT8", 8, 32},
      {"UINT8", 8, 32},    {"INT32", 32, 8},         {"INT4", 4, 64},     {"INT16", 16, 0},
      {"INT64", 64, 0},    {"FLOAT8_E4M3FN", 8, 32}, {"HIFLOAT8", 8, 32}, {"UINT64", 64, 0},
  };
  *bits = 0;
  *c0 = 0;
  for (const Row& row : kRows) {
    if (strcmp(row.name, dtype) == 0) {
      *bits = row.bits;
      *c0 = row.c0;
    }
  }
}

uint8_t GetElementNibble(const uint8_t* data, int64_t e) {
  return (e & 1) ? static_cast<uint8_t>(data[e >> 1] >> 4)
                 : static_cast<uint8_t>(data[e >> 1] & 0xF);
}
void SetElementNibble(uint8_t* data, int64_t e, uint8_t v) {
  uint8_t& byte = data[e >> 1];
  byte = (e & 1) ? static_cast<uint8_t>((byte & 0x0F) | (v << 4))
                 : static_cast<uint8_t>((byte & 0xF0) | (v & 0xF));
}

// cann.nd_to_nz / cann.nz_to_nd (§2.5): ND [..., n, k] <-> [..., C1, N1, 16, C0];
// ND (b, r, c) sits at NZ ((b * C1 + c / C0) * N1 * 16 + r) * C0 + c % C0.
int32_t Layout(const npuconf_case* c, bool to_nz, int64_t* status, const npuconf_tensor* in,
               npuconf_tensor* out, const npuconf_param* shape, const char* dtype) {
  int bits = 0;
  int64_t c0 = 0;
  DTypeFacts(dtype, &bits, &c0);
  if (const npuconf_param* explicit_c0 = FindParam(c, "c0");
      explicit_c0 && explicit_c0->kind == NPUCONF_PARAM_INT) {
    c0 = explicit_c0->i;
  }
  const uint64_t rank = shape->n_ints;
  *status = kParamInvalid;
  if (rank == 0 || c0 <= 0 || bits == 0 || bits == 64 || (bits == 4 && c0 % 2 != 0)) {
    return NPUCONF_CALL_ANSWERED;
  }
  __int128 batch = 1;
  for (uint64_t i = 0; i < rank; ++i) {
    if (shape->ints[i] < 0) return NPUCONF_CALL_ANSWERED;
    if (i + 2 < rank) batch *= shape->ints[i];
    if (batch > INT64_MAX) return NPUCONF_CALL_ANSWERED;
  }
  const int64_t k = shape->ints[rank - 1];
  const int64_t n = rank >= 2 ? shape->ints[rank - 2] : 1;
  const int64_t n1 = (n + 15) / 16, c1 = (k + c0 - 1) / c0;
  const __int128 nd_elems = batch * n * k;
  const __int128 nz_elems = batch * c1 * n1 * 16 * c0;
  if (nd_elems * bits > INT64_MAX || nz_elems * bits > INT64_MAX) return NPUCONF_CALL_ANSWERED;
  const uint64_t nd_bytes = static_cast<uint64_t>((nd_elems * bits + 7) / 8);
  const uint64_t nz_bytes = static_cast<uint64_t>((nz_elems * bits + 7) / 8);
  const uint64_t in_bytes = to_nz ? nd_bytes : nz_bytes;
  const uint64_t out_bytes = to_nz ? nz_bytes : nd_bytes;
  if (in->bytes < in_bytes || out->bytes < out_bytes || (!in->data && in_bytes) ||
      (!out->data && out_bytes)) {
    return NPUCONF_CALL_ANSWERED;
  }
  const uint64_t out_rank = to_nz ? (rank >= 2 ? rank - 2 : 0) + 4 : rank;
  if (out_rank > NPUCONF_MAX_RANK) return NPUCONF_CALL_BAD_CASE;
  const auto* src = static_cast<const uint8_t*>(in->data);
  auto* dst = static_cast<uint8_t*>(out->data);
  if (out_bytes) memset(dst, 0, out_bytes);
  const int64_t element_bytes = bits / 8;
  for (int64_t b = 0; b < static_cast<int64_t>(batch); ++b) {
    for (int64_t r = 0; r < n; ++r) {
      for (int64_t col = 0; col < k; ++col) {
        const int64_t nd = (b * n + r) * k + col;
        const int64_t nz = ((b * c1 + col / c0) * n1 * 16 + r) * c0 + col % c0;
        const int64_t from = to_nz ? nd : nz, to = to_nz ? nz : nd;
        if (bits == 4) {
          SetElementNibble(dst, to, GetElementNibble(src, from));
        } else {
          memcpy(dst + to * element_bytes, src + from * element_bytes, element_bytes);
        }
      }
    }
  }
  if (to_nz) {
    uint64_t d = 0;
    for (uint64_t i = 0; i + 2 < rank; ++i) out->dims[d++] = shape->ints[i];
    out->dims[d++] = c1;
    out->dims[d++] = n1;
    out->dims[d++] = 16;
    out->dims[d++] = c0;
    out->rank = static_cast<int32_t>(d);
  } else {
    for (uint64_t i = 0; i < rank; ++i) out->dims[i] = shape->ints[i];
    out->rank = static_cast<int32_t>(rank);
  }
  *status = kSuccess;
  return NPUCONF_CALL_ANSWERED;
}

int Recurse(int depth) {
  volatile char frame[4096];
  frame[0] = static_cast<char>(depth);
  if (depth < 0) return frame[0];  // never: depth counts up until the stack runs out
  return Recurse(depth + 1) + frame[0];
}

// The fault, for faults that happen instead of an answer. Returns only for
// faults that are answers (messages) or that act on the buffers.
// Shrinks every memfd arena this process shares with the runner to 0 bytes,
// found as /proc/self/fd links to "/memfd:npuconf-port-arena"; returns how many
// it shrank (0 when the arena is sealed against it, as the runner seals it).
int TruncateArenas() {
  int shrunk = 0;
  for (int fd = 0; fd < 1024; ++fd) {
    char link[64], target[256];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    const ssize_t n = readlink(link, target, sizeof target - 1);
    if (n <= 0) continue;
    target[n] = 0;
    if (strstr(target, "npuconf-port-arena") && ftruncate(fd, 0) == 0) ++shrunk;
  }
  return shrunk;
}

void LogFault() {
  const char* path = getenv("NPUCONF_FAULT_LOG");
  if (path == nullptr) return;
  if (FILE* log = fopen(path, "a")) {
    fprintf(log, "%s\n", Fault());
    fclose(log);
  }
}

void FaultNow() {
  if (*Fault() != 0) LogFault();
  if (Is("truncate_arena")) {
    TruncateArenas();
  } else if (Is("segv_unlink")) {
    // The library goes away: the worker cannot be started again.
    if (const char* self = getenv("NPUCONF_FAULT_UNLINK")) unlink(self);
    volatile int* null_pointer = nullptr;
    *null_pointer = 1;
  } else if (Is("segv")) {
    volatile int* null_pointer = nullptr;
    *null_pointer = 1;
  } else if (Is("abort")) {
    abort();
  } else if (Is("exit0")) {
    exit(0);
  } else if (Is("_exit")) {
    _exit(7);
  } else if (Is("throw")) {
    throw std::runtime_error("fault port: thrown on purpose");
  } else if (Is("hang")) {
    for (;;) pause();
  } else if (Is("sigkill")) {
    raise(SIGKILL);
  } else if (Is("stack_overflow")) {
    Recurse(0);
  }
}

constexpr size_t kLeakBytes = size_t{64} << 20;

int32_t Call(const npuconf_case* c, int64_t* vendor_status, char* message, uint64_t message_bytes) {
  if (strcmp(c->profile, "ascend910b") != 0) return NPUCONF_CALL_UNCLAIMED;
  if (Is("leak64")) {
    void* volatile leaked = malloc(kLeakBytes);
    memset(leaked, 1, kLeakBytes);
  } else if (Is("leak64_new")) {
    char* volatile leaked = new char[kLeakBytes];
    memset(leaked, 1, kLeakBytes);
  }
  const npuconf_param* dtype = FindParam(c, "dtype");
  const npuconf_param* shape = FindParam(c, "shape");
  if (dtype == nullptr || dtype->kind != NPUCONF_PARAM_STRING) return NPUCONF_CALL_BAD_CASE;
  const bool trip = shape && shape->kind == NPUCONF_PARAM_INT_LIST && shape->n_ints > 0 &&
                    shape->ints[shape->n_ints - 1] >= kTripDim &&
                    shape->ints[shape->n_ints - 1] % 2 == 1;
  const bool size_routine = strcmp(c->routine, "cann.calculate_matmul_weight_size_v2") == 0;
  if (trip && size_routine) {
    FaultNow();
    if ((Is("bad_utf8") || Is("no_nul_message")) && message && message_bytes > 0) {
      if (Is("bad_utf8")) {
        const char text[] = "bad \xff\xfe utf-8 \xc3\x28 and a lone \xed\xa0\x80 surrogate";
        strncpy(message, text, message_bytes - 1);
        message[message_bytes - 1] = 0;
      } else {
        memset(message, 'x', message_bytes);  // no NUL anywhere
      }
      return NPUCONF_CALL_BAD_CASE;
    }
  }
  if (size_routine) {
    npuconf_tensor* size = FindOutput(c, "weight_tensor_size");
    if (size == nullptr) return NPUCONF_CALL_BAD_CASE;
    uint64_t value = 0;
    *vendor_status = WeightSizeV2(shape, dtype->s, size->data ? &value : nullptr);
    static int calls = 0;
    if (Is("stale") && ++calls >= 4) value += 32;
    if (*vendor_status == kSuccess) memcpy(size->data, &value, sizeof(value));
    if (trip && Is("overflow_far") && size->data) {
      // Runs on far past the 64 guard bytes.
      memset(static_cast<uint8_t*>(size->data) + size->bytes, 0x5A, 1 << 20);
    }
    if (trip && (Is("write_skip_page") || Is("write_far")) && size->data) {
      // A jump, not a run: the bytes in between stay untouched.
      const uint64_t past = Is("write_far") ? (8u << 20) : sysconf(_SC_PAGESIZE) + 100;
      static_cast<volatile uint8_t*>(size->data)[size->bytes + past] = 0x5A;
    }
    return NPUCONF_CALL_ANSWERED;
  }
  const bool to_nz = strcmp(c->routine, "cann.nd_to_nz") == 0;
  if (!to_nz && strcmp(c->routine, "cann.nz_to_nd") != 0) return NPUCONF_CALL_UNCLAIMED;
  const npuconf_tensor* in = FindInput(c, to_nz ? "nd" : "nz");
  npuconf_tensor* out = FindOutput(c, to_nz ? "nz" : "nd");
  if (!in || !out || !shape || shape->kind != NPUCONF_PARAM_INT_LIST) {
    return NPUCONF_CALL_BAD_CASE;
  }
  if (trip && !to_nz && Is("segv_back")) {
    volatile int* null_pointer = nullptr;
    *null_pointer = 1;
  }
  if (trip && Is("write_input") && in->data && in->bytes > 0) {
    static_cast<uint8_t*>(in->data)[0] ^= 0xFF;  // inputs are read-only (port.h)
  }
  if (trip && Is("read_past_input") && in->data && in->bytes > 0) {
    // One byte past the end, through volatile so the read stays.
    volatile uint8_t sink = static_cast<const volatile uint8_t*>(in->data)[in->bytes];
    (void)sink;
  }
  const int32_t answered = Layout(c, to_nz, vendor_status, in, out, shape, dtype->s);
  if (trip && Is("rank_1000")) out->rank = 1000;  // far past NPUCONF_MAX_RANK
  if (trip && (Is("write_before") || Is("write_before_pad")) && out->data) {
    const int64_t before = Is("write_before") ? 8192 : 65;  // guard bytes are 64
    static_cast<volatile uint8_t*>(out->data)[-before] = 0x5A;
  }
  return answered;
}

const char* const kClaims[] = {
    "cann.calculate_matmul_weight_size_v2:ascend910b",
    "cann.nd_to_nz:ascend910b",
    "cann.nz_to_nd:ascend910b",
    "choice:cann.size.negative_dims=param_invalid",
    "choice:cann.size.overflow=param_invalid",
    nullptr,
};

npuconf_port g_port = {NPUCONF_PORT_ABI_VERSION, "fault", "0", kClaims, Call};

}  // namespace

extern "C" __attribute__((visibility("default"))) const npuconf_port* npuconf_port_entry(
    uint32_t abi_version) {
  if (abi_version != NPUCONF_PORT_ABI_VERSION) return nullptr;
  if (Is("entry_segv")) {
    volatile int* null_pointer = nullptr;
    *null_pointer = 1;
  }
  if (Is("entry_hang")) {
    for (;;) pause();
  }
  if (Is("bad_utf8")) g_port.name = "fault \xff\xc0\x80 port";
  if (Is("null_claims")) g_port.claims = nullptr;
  return &g_port;
}
