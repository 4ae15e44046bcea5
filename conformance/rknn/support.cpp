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

uint64_t BytesOf(DType dtype, int64_t elems, const Shape& dims) { return ElemBytes(dtype, elems, dims); }

}  // namespace

bool IsLayoutRoutine(const std::string& r) {
  return r == kANorm2Native || r == kANative2Norm || r == kCNorm2Native || r == kCNative2Norm ||
         r == kBNorm2Native || r == kBNative2Norm || r == kBTp2Native || r == kBNative2Tp;
}

std::string InverseOf(const std::string& r) {
  if (r == kANorm2Native) return kANative2Norm;
  if (r == kANative2Norm) return kANorm2Native;
  if (r == kCNorm2Native) return kCNative2Norm;
  if (r == kCNative2Norm) return kCNorm2Native;
  if (r == kBNorm2Native) return kBNative2Norm;
  if (r == kBNative2Norm) return kBNorm2Native;
  if (r == kBTp2Native) return kBNative2Tp;
  if (r == kBNative2Tp) return kBTp2Native;
  return {};
}

LayoutCase LayoutOf(const Case& c, const Profile& profile) {
  if (!profile.rknn || !profile.rknn->has_tables) {
    throw CaseError("routine " + c.routine + " needs an RKNN profile with tables, not '" + profile.name + "'");
  }
  const RknnFacts& f = *profile.rknn;
  const std::string& r = c.routine;
  auto type = c.Int("type");
  if (!type) throw CaseError("case needs type=N (rknn_matmul_type, spec rknn.md §1.1)");
  if (!f.Supports(static_cast<int32_t>(*type))) {
    throw CaseError("type " + std::to_string(*type) + " is not supported on " + profile.name + " (spec rknn.md §3.1)");
  }
  const oracle::rknn::SubBlocks sub = SubBlocksOf(f, static_cast<int32_t>(*type));
  LayoutCase l;
  l.type = *f.FindType(static_cast<int32_t>(*type));
  l.to_native = r == kANorm2Native || r == kCNorm2Native || r == kBNorm2Native || r == kBTp2Native;
  l.plain_order = l.native_order = f.norm_nibble;  // §2.4: NORM, NATIVE A/C, TP_NORM
  if (r == kANorm2Native || r == kANative2Norm || r == kCNorm2Native || r == kCNative2Norm) {
    const bool a = r == kANorm2Native || r == kANative2Norm;
    l.matrix = a ? Matrix::kA : Matrix::kC;
    l.dtype = a ? l.type.a : l.type.c;
    l.M = RequirePositive(c, "M");
    const int64_t cols = RequirePositive(c, a ? "K" : "N");
    (a ? l.K : l.N) = cols;
    l.sub = c.Int(a ? "sub_k" : "sub_n").value_or(a ? sub.a_sub_k : sub.c_sub_n);
    if (l.sub <= 0) throw CaseError("sub-block " + std::to_string(l.sub) + " must be positive");
    l.plain_name = a ? "A" : "C";
    l.native_name = l.plain_name + "_native";
    l.plain_dims = {l.M, cols};
    l.native_dims = oracle::rknn::RowBlockedDims(l.M, cols, l.sub);
  } else if (IsLayoutRoutine(r)) {
    l.matrix = Matrix::kB;
    l.tp = r == kBTp2Native || r == kBNative2Tp;
    if (l.tp && !f.tp_norm) throw CaseError("TP_NORM is not available on " + profile.name + " (spec rknn.md §8.11)");
    l.dtype = l.type.b;
    l.K = RequirePositive(c, "K");
    l.N = RequirePositive(c, "N");
    const int64_t seg_len = c.Int("seg_len").value_or(f.k_segment);
    auto b = oracle::rknn::BLayoutOf(l.K, l.N, c.Int("sub_n").value_or(sub.b_sub_n),
                                     c.Int("sub_k").value_or(sub.b_sub_k), seg_len);
    if (!b) throw CaseError("B layout of K=" + std::to_string(l.K) + ", N=" + std::to_string(l.N) + " is invalid or overflows");
    l.b = *b;
    l.native_order = NibbleParam(c, "native_nibble", f.native_b_nibble);
    l.plain_name = l.tp ? "B_tp" : "B";
    l.native_name = "B_native";
    l.plain_dims = l.tp ? Shape{l.N, l.K} : Shape{l.K, l.N};
    l.native_dims = l.b.dims;
  } else {
    throw CaseError("'" + r + "' is not an RKNN layout routine");
  }
  auto plain = NumElements(l.plain_dims);
  auto native = l.matrix == Matrix::kB ? std::optional<int64_t>(l.b.native_elems) : NumElements(l.native_dims);
  if (!plain || !native) throw CaseError("shape " + ToString(l.plain_dims) + " overflows int64");
  l.plain_elems = *plain;
  l.native_elems = *native;
  l.plain_bytes = BytesOf(l.dtype, l.plain_elems, l.plain_dims);
  l.native_bytes = BytesOf(l.dtype, l.native_elems, l.native_dims);
  return l;
}

