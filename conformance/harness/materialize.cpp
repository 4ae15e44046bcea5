#include "conformance/harness/materialize.h"

#include "core/prng.h"

namespace npuconf {
namespace {

uint64_t g_max_case_bytes = kMaxCaseBytes;
thread_local uint64_t t_case_bytes = 0;

std::string GiB(uint64_t bytes) {
  if (bytes < (uint64_t{1} << 20)) return std::to_string(bytes) + " bytes";
  return std::to_string(bytes) + " bytes (" +
         std::to_string(static_cast<double>(bytes) / double(uint64_t{1} << 30)).substr(0, 6) +
         " GiB)";
}

}  // namespace

CaseTooLarge::CaseTooLarge(uint64_t needed, uint64_t budget)
    : CaseError("the case is too large: it needs at least " + GiB(needed) +
                " of buffers (inputs, outputs and, where a check needs it, the expected output), "
                "over the "
                "budget of " +
                GiB(budget) + " (--max-case-bytes)"),
      needed_bytes(needed),
      budget_bytes(budget) {}

uint64_t MaxCaseBytes() { return g_max_case_bytes; }
void SetMaxCaseBytes(uint64_t bytes) { g_max_case_bytes = bytes; }

void BeginCaseBytes() { t_case_bytes = 0; }

void ChargeCaseBytes(uint64_t bytes) {
  uint64_t total = 0;
  if (__builtin_add_overflow(t_case_bytes, bytes, &total)) total = UINT64_MAX;
  if (total > g_max_case_bytes) throw CaseTooLarge(total, g_max_case_bytes);
  t_case_bytes = total;
}

Shape RequireShape(const Case& c, const char* key) {
  auto shape = c.IntList(key);
  if (!shape) throw CaseError("case needs " + std::string(key) + "=[d0,d1,...] (an int list)");
  return *shape;
}

int64_t RequireInt(const Case& c, const char* key) {
  auto v = c.Int(key);
  if (!v) throw CaseError("case needs " + std::string(key) + "=N (an integer)");
  return *v;
}

DType RequireDType(const Case& c, const char* key) {
  const ParamValue* p = c.Find(key);
  if (!p) throw CaseError("case needs " + std::string(key) + "=NAME");
  auto dtype = c.DTypeParam(key);
  if (!dtype) throw CaseError("unknown dtype '" + p->ToText() + "' in " + key);
  return *dtype;
}

uint64_t Seed(const Case& c) {
  const ParamValue* seed = c.Find("seed");
  if (seed && seed->kind != ParamValue::Kind::kInt) {
    throw CaseError("seed=" + seed->ToText() + " is not an integer");
  }
  return static_cast<uint64_t>(seed ? seed->i : 0);
}

Bytes RandomBytes(uint64_t seed, uint64_t count) {
  ChargeCaseBytes(count);
  Bytes bytes(count);
  FillRandomBytes(seed, bytes.data(), count);
  return bytes;
}

uint64_t ElemBytes(DType dtype, int64_t elems, const Shape& shape) {
  auto bytes = elems < 0 ? std::nullopt : BytesForElems(dtype, static_cast<uint64_t>(elems));
  if (!bytes) {
    throw CaseError("shape " + ToString(shape) + " of " + std::string(Name(dtype)) +
                    " overflows 64-bit byte arithmetic");
  }
  if (*bytes > g_max_case_bytes) {
    throw CaseTooLarge(*bytes, g_max_case_bytes);
  }
  return *bytes;
}

bool OutputIsNull(const Case& c, const std::string& name) {
  const ParamValue* p = c.Find(name);
  return p && p->kind == ParamValue::Kind::kNull;
}

}  // namespace npuconf
