// Read access to an npuconf_case from C++: params by key, tensors by name. Used
// by ports written in C++ (the reference port, the mutants) to read a case.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "core/dtype.h"
#include "core/shape.h"
#include "npuconf/port.h"

namespace npuconf {

class CaseView {
 public:
  explicit CaseView(const npuconf_case* c) : c_(c) {}
  const npuconf_case& raw() const { return *c_; }
  std::string routine() const { return c_->routine ? c_->routine : ""; }
  std::string profile() const { return c_->profile ? c_->profile : ""; }

  const npuconf_param* Param(const char* key) const {
    for (uint64_t i = 0; i < c_->n_params; ++i) {
      if (c_->params[i].key && std::strcmp(c_->params[i].key, key) == 0) return &c_->params[i];
    }
    return nullptr;
  }
  bool Has(const char* key) const { return Param(key) != nullptr; }
  bool IsNull(const char* key) const {
    const auto* p = Param(key);
    return p && p->kind == NPUCONF_PARAM_NULL;
  }
  std::optional<int64_t> Int(const char* key) const {
    const auto* p = Param(key);
    if (!p || p->kind != NPUCONF_PARAM_INT) return std::nullopt;
    return p->i;
  }
  std::optional<std::string> String(const char* key) const {
    const auto* p = Param(key);
    if (!p || p->kind != NPUCONF_PARAM_STRING || !p->s) return std::nullopt;
    return std::string(p->s);
  }
  std::optional<Shape> IntList(const char* key) const {
    const auto* p = Param(key);
    if (!p || p->kind != NPUCONF_PARAM_INT_LIST) return std::nullopt;
    return Shape(p->ints, p->ints + p->n_ints);
  }
  std::optional<DType> DTypeParam(const char* key) const {
    auto name = String(key);
    return name ? ParseDType(*name) : std::nullopt;
  }
  const npuconf_tensor* Input(const char* name) const {
    for (uint64_t i = 0; i < c_->n_inputs; ++i) {
      if (c_->inputs[i].name && std::strcmp(c_->inputs[i].name, name) == 0) return &c_->inputs[i];
    }
    return nullptr;
  }
  npuconf_tensor* Output(const char* name) const {
    for (uint64_t i = 0; i < c_->n_outputs; ++i) {
      if (c_->outputs[i].name && std::strcmp(c_->outputs[i].name, name) == 0) {
        return &c_->outputs[i];
      }
    }
    return nullptr;
  }

 private:
  const npuconf_case* c_;
};

// What a C++ port's routine returns: an npuconf_call_result and, when that is
// not ANSWERED, a note for the runner.
struct PortAnswer {
  int32_t result;
  std::string message;
};
inline PortAnswer Answered() { return {NPUCONF_CALL_ANSWERED, {}}; }
inline PortAnswer BadCase(std::string why) { return {NPUCONF_CALL_BAD_CASE, std::move(why)}; }

// Writes `shape` as an output's storage shape; false if it exceeds NPUCONF_MAX_RANK.
inline bool SetOutputShape(npuconf_tensor* out, const Shape& shape) {
  if (!out || !out->dims || shape.size() > NPUCONF_MAX_RANK) return false;
  out->rank = static_cast<int32_t>(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) out->dims[i] = shape[i];
  return true;
}

// Copies `text` into a port's message buffer (truncating, always NUL-terminated).
inline void WriteMessage(char* message, uint64_t message_bytes, const std::string& text) {
  if (!message || message_bytes == 0) return;
  const size_t n = std::min<uint64_t>(text.size(), message_bytes - 1);
  std::memcpy(message, text.data(), n);
  message[n] = '\0';
}

}  // namespace npuconf
