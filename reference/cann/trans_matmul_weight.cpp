#include "reference/cann/trans_matmul_weight.h"

#include <cstring>
#include <vector>

#include "core/status.h"
#include "reference/cann/fractal_nz.h"

namespace npuconf::cann {

int64_t TransMatmulWeight(const CannFacts& facts, const TransMatmulWeightArgs& args,
                          Shape* storage_shape) {
  if (args.null_tensor) return kAclnnErrParamNullptr;
  if (!facts.TransSupports(args.dtype)) return kAclnnErrParamInvalid;
  if (args.format != "ND") return kAclnnErrParamInvalid;
  const Shape& shape = args.view_shape;
  if (static_cast<int>(shape.size()) > facts.trans_max_view_rank) return kAclnnErrParamInvalid;
  for (int64_t dim : shape) {
    if (dim < 0) return kAclnnErrParamInvalid;
  }
  for (int64_t dim : shape) {
    if (dim == 0) {
      *storage_shape = shape;  // untouched: still ND with its view shape
      return kAclnnSuccess;
    }
  }
  const RankRange& rank_rule =
      args.dtype == DType::kInt8 ? facts.trans_rank_int8 : facts.trans_rank_other;
  if (!rank_rule.Contains(shape.size())) return kAclnnErrParamInvalid;

  auto c0 = facts.nz_c0.find(args.dtype);
  if (c0 == facts.nz_c0.end()) return kAclnnErrParamInvalid;
  auto geometry = NzGeometryFor(shape, args.dtype, c0->second);
  if (!geometry || args.data == nullptr || geometry->nd_bytes > args.capacity_bytes ||
      geometry->storage_bytes > args.capacity_bytes) {
    return kAclnnErrParamInvalid;
  }
  // The ND copy is the "contiguous" input of the l0 TransData; the NZ result
  // is then moved into the caller's buffer (§2.2 step 7).
  std::vector<uint8_t> nd(args.data, args.data + geometry->nd_bytes);
  PackNdToNz(nd.data(), args.data, *geometry);
  *storage_shape = geometry->storage_shape;
  return kAclnnSuccess;
}

}  // namespace npuconf::cann