oracle::rknn::SubBlocks SubBlocksOf(const RknnFacts& facts, int32_t type) {
  auto sub = oracle::rknn::SubBlocksOf(facts, type);
  if (!sub) throw CaseError("no NATIVE sub-blocks for type " + std::to_string(type) + " (spec rknn.md §2.2)");
  return *sub;
}

std::string DescribeNative(const LayoutCase& l, int64_t e) {
  std::string out = l.native_name + " element " + std::to_string(e) + " (";
  if (l.matrix != Matrix::kB) {
    const int64_t cols = l.matrix == Matrix::kA ? l.K : l.N;
    const char* col_name = l.matrix == Matrix::kA ? "k" : "n";
    const char* sub_name = l.matrix == Matrix::kA ? "subK" : "subN";
    const int64_t block = e / (l.M * l.sub), m = (e % (l.M * l.sub)) / l.sub, col = e % l.sub;
    out += std::string(l.matrix == Matrix::kA ? "K1" : "N1") + " block " + std::to_string(block) + ", row m=" +
           std::to_string(m) + ", col " + std::to_string(col) + " of " + sub_name + " " + std::to_string(l.sub) + ") = ";
    const int64_t x = block * l.sub + col;
    if (x >= cols) return out + "padding";
    return out + l.plain_name + "[m=" + std::to_string(m) + "][" + col_name + "=" + std::to_string(x) + "]";
  }
  const oracle::rknn::BLayout& b = l.b;
  for (size_t t = 0; t < b.segments.size(); ++t) {
    const auto& s = b.segments[t];
    if (e < s.offset_elems || e >= s.offset_elems + s.elems) continue;
    const int64_t local = e - s.offset_elems, tile = b.sub_n * b.sub_k, k1 = (s.k_rows + b.sub_k - 1) / b.sub_k;
    const int64_t n1 = local / (k1 * tile), kb = (local / tile) % k1;
    const int64_t row = (local % tile) / b.sub_k, col = local % b.sub_k;
    out += "segment " + std::to_string(t) + ", N1 block " + std::to_string(n1) + ", K1 block " + std::to_string(kb) +
           ", row " + std::to_string(row) + " of subN " + std::to_string(b.sub_n) + ", col " + std::to_string(col) +
           " of subK " + std::to_string(b.sub_k) + ") = ";
    const int64_t n = n1 * b.sub_n + row, k_in_seg = kb * b.sub_k + col;
    if (n >= b.n || k_in_seg >= s.k_rows) return out + "padding";
    return out + "B[k=" + std::to_string(s.k_begin + k_in_seg) + "][n=" + std::to_string(n) + "]";
  }
  return out + "past the last segment)";
}

std::string DescribePlain(const LayoutCase& l, int64_t e) {
  const int64_t cols = l.plain_dims[1];
  const int64_t row = e / cols, col = e % cols;
  switch (l.matrix) {
    case Matrix::kA: return "A[m=" + std::to_string(row) + "][k=" + std::to_string(col) + "]";
    case Matrix::kC: return "C[m=" + std::to_string(row) + "][n=" + std::to_string(col) + "]";
    case Matrix::kB:
      return l.tp ? "B_tp[n=" + std::to_string(row) + "][k=" + std::to_string(col) + "]"
                  : "B[k=" + std::to_string(row) + "][n=" + std::to_string(col) + "]";
  }
  return {};
}




std::string StatusText(int64_t status) {
  if (status == 0) return "0 (RKNN_SUCC)";
  if (status == -5) return "-5 (RKNN_ERR_PARAM_INVALID)";
  return std::to_string(status);
}

oracle::rknn::Info InfoOf(const Case& c) {
  oracle::rknn::Info i;
  i.M = c.Int("M").value_or(0);
  i.K = c.Int("K").value_or(0);
  i.N = c.Int("N").value_or(0);
  i.type = c.Int("type").value_or(0);
  i.B_layout = c.Int("B_layout").value_or(0);
  i.AC_layout = c.Int("AC_layout").value_or(0);
  i.B_quant_type = c.Int("B_quant_type").value_or(0);
  i.AC_quant_type = c.Int("AC_quant_type").value_or(0);
  i.group_size = c.Int("group_size").value_or(0);
  i.zp = c.Int("zp").value_or(0);
  return i;
}

oracle::rknn::Readings ReadingsOf(const Case& c) {
  return {c.String("align_unit").value_or(""), c.String("k_max_rule").value_or(""), c.String("varying").value_or("")};
}

}  // namespace npuconf::rknn_props
