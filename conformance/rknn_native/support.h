// Shared pieces of the RKNN NC1HWC2 properties (spec layouts.md Part B): the
// routine ids, the geometry a case describes (the ORACLE's native dims, the
// profile's C2), the storage map of NC1HWC2 and whether a profile covers them.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "conformance/harness/expected.h"
#include "conformance/harness/property.h"
#include "core/routines/rknn_native.h"
#include "verify/storage_map.h"

namespace npuconf::rknn_native_props {

namespace ids = routines::rknn_native;

// The C2 table of the profile (dtype -> C2), empty where it is not public.
std::map<DType, int64_t> C2Table(const Profile& profile);
// "" or why the profile does not cover the NC1HWC2 routines (its C2 is not public).
std::string NotCovered(const Profile& profile);

bool IsNhwc(const std::string& routine);
bool IsToNative(const std::string& routine);

struct NativeGeometry {
  bool nhwc = false, to_native = false;
  DType dtype = DType::kInt8;  // of the native side
  Shape logical;               // the shape param: NCHW or NHWC
  int64_t c2 = 0;
  Shape native_dims;  // [N, C1, H, W, C2]
  int64_t plain_elems = 0, native_elems = 0;
  uint64_t plain_bytes = 0, native_bytes = 0;
  std::string plain_name() const { return nhwc ? "nhwc" : "nchw"; }
};

// Throws CaseError for a case that is not a valid NC1HWC2 case on the profile
// (rank not 4, a dim < 1, a dtype the C2 table lacks, a size past int64).
NativeGeometry GeometryOf(const Case& c, const Profile& profile);

// NC1HWC2 [N, C1, H, W, C2]: block = (n, C1 block), a plane of H·W·C2
// elements; within = h, w, lane; logical NCHW / NHWC [n, c, h, w], or a pad
// lane where c1·C2 + lane >= C.
class Nc1hwc2Map : public verify::StorageMap {
 public:
  Nc1hwc2Map(Shape logical, bool nhwc, int64_t c2);
  int64_t elements() const override { return elements_; }
  std::string logical_name() const override { return nhwc_ ? "NHWC" : "NCHW"; }
  verify::Place Locate(int64_t storage_index) const override;
  int64_t block_elements() const override { return h_ * w_ * c2_; }

 private:
  bool nhwc_ = false;
  int64_t n_ = 0, c_ = 0, h_ = 0, w_ = 0, c2_ = 0, c1_ = 0, elements_ = 0;
};

std::shared_ptr<verify::StorageMap> PlainMapOf(const NativeGeometry& g);

// ---- zero-copy NHWC inputs (§B.4) ------------------------------------------------

// "" or why the profile does not cover rknn.nhwc_zero_copy_pack and the NHWC
// size (its zero-copy input conditions are not public).
std::string ZeroCopyNotCovered(const Profile& profile);
// True for an rknn.nc1hwc2_size case with fmt NHWC.
bool IsNhwcSize(const Case& c);

struct ZeroCopyGeometry {
  DType dtype = DType::kUint8;
  Shape logical;      // [N, H, W, C]
  int64_t w_stride;   // the case's param (0: W)
  Shape stored_dims;  // [N, H, stored width, C], the oracle's
  int64_t plain_elems = 0, stored_elems = 0;
  uint64_t plain_bytes = 0, stored_bytes = 0;  // size and size_with_stride
  bool first_batch_only = false;  // reading first_batch of rknn.native_io.nhwc_input_batch
};

// Throws CaseError for a case the routine must reject on the profile: rank not
// 4, a dim < 1, a dtype or C outside the zero-copy conditions, w_stride in
// (0, W) or negative, a size past int64.
ZeroCopyGeometry ZeroCopyGeometryOf(const Case& c, const Profile& profile);

// [N, H, stored width, C]: block = (n, h), a row; within = w, c; the fill
// pixels w >= W (and under first_batch every batch past 0) are padding, their
// content unspecified.
class StridedRowsMap : public verify::StorageMap {
 public:
  explicit StridedRowsMap(const ZeroCopyGeometry& g);
  int64_t elements() const override { return elements_; }
  std::string logical_name() const override { return "NHWC"; }
  verify::Place Locate(int64_t storage_index) const override;
  int64_t block_elements() const override { return stored_w_ * c_; }

 private:
  int64_t n_ = 0, h_ = 0, w_ = 0, c_ = 0, stored_w_ = 0, elements_ = 0;
  bool first_batch_only_ = false;
};

// Registration of the family's properties (properties.cpp).
void AddProperties(std::vector<Property>* out);

// Explicit cases (cases.cpp): every C2 edge, H = W = 1, and the real
// feature-map shapes of detection heads.
std::vector<Case> EdgeCases(const std::string& routine, const Profile& profile);
std::vector<Case> RealCases(const std::string& routine, const Profile& profile);
// Invalid cases of any routine of the family, each with the fault it names.
struct InvalidCase {
  std::string fault;
  Case c;
};
std::vector<InvalidCase> InvalidCases(const std::string& routine, const Profile& profile);
// The zero-copy cases (cases.cpp): every zero-copy dtype and C, w_stride 0, W,
// align(W, the profile's width alignment) and past it; the invalid NHWC calls
// of the pack and of the NHWC size.
std::vector<Case> ZeroCopyEdgeCases(const std::string& routine, const Profile& profile);
std::vector<InvalidCase> ZeroCopyInvalidCases(const std::string& routine, const Profile& profile);

}  // namespace npuconf::rknn_native_props
