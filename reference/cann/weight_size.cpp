#include "reference/cann/weight_size.h"

#include <cstdint>

#include "core/status.h"

namespace npuconf::cann {
namespace {

constexpr int64_t kRowAlign = 16;       // §1.2: s[r-2] rounded up to 16
constexpr int64_t kColAlignHalf = 16;   // §1.2: FLOAT16/BF16 last dim to 16
constexpr int64_t kColAlignOther = 32;  // §1.2: every other dtype to 32

// CeilAlign of spec cann.md §0.3 for x >= 0: saturates to INT64_MAX when the
// aligned value does not fit.
int64_t CeilAlignSaturating(int64_t x, int64_t align) {
  auto aligned = CheckedRoundUp(x, align);
  return aligned ? *aligned : INT64_MAX;
}

int64_t WriteSize(const Shape& shape, int64_t k_align, uint64_t* size_elems) {
  int64_t size = 0;
  if (!MatmulWeightSizeElems(shape, k_align, &size)) return kAclnnErrParamInvalid;
  *size_elems = static_cast<uint64_t>(size);
  return kAclnnSuccess;
}

}  // namespace

bool MatmulWeightSizeElems(const Shape& shape, int64_t k_align, int64_t* size_elems) {
  const size_t rank = shape.size();
  if (rank < 2) return false;
  for (int64_t dim : shape) {
    if (dim < 0) return false;
  }
  // Upstream multiplies in this order in int64 (§1.2); a partial product that
  // leaves int64 is undefined there, so it is rejected here.
  auto batch = ProductOf(shape, 0, rank - 2);
  if (!batch) return false;
  auto partial = CheckedMul(*batch, CeilAlignSaturating(shape[rank - 2], kRowAlign));
  if (!partial) return false;
  auto total = CheckedMul(*partial, CeilAlignSaturating(shape[rank - 1], k_align));
  if (!total) return false;
  *size_elems = *total;
  return true;
}

int64_t CalculateMatmulWeightSize(const CannFacts& facts, const Shape* shape,
                                  uint64_t* size_elems) {
  if (shape == nullptr) return kAclnnErrParamNullptr;
  if (size_elems == nullptr) return kAclnnErrParamNullptr;
  if (!facts.legacy_size_rank.Contains(shape->size())) return kAclnnErrParamInvalid;
  // The legacy API fixes its dtype to ACL_FLOAT16 (§1.2): always 16×16.
  return WriteSize(*shape, kColAlignHalf, size_elems);
}

int64_t CalculateMatmulWeightSizeV2(const CannFacts& facts, const Shape* shape, DType dtype,
                                    uint64_t* size_elems) {
  if (!facts.v2_size_supported) return kAclnnErrRuntimeError;
  if (shape == nullptr) return kAclnnErrParamNullptr;
  if (size_elems == nullptr) return kAclnnErrParamNullptr;
  if (!facts.v2_size_rank.Contains(shape->size())) return kAclnnErrParamInvalid;
  for (int64_t dim : *shape) {
    if (dim == 0) return kAclnnErrParamInvalid;  // CheckNonZeroShape (§1.4 step 5)
  }
  const bool half = dtype == DType::kFloat16 || dtype == DType::kBf16;
  return WriteSize(*shape, half ? kColAlignHalf : kColAlignOther, size_elems);
}

}  // namespace npuconf::cann
