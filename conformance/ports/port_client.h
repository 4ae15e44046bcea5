// A loaded port and how the runner calls it: marshals a case's params and
// tensors into the C ABI, allocates guarded output buffers, and collects the
// answer. Ports come built in (reference, mutants) or from a shared library.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/buffer.h"
#include "core/case.h"
#include "npuconf/port.h"

namespace npuconf {

struct InputTensor {
  std::string name;
  DType dtype = DType::kUint8;
  Shape shape;
  Bytes bytes;
};

struct OutputSpec {
  std::string name;
  DType dtype = DType::kUint8;
  uint64_t capacity_bytes = 0;
  bool null = false;  // pass data == NULL (a caller's null pointer)
  Bytes initial;      // content at the head before the call (in-place routines)
  // The buffer as handed to the port: `initial`, then kSentinelByte.
  Bytes Before() const;
};

// A case made concrete: the buffers that travel through the ABI.
struct Invocation {
  Case c;
  std::vector<InputTensor> inputs;
  std::vector<OutputSpec> outputs;
  const InputTensor* Input(const std::string& name) const;
};

struct OutputResult {
  std::string name;
  bool null = false;
  std::shared_ptr<const GuardedBuffer> buffer;  // the buffer after the call
  std::span<const uint8_t> contents() const {
    return {buffer->data(), static_cast<size_t>(buffer->capacity_bytes())};
  }
  bool guards_intact = true;
  int64_t first_bad_offset = 0;  // of the guard zones, relative to the data start
  int32_t rank = -1;             // as written by the port; -1 if not written
  Shape dims;
};

struct Answer {
  int32_t call_result = NPUCONF_CALL_UNCLAIMED;
  int64_t status = 0;
  std::string message;
  std::vector<OutputResult> outputs;
  const OutputResult* Output(const std::string& name) const;
};

class Port {
 public:
  // Wraps a built-in table (reference port, mutants).
  explicit Port(const npuconf_port* table, std::string display_name = {});
  // Loads a shared library exporting npuconf_port_entry. nullptr and *error
  // set when it cannot be loaded or speaks another ABI version.
  static std::unique_ptr<Port> LoadLibrary(const std::string& path, std::string* error);
  ~Port();
  Port(const Port&) = delete;
  Port& operator=(const Port&) = delete;

  const std::string& name() const { return name_; }
  std::string version() const { return table_->version ? table_->version : ""; }
  std::vector<std::string> claims() const;
  bool Claims(const std::string& routine, const std::string& profile) const;
  // The value of a "choice:NAME=VALUE" claim, if the port makes one.
  std::optional<std::string> ClaimedChoice(const std::string& choice_name) const;

  // Calls the port. A crash inside the port ends the process with exit code 3
  // and names the case on stderr (DESIGN.md exit codes).
  Answer Call(const Invocation& invocation) const;

 private:
  const npuconf_port* table_;
  std::string name_;
  void* library_ = nullptr;
};

}  // namespace npuconf
