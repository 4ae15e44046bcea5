// Shared pieces of the RKNN Matmul properties (spec rknn.md): routine ids, the
// layout a case describes (from the ORACLE's sub-blocks and geometry and the
// profile's facts), the sub-blocks the generators draw from, and the create
// info a case describes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "conformance/harness/call.h"
#include "conformance/harness/expected.h"
#include "conformance/harness/property.h"
#include "conformance/ports/port.h"
#include "conformance/rknn/native_map.h"
#include "core/routines/rknn.h"
#include "generators/rknn.h"
#include "oracles/rknn/create_oracle.h"
#include "oracles/rknn/layout_oracle.h"
#include "oracles/rknn/sub_block_oracle.h"

namespace npuconf::rknn_props {

namespace ids = routines::rknn;
inline constexpr const char* kCreate = ids::kMatmulCreate;
inline constexpr const char* kDynamic = ids::kMatmulCreateDynamic;
inline constexpr const char* kANorm2Native = ids::kANormToNative;
inline constexpr const char* kANative2Norm = ids::kANativeToNorm;
inline constexpr const char* kCNorm2Native = ids::kCNormToNative;
inline constexpr const char* kCNative2Norm = ids::kCNativeToNorm;
inline constexpr const char* kBNorm2Native = ids::kBNormToNative;
inline constexpr const char* kBNative2Norm = ids::kBNativeToNorm;
inline constexpr const char* kBTp2Native = ids::kBTpNormToNative;
inline constexpr const char* kBNative2Tp = ids::kBNativeToTpNorm;
inline constexpr const char* kInt4Pack = ids::kInt4Pack;
inline constexpr const char* kInt4Unpack = ids::kInt4Unpack;

// Registration of the family's properties (create_properties.cpp, layout_properties.cpp).
void AddCreateProperties(std::vector<Property>* out);
void AddLayoutProperties(std::vector<Property>* out);

// One layout case made concrete: which matrix, its dtype and sub-blocks (case
// overrides applied), the nibble orders, and both sides' names and shapes.
struct LayoutGeometry {
  Matrix matrix = Matrix::kA;
  bool to_native = true;
  bool tp = false;  // B given as TP_NORM [N, K]
  RknnMatmulType type;
  DType dtype = DType::kInt8;
  int64_t M = 0, K = 0, N = 0;
  int64_t sub = 0;          // A: subK; C: subN_C
  oracle::rknn::BLayout b;  // B only
  NibbleOrder plain_order = NibbleOrder::kLowFirst, native_order = NibbleOrder::kLowFirst;
  std::string plain_name, native_name;  // "A" / "A_native", "B" / "B_tp" / "B_native"
  Shape plain_dims, native_dims;
  int64_t plain_elems = 0, native_elems = 0;
  uint64_t plain_bytes = 0, native_bytes = 0;
  std::string in_name() const { return to_native ? plain_name : native_name; }
  std::string out_name() const { return to_native ? native_name : plain_name; }
};

bool IsLayoutRoutine(const std::string& routine);
Matrix MatrixOf(const std::string& routine);
bool IsTpRoutine(const std::string& routine);
// Throws CaseError for a malformed case or a type the profile does not support.
LayoutGeometry GeometryOf(const Case& c, const Profile& profile);

// The oracle's sub-blocks of a supported type under the profile's readings.
oracle::rknn::SubBlocks SubBlocksOf(const RknnFacts& facts, int32_t type);
// Every supported type with the oracle's sub-blocks, for the generators.
std::vector<gen::rknn::TypeBlocks> TypeBlocksOf(const RknnFacts& facts);

oracle::rknn::Info InfoOf(const Case& c);

// The profile's reading of rknn.segment.b_dims is `unknown`: the dims a port
// reports for a segmented NATIVE B are not checked (spec rknn.md §3.3, §8.7).
bool SegmentedBDimsOpen(const Profile& profile);

// The oracle's answer of each layout and int4 routine, for vector files
// (layout_properties.cpp).
Expected ExpectLayoutAnswer(const PropertyContext& ctx, const Invocation& inv);
Expected ExpectInt4Answer(const PropertyContext& ctx, const Invocation& inv);
oracle::rknn::Readings ReadingsOf(const Case& c);

}  // namespace npuconf::rknn_props
