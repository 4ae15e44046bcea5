#include "conformance/rknn/support.h"

#include "conformance/harness/materialize.h"

namespace npuconf::rknn_props {
namespace {

int64_t RequirePositive(const Case& c, const char* key) {
  auto v = c.Int(key);
  if (!v) throw CaseError(std::string("case needs ") + key + "=N (an integer)");
  if (*v <= 0) throw CaseError(std::string(key) + "=" + std::to_string(*v) + " must be positive");
  return *v;
}

NibbleOrder NibbleParam(const Case& c, const char* key, NibbleOrder fallback) {
  auto text = c.String(key);
  if (!text) return fallback;
  auto order = ParseNibbleOrder(*text);
  if (!order) throw CaseError(std::string(key) + "='" + *text + "' is not low_first or high_first");
  return *order;
}

bool IsForward(const std::string& r) {
  return r == kANorm2Native || r == kCNorm2Native || r == kBNorm2Native || r == kBTp2Native;
}

}  // namespace

bool IsLayoutRoutine(const std::string& r) {
  return r == kANorm2Native || r == kANative2Norm || r == kCNorm2Native || r == kCNative2Norm ||
         r == kBNorm2Native || r == kBNative2Norm || r == kBTp2Native || r == kBNative2Tp;
}

Matrix MatrixOf(const std::string& r) {
  if (r == kANorm2Native || r == kANative2Norm) return Matrix::kA;
  if (r == kCNorm2Native || r == kCNative2Norm) return Matrix::kC;
  return Matrix::kB;
}

bool IsTpRoutine(const std::string& r) { return r == kBTp2Native || r == kBNative2Tp; }

oracle::rknn::SubBlocks SubBlocksOf(const RknnFacts& facts, int32_t type) {
  auto sub = oracle::rknn::SubBlocksOf(facts, type);
  if (!sub)
    throw CaseError("no NATIVE sub-blocks for type " + std::to_string(type) +
                    " (spec rknn.md §2.2)");
  return *sub;
}

std::vector<gen::rknn::TypeBlocks> TypeBlocksOf(const RknnFacts& facts) {
  std::vector<gen::rknn::TypeBlocks> out;
  for (int32_t type : facts.supported_types) {
    const auto s = SubBlocksOf(facts, type);
    out.push_back({.type = type,
                   .a_sub_k = s.a_sub_k,
                   .b_sub_n = s.b_sub_n,
                   .b_sub_k = s.b_sub_k,
                   .c_sub_n = s.c_sub_n});
  }
  return out;
}

LayoutGeometry GeometryOf(const Case& c, const Profile& profile) {
  if (!profile.rknn || !profile.rknn->has_tables) {
    throw CaseError("routine " + c.routine + " needs an RKNN profile with tables, not '" +
                    profile.name + "'");
  }
  const RknnFacts& f = *profile.rknn;
  const std::string& r = c.routine;
  if (!IsLayoutRoutine(r)) throw CaseError("'" + r + "' is not an RKNN layout routine");
  auto type = c.Int("type");
  if (!type) throw CaseError("case needs type=N (rknn_matmul_type, spec rknn.md §1.1)");
  if (!f.Supports(static_cast<int32_t>(*type))) {
    throw CaseError("type " + std::to_string(*type) + " is not supported on " + profile.name +
                    " (spec rknn.md §3.1)");
  }
  const oracle::rknn::SubBlocks sub = SubBlocksOf(f, static_cast<int32_t>(*type));
  LayoutGeometry l;
  l.type = *f.FindType(static_cast<int32_t>(*type));
  l.to_native = IsForward(r);
  l.matrix = MatrixOf(r);
  l.plain_order = l.native_order = f.norm_nibble;  // §2.4: NORM, NATIVE A/C, TP_NORM
  if (l.matrix != Matrix::kB) {
    const bool a = l.matrix == Matrix::kA;
    l.dtype = a ? l.type.a : l.type.c;
    l.M = RequirePositive(c, "M");
    const int64_t cols = RequirePositive(c, a ? "K" : "N");
    (a ? l.K : l.N) = cols;
    l.sub = c.Int(a ? "sub_k" : "sub_n").value_or(a ? sub.a_sub_k : sub.c_sub_n);
    if (l.sub <= 0) throw CaseError("sub-block " + std::to_string(l.sub) + " must be positive");
    // A temporary, not operator=(const char*): GCC 12 warns falsely (-Wrestrict, PR 105329).
    l.plain_name = std::string(a ? "A" : "C");
    l.native_name = l.plain_name + "_native";
    l.plain_dims = {l.M, cols};
    l.native_dims = oracle::rknn::RowBlockedDims(l.M, cols, l.sub);
  } else {
    l.tp = IsTpRoutine(r);
    if (l.tp && !f.tp_norm)
      throw CaseError("TP_NORM is not available on " + profile.name + " (spec rknn.md §8.11)");
    l.dtype = l.type.b;
    l.K = RequirePositive(c, "K");
    l.N = RequirePositive(c, "N");
    const int64_t seg_len = c.Int("seg_len").value_or(f.k_segment);
    auto b = oracle::rknn::BLayoutOf(l.K, l.N, c.Int("sub_n").value_or(sub.b_sub_n),
                                     c.Int("sub_k").value_or(sub.b_sub_k), seg_len);
    if (!b) {
      throw CaseError("B layout of K=" + std::to_string(l.K) + ", N=" + std::to_string(l.N) +
                      " is invalid or overflows");
    }
    l.b = *b;
    l.native_order = NibbleParam(c, "native_nibble", f.native_b_nibble);
    l.plain_name = l.tp ? "B_tp" : "B";
    l.native_name = "B_native";
    l.plain_dims = l.tp ? Shape{l.N, l.K} : Shape{l.K, l.N};
    l.native_dims = l.b.dims;
  }
  auto plain = NumElements(l.plain_dims);
  auto native = l.matrix == Matrix::kB ? std::optional<int64_t>(l.b.native_elems)
                                       : NumElements(l.native_dims);
  if (!plain || !native) throw CaseError("shape " + ToString(l.plain_dims) + " overflows int64");
  l.plain_elems = *plain;
  l.native_elems = *native;
  l.plain_bytes = ElemBytes(l.dtype, l.plain_elems, l.plain_dims);
  l.native_bytes = ElemBytes(l.dtype, l.native_elems, l.native_dims);
  return l;
}

oracle::rknn::Info InfoOf(const Case& c) {
  return {.M = c.Int("M").value_or(0),
          .K = c.Int("K").value_or(0),
          .N = c.Int("N").value_or(0),
          .type = c.Int("type").value_or(0),
          .B_layout = c.Int("B_layout").value_or(0),
          .AC_layout = c.Int("AC_layout").value_or(0),
          .B_quant_type = c.Int("B_quant_type").value_or(0),
          .AC_quant_type = c.Int("AC_quant_type").value_or(0),
          .group_size = c.Int("group_size").value_or(0),
          .zp = c.Int("zp").value_or(0)};
}

oracle::rknn::Readings ReadingsOf(const Case& c) {
  return {.align_unit = c.String("align_unit").value_or(""),
          .k_max_rule = c.String("k_max_rule").value_or(""),
          .varying = c.String("varying").value_or("")};
}

bool SegmentedBDimsOpen(const Profile& profile) {
  const Choice* choice = profile.FindChoice("rknn.segment.b_dims");
  return choice && choice->value == "unknown";
}

}  // namespace npuconf::rknn_props
