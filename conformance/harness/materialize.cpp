#include "conformance/harness/materialize.h"

#include "core/prng.h"

namespace npuconf {

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
  if (count > kMaxCaseBytes) {
    throw CaseError("tensor of " + std::to_string(count) + " bytes exceeds the runner's limit of " +
                    std::to_string(kMaxCaseBytes));
  }
  Bytes bytes(count);
  FillRandomBytes(seed, bytes.data(), count);
  return bytes;
}

uint64_t ElemBytes(DType dtype, int64_t elems, const Shape& shape) {
  auto bytes = elems < 0 ? std::nullopt : BytesForElems(dtype, static_cast<uint64_t>(elems));
  if (!bytes || *bytes > kMaxCaseBytes) {
    throw CaseError("shape " + ToString(shape) + " of " + std::string(Name(dtype)) +
                    " is too large for the runner (limit " + std::to_string(kMaxCaseBytes) +
                    " bytes)");
  }
  return *bytes;
}

bool OutputIsNull(const Case& c, const std::string& name) {
  const ParamValue* p = c.Find(name);
  return p && p->kind == ParamValue::Kind::kNull;
}

}  // namespace npuconf
