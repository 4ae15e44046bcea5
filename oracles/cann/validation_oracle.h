// The documented checks of the CANN matmul-weight APIs as ordered rule tables:
// the first rule whose condition holds gives the status (spec cann.md §1.3,
// §1.4, §2.2). Written as data, apart from reference/'s if-chains.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/dtype.h"
#include "core/profile.h"
#include "core/shape.h"

namespace npuconf::oracle::cann {

struct SizeCall {
  std::optional<Shape> shape;  // nullopt: tensorShape == nullptr
  bool null_output = false;    // weightTensorSize == nullptr
  DType dtype = DType::kFloat16;
};

struct Expectation {
  int64_t status = 0;
  std::string rule;             // the rule that decided, with its spec section
  std::optional<int64_t> size;  // elements, when status is SUCCESS
  bool undefined = false;       // outside the vendor's defined domain
};

// `negative_reading` / `overflow_reading`: how a port claims to handle the
// undefined domain ("param_invalid", "as_shipped", or "" for unclaimed, which
// marks the expectation undefined).
Expectation ExpectLegacySize(const CannFacts& facts, const SizeCall& call,
                             const std::string& negative_reading,
                             const std::string& overflow_reading);
Expectation ExpectV2Size(const CannFacts& facts, const SizeCall& call,
                         const std::string& negative_reading, const std::string& overflow_reading);

struct TransCall {
  bool null_tensor = false;
  DType dtype = DType::kFloat16;
  std::string format = "ND";
  Shape view_shape;
};

struct TransExpectation {
  int64_t status = 0;
  std::string rule;
  bool converts = false;  // SUCCESS with an ND → NZ conversion (not the empty-tensor exit)
};

TransExpectation ExpectTrans(const CannFacts& facts, const TransCall& call);

}  // namespace npuconf::oracle::cann
