#include "conformance/rknn/cases.h"

#include <algorithm>
#include <optional>
#include <set>

#include "conformance/harness/materialize.h"
#include "conformance/rknn/support.h"
#include "core/real_shapes.h"

namespace npuconf::rknn_props {
namespace {

struct AttrRow {
  const char* platform;  // RknnFacts::platform
  int32_t type;
  int64_t M, K, N;
  uint64_t norm_a, norm_b, norm_c;
  Shape native_a;
  uint64_t native_a_bytes;
  Shape native_b;
  uint64_t native_b_bytes;
  Shape native_c;
  uint64_t native_c_bytes;
  const char* align_unit;  // "" or the reading under which the row's create succeeds
  const char* source;
};

// spec rknn.md §7.1 (NORM sizes from the logs named there; NATIVE from §2/§4).
const std::vector<AttrRow>& AttrRows() {
  static const std::vector<AttrRow> rows = {
      {"RK3588",
       2,
       4,
       64,
       32,
       256,
       2048,
       512,
       {4, 4, 16},
       256,
       {1, 2, 32, 32},
       2048,
       {8, 4, 4},
       512,
       "",
       "§7.1 row 1 (log rockchip-linux/rknpu2#88)"},
      // N = 16 violates UG N % 32 (fp16, RK3588) yet the log #154 shows a successful
      // create: the row holds under the header's element reading of §8.3.
      {"RK3588",
       1,
       1,
       32,
       16,
       64,
       1024,
       64,
       {4, 1, 8},
       64,
       {1, 1, 16, 32},
       1024,
       {4, 1, 4},
       64,
       "header_elements",
       "§7.1 row 2 (log airockchip/rknn-toolkit2#154)"},
      {"RK3588",
       1,
       4,
       64,
       32,
       512,
       4096,
       512,
       {8, 4, 8},
       512,
       {2, 2, 16, 32},
       4096,
       {8, 4, 4},
       512,
       "",
       "§7.1 row 3"},
      {"RK3588",
       10,
       1,
       64,
       128,
       32,
       4096,
       256,
       {2, 1, 32},
       32,
       {2, 2, 64, 32},
       4096,
       {16, 1, 8},
       256,
       "",
       "§7.1 row 4"},
      {"RK3588",
       10,
       4,
       64,
       64,
       128,
       2048,
       512,
       {2, 4, 32},
       128,
       {1, 2, 64, 32},
       2048,
       {8, 4, 8},
       512,
       "",
       "§7.1 row 5"},
      {"RK3566/RK3568",
       2,
       4,
       64,
       32,
       256,
       2048,
       512,
       {8, 4, 8},
       256,
       {2, 2, 16, 32},
       2048,
       {8, 4, 4},
       512,
       "",
       "§7.1 row 6"},
      {"RK3562",
       2,
       4,
       64,
       32,
       256,
       2048,
       512,
       {4, 4, 16},
       256,
       {2, 2, 16, 32},
       2048,
       {8, 4, 4},
       512,
       "",
       "§7.1 row 7"},
      {"RK3562",
       1,
       4,
       64,
       32,
       512,
       4096,
       512,
       {8, 4, 8},
       512,
       {4, 2, 8, 32},
       4096,
       {8, 4, 4},
       512,
       "",
       "§7.1 row 8"},
  };
  return rows;
}

Case CreateCase(const Profile& p, int64_t type, int64_t M, int64_t K, int64_t N, int64_t ac,
                int64_t b) {
  Case c(kCreate, p.name);
  c.Set("type", type).Set("M", M).Set("K", K).Set("N", N).Set("AC_layout", ac).Set("B_layout", b);
  return c;
}

// The first supported type of each distinct NATIVE row of `matrix`.
std::vector<int32_t> DistinctRows(const RknnFacts& f, Matrix matrix) {
  std::set<std::tuple<int, int64_t, int64_t>> seen;
  std::vector<int32_t> out;
  for (int32_t type : f.supported_types) {
    const RknnMatmulType& t = *f.FindType(type);
    const oracle::rknn::SubBlocks s = SubBlocksOf(f, type);
    const auto key =
        matrix == Matrix::kA ? std::make_tuple(Bits(t.a), s.a_sub_k, int64_t{0})
        : matrix == Matrix::kC
            ? std::make_tuple(Bits(t.c), s.c_sub_n, int64_t{0})
            : std::make_tuple(Bits(t.b) * 1000 + static_cast<int>(t.b), s.b_sub_n, s.b_sub_k);
    if (seen.insert(key).second) out.push_back(type);
  }
  return out;
}

}  // namespace

std::vector<DocumentedAttr> DocumentedAttrs(const Profile& profile) {
  std::vector<DocumentedAttr> out;
  if (!profile.rknn || !profile.rknn->has_tables) return out;
  const RknnFacts& f = *profile.rknn;
  for (const AttrRow& row : AttrRows()) {
    if (f.platform != row.platform || !f.Supports(row.type) || f.sdk != "2.3.2") continue;
    for (int64_t ac : {0, 1}) {
      for (int64_t b : {0, 1}) {
        DocumentedAttr d;
        d.c = CreateCase(profile, row.type, row.M, row.K, row.N, ac, b);
        if (*row.align_unit) d.c.Set("align_unit", row.align_unit);
        d.a_dims = ac ? row.native_a : Shape{row.M, row.K};
        d.c_dims = ac ? row.native_c : Shape{row.M, row.N};
        d.b_dims = b ? row.native_b : Shape{row.K, row.N};
        d.a_bytes = ac ? row.native_a_bytes : row.norm_a;
        d.c_bytes = ac ? row.native_c_bytes : row.norm_c;
        d.b_bytes = b ? row.native_b_bytes : row.norm_b;
        d.source = std::string("spec rknn.md ") + row.source;
        out.push_back(d);
      }
    }
  }
  // §3.3 / §7.2 segmented B totals (B only; A and C not documented).
  struct SegRow {
    const char* platform;
    int32_t type;
    int64_t K, N;
    uint64_t b_bytes;
    const char* source;
  };
  for (const SegRow& row :
       {SegRow{"RK3588", 1, 20480, 4096, 167772160, "§3.3 worked example (fp16, K=20480)"},
        SegRow{"RK3576", 1, 10240, 2048, 41943040, "§3.3 worked example (fp16)"},
        SegRow{"RK3576", 2, 10240, 2048, 20971520,
               "§3.3 worked example (int8 offsets 0, 8388608, 16777216)"}}) {
    if (f.platform != row.platform || !f.Supports(row.type) || f.sdk != "2.3.2") continue;
    DocumentedAttr d;
    d.c = CreateCase(profile, row.type, 1, row.K, row.N, 0, 1);
    d.b_bytes = row.b_bytes;
    d.source = std::string("spec rknn.md ") + row.source;
    out.push_back(d);
  }
  return out;
}

const DocumentedAttr* FindDocumentedAttr(const Case& c, const Profile& profile) {
  static thread_local std::vector<DocumentedAttr> rows;
  rows = DocumentedAttrs(profile);
  for (const auto& row : rows) {
    if (row.c == c) return &row;
  }
  return nullptr;
}

std::vector<DocumentedInvalid> DocumentedInvalidCases(const Profile& profile) {
  std::vector<DocumentedInvalid> out;
  if (!profile.rknn || !profile.rknn->has_tables) return out;
  const RknnFacts& f = *profile.rknn;
  const int64_t type = f.supported_types.front();
  const DType a = f.FindType(static_cast<int32_t>(type))->a;
  auto base = [&] { return CreateCase(profile, type, 4, 128, 64, 1, 1); };
  auto add = [&](Case c, std::string source) {
    out.push_back({std::move(c), "spec rknn.md " + std::move(source)});
  };
  add(base()
          .Set("B_quant_type", int64_t{4})
          .Set("group_size", int64_t{32})
          .Set("AC_layout", int64_t{0})
          .Set("B_layout", int64_t{0}),
      "§7.3 row 'per-group + NORM layouts' (RT 'only supported AC_layout: Native, B_layout: "
      "Native')");
  add(base()
          .Set("B_quant_type", int64_t{4})
          .Set("group_size", int64_t{32})
          .Set("B_layout", int64_t{0}),
      "§7.3 row 'per-group + NORM layouts' (B NORM only)");
  add(base().Set("K", int64_t{96}).Set("B_quant_type", int64_t{4}).Set("group_size", int64_t{64}),
      "§7.3 row 'K not multiple of gs' (K=96, gs=64; RT 'K: %d must align group size: %d')");
  add(base().Set("zp", int64_t{1}), "§7.3 row 'nonzero zp' (RT 'only support zp set 0')");
  for (int64_t undefined : {0, 13, 14, 16})
    add(base().Set("type", undefined), "§1.1 (13 and 14 undefined; 1..12, 15 defined)");
  for (const auto& t : f.types) {
    if (!f.Supports(t.type))
      add(base().Set("type", int64_t{t.type}), "§3.1 (UG Table 3-6: not on " + f.platform + ")");
  }
  add(base().Set("K", int64_t{65}), "§3.2 (K mod 32 = 0)");
  add(base().Set("N", f.n_max.at(a) + f.n_align.at(a)), "§3.2 (N above the N limit of A's dtype)");
  add(base().Set("M", int64_t{0}), "§1.4 (M, K, N positive)");
  add(base().Set("B_layout", int64_t{3}), "§1.3 (B_layout 0, 1, 2)");
  add(base().Set("AC_layout", int64_t{2}), "§1.4 (AC_layout 0, 1)");
  add(base().Set("AC_quant_type", int64_t{2}), "§1.4, §5.1 (A and C per-layer only)");
  add(base().Set("B_quant_type", int64_t{6}), "§1.2 (rknn_matmul_quant_type 0..5)");
  if (f.k_max) add(base().Set("K", *f.k_max + 32), "§3.2 (K above the UG K limit)");
  if (!f.tp_norm)
    add(base().Set("B_layout", int64_t{2}).Set("AC_layout", int64_t{0}),
        "§1.3, §8.11 (no TP_NORM on " + f.platform + ")");
  if (f.Supports(3))
    add(CreateCase(profile, 3, 2, 32, 25600, 0, 0), "§6 I7 (N = 25600 above N <= 4096)");
  if (f.Supports(9) && f.per_channel_types) {
    add(CreateCase(profile, 9, 4, 128, 128, 0, 0).Set("B_quant_type", int64_t{2}),
        "§6 I1(b) (INT8->FP32 with per-channel B; airockchip/rknn-toolkit2#550)");
  }
  return out;
}

std::vector<DeviceRow> DeviceRows(const Profile& profile) {
  std::vector<DeviceRow> out;
  if (!profile.rknn || !profile.rknn->has_tables) return out;
  const RknnFacts& f = *profile.rknn;
  struct Row {
    const char* platform;
    int64_t type, M, K, N, b_layout, b_quant;
    bool created;
    std::optional<uint64_t> a, b, c;
    const char* source;
  };
  static const Row kRows[] = {
      {"RK3588",
       1,
       1,
       128,
       16,
       0,
       0,
       true,
       {},
       {},
       {},
       "rknn_matmul_api_demo 1 1,128,16 on RK3588: created and ran (airockchip/rknn-toolkit2#471, "
       "2025-11)"},
      {"RK3588",
       1,
       1,
       256,
       16,
       0,
       0,
       true,
       {},
       {},
       {},
       "rknn_matmul_api_demo 1 1,256,16 on RK3588 (airockchip/rknn-toolkit2#471)"},
      {"RK3588",
       1,
       1,
       4096,
       16,
       0,
       0,
       true,
       {},
       {},
       {},
       "rknn_matmul_api_demo 1 1,4096,16 on RK3588 (airockchip/rknn-toolkit2#471)"},
      {"RK3588", 1, 1, 32, 16, 0, 0, true, 64, 1024, 64,
       "arm64 librknnrt 2.2, platform not stated (taken as RK3588): created, A 64, B 1024, C 64 "
       "bytes (airockchip/rknn-toolkit2#154, 2024-10)"},
      {"RK3588", 2, 4, 64, 32, 0, 0, true, 256, 2048, 512,
       "RK3588, rknpu2 1.5.x: created, A 256, B 2048, C 512 bytes (rockchip-linux/rknpu2#88)"},
      {"RK3588",
       2,
       4,
       128,
       128,
       0,
       2,
       true,
       {},
       {},
       {},
       "RK3588, librknnrt 2.3.2 / 2.4.2a2: INT8->INT32 with per-channel B created and ran "
       "(airockchip/rknn-toolkit2#550)"},
      {"RK3588",
       9,
       4,
       128,
       128,
       0,
       2,
       false,
       {},
       {},
       {},
       "RK3588, librknnrt 2.3.2 / 2.4.2a2: INT8->FP32 with per-channel B, rknn_matmul_create "
       "fails (airockchip/rknn-toolkit2#550)"},
      {"RK3588",
       10,
       1,
       64,
       128,
       1,
       0,
       true,
       {},
       {},
       {},
       "rknn_matmul_api_demo 10 1,64,128 1 on RK3588: created and ran (airockchip/rknn-toolkit2 "
       "PR #412)"},
  };
  for (const Row& row : kRows) {
    if (f.platform != row.platform || f.sdk != "2.3.2") continue;
    DeviceRow d;
    d.c = CreateCase(profile, row.type, row.M, row.K, row.N, 0, row.b_layout);
    if (row.b_quant) d.c.Set("B_quant_type", row.b_quant);
    d.created = row.created;
    d.a_bytes = row.a;
    d.b_bytes = row.b;
    d.c_bytes = row.c;
    d.source = std::string("spec rknn.md §3.2a: ") + row.source;
    out.push_back(std::move(d));
  }
  return out;
}

const DeviceRow* FindDeviceRow(const Case& c, const Profile& profile) {
  static thread_local std::vector<DeviceRow> rows;
  rows = DeviceRows(profile);
  for (const auto& row : rows) {
    if (row.c == c) return &row;
  }
  return nullptr;
}

const DocumentedInvalid* FindDocumentedInvalid(const Case& c, const Profile& profile) {
  static thread_local std::vector<DocumentedInvalid> rows;
  rows = DocumentedInvalidCases(profile);
  for (const auto& row : rows) {
    if (row.c == c) return &row;
  }
  return nullptr;
}

std::vector<Case> EdgeLayoutCases(const std::string& routine, const Profile& profile) {
  std::vector<Case> out;
  if (!profile.rknn || !profile.rknn->has_tables) return out;
  const RknnFacts& f = *profile.rknn;
  const Matrix matrix = MatrixOf(routine);
  if (IsTpRoutine(routine) && !f.tp_norm) return out;
  int64_t seed = 1;
  for (int32_t type : f.supported_types) {
    const RknnMatmulType& t = *f.FindType(type);
    const oracle::rknn::SubBlocks s = SubBlocksOf(f, type);
    auto add = [&](int64_t first, int64_t second, Case extra = Case()) {
      Case c(routine, profile.name);
      c.Set("type", int64_t{type}).Set("seed", seed++);
      if (matrix == Matrix::kB)
        c.Set("K", first).Set("N", second);
      else
        c.Set("M", first).Set(matrix == Matrix::kA ? "K" : "N", second);
      for (const auto& [k, v] : extra.params) c.Set(k, v);
      out.push_back(c);
    };
    if (matrix == Matrix::kB) {
      for (auto [k, n] : std::vector<std::pair<int64_t, int64_t>>{
               {1, 1},
               {s.b_sub_k, s.b_sub_n},
               {s.b_sub_k + 1, s.b_sub_n - 1},
               {std::max<int64_t>(1, s.b_sub_k - 1), s.b_sub_n + 1},
               {33, 17},
               {64, 64},
               {2 * s.b_sub_k + 1, 3}}) {
        add(k, n);
      }
      if (type == f.supported_types.front()) add(1, 65537);  // N past 2^16
      // Where B is never split (k_segment 0: RK356x, or SDK 1.6 under the reading
      // none of rknn.sdk16.k_segment), K just past RK3588's segment length must
      // stay one block (§3.3).
      if (f.k_segment == 0 && type == f.supported_types.front()) add(8193, s.b_sub_n + 1);
      // The other reading of the RK3576 mixed-type B row (§2.2, §8.14).
      if (t.a != t.b) {
        const std::string other = f.mixed_b_layout == "c_dtype_row" ? "b_dtype_row" : "c_dtype_row";
        if (auto alt = oracle::rknn::SubBlocksOf(f, type, {.mixed_b_layout = other})) {
          add(2 * alt->b_sub_k + 1, alt->b_sub_n + 1,
              Case().Set("sub_n", alt->b_sub_n).Set("sub_k", alt->b_sub_k));
        }
      }
      // The other nibble order of NATIVE int4 B (§2.4, §8.4).
      if (t.b == DType::kInt4) {
        const char* other =
            f.native_b_nibble == NibbleOrder::kLowFirst ? "high_first" : "low_first";
        add(s.b_sub_k + 1, s.b_sub_n + 1, Case().Set("native_nibble", other));
      }
    } else {
      const int64_t sub = matrix == Matrix::kA ? s.a_sub_k : s.c_sub_n;
      if (type == f.supported_types.front()) add(65537, 1);  // M past 2^16
      for (auto [m, x] :
           std::vector<std::pair<int64_t, int64_t>>{{1, 1},
                                                    {1, sub},
                                                    {4, sub + 1},
                                                    {5, std::max<int64_t>(1, sub - 1)},
                                                    {64, 2 * sub + 1},
                                                    {3, 33}}) {
        add(m, x);
      }
      // The other reading of NATIVE C for undocumented C dtypes (§2.2, §8.6).
      if (matrix == Matrix::kC && !f.c_sub_n.count(t.c)) {
        const std::string other = f.c_sub_n_other == "4" ? "16_bytes" : "4";
        if (auto alt = oracle::rknn::SubBlocksOf(f, type, {.c_sub_n_other = other})) {
          add(4, 33, Case().Set("sub_n", alt->c_sub_n));
        }
      }
    }
  }
  return out;
}

std::vector<Case> SegmentCases(const std::string& routine, const Profile& profile,
                               bool documented_large) {
  std::vector<Case> out;
  if (!profile.rknn || !profile.rknn->has_tables || MatrixOf(routine) != Matrix::kB) return out;
  const RknnFacts& f = *profile.rknn;
  if (f.k_segment <= 0 || (IsTpRoutine(routine) && !f.tp_norm)) return out;
  const int64_t L = f.k_segment;
  int64_t seed = 100;
  for (int32_t type : DistinctRows(f, Matrix::kB)) {
    const oracle::rknn::SubBlocks s = SubBlocksOf(f, type);
    for (auto [k, n] : std::vector<std::pair<int64_t, int64_t>>{{L - 1, 3},
                                                                {L, 3},
                                                                {L + 1, 3},
                                                                {L + 1, s.b_sub_n + 1},
                                                                {2 * L - 1, 2},
                                                                {2 * L + 1, 2}}) {
      Case c(routine, profile.name);
      c.Set("type", int64_t{type}).Set("K", k).Set("N", n).Set("seed", seed++);
      out.push_back(c);
    }
  }
  if (profile.FindChoice("rknn.sdk16.k_segment")) {  // the "none" reading
    Case c(routine, profile.name);
    c.Set("type", int64_t{f.supported_types.front()})
        .Set("K", L + 1)
        .Set("N", 3)
        .Set("seg_len", int64_t{0})
        .Set("seed", seed++);
    out.push_back(c);
  }
  if (documented_large && f.sdk == "2.3.2") {
    // §7.2: RK3588 fp16 K=8224, N=64 → segments at elements 0 and 524 288;
    // RK3576 fp16 K=10240, N=2048 → byte offsets 0, 16 777 216, 33 554 432.
    if (f.platform == "RK3588")
      out.push_back(Case(routine, profile.name)
                        .Set("type", int64_t{1})
                        .Set("K", int64_t{8224})
                        .Set("N", int64_t{64})
                        .Set("seed", int64_t{7}));
    if (f.platform == "RK3576")
      out.push_back(Case(routine, profile.name)
                        .Set("type", int64_t{1})
                        .Set("K", int64_t{10240})
                        .Set("N", int64_t{2048})
                        .Set("seed", int64_t{7}));
  }
  return out;
}

namespace {

// The real-shape cases of `routine` on profile p that the port's claims admit,
// before the dedup across profiles. B: one type per B dtype and shape, the
// first of the platform's rows whose case the claims admit (the real shapes are
// large; the other sub-block rows of the same dtype are covered by the edge and
// random cases).
std::vector<Case> RealLayoutCandidates(const std::string& routine, const Profile& p,
                                       const PropertyContext& ctx) {
  std::vector<Case> out;
  if (!p.verified || !p.rknn || !p.rknn->has_tables) return out;
  const bool b = routine == kBNorm2Native, a = routine == kANorm2Native,
             c = routine == kCNorm2Native;
  if (!a && !b && !c) return out;
  const RknnFacts& f = *p.rknn;
  const std::vector<int32_t> types =
      DistinctRows(f, b ? Matrix::kB : (a ? Matrix::kA : Matrix::kC));
  const auto& shapes = DistinctRealShapes();
  for (size_t i = 0; i < shapes.size(); ++i) {
    const auto& real = shapes[i];
    if (real.shape.size() != 2) continue;
    // A case's data seed depends on the shape, type and M only (not on the claims).
    auto seed_of = [i](int32_t type, int64_t m_index) {
      return 1000 + (static_cast<int64_t>(i) * 32 + type) * 4 + m_index;
    };
    const int64_t K = real.shape[1],
                  N = real.shape[0];  // [out, in] = [N, K] (model_shapes.json `about`)
    std::set<DType> b_dtypes;
    for (int32_t type : types) {
      oracle::rknn::Info info;
      info.type = type;
      info.M = 1;
      info.K = K;
      info.N = N;
      info.B_layout = 1;
      info.AC_layout = 1;
      if (oracle::rknn::ExpectCreate(f, info, {}).status != oracle::rknn::kSucc) continue;
      if (b) {
        if (b_dtypes.count(f.FindType(type)->b)) continue;
        Case bc = Case(routine, p.name)
                      .Set("type", int64_t{type})
                      .Set("K", K)
                      .Set("N", N)
                      .Set("seed", seed_of(type, 0));
        if (!ctx.Inside(bc, p.name)) continue;
        b_dtypes.insert(f.FindType(type)->b);
        out.push_back(std::move(bc));
        continue;
      }
      for (int64_t m_index = 0; m_index < 3; ++m_index) {
        Case ac = Case(routine, p.name)
                      .Set("type", int64_t{type})
                      .Set("M", std::vector<int64_t>{1, 4, 64}[static_cast<size_t>(m_index)])
                      .Set(a ? "K" : "N", a ? K : N)
                      .Set("seed", seed_of(type, m_index));
        if (ctx.Inside(ac, p.name)) out.push_back(std::move(ac));
      }
    }
  }
  return out;
}

// What decides the bytes of a B layout case: two cases with equal keys (on
// different profiles) convert the same bits to the same places.
struct BLayoutKey {
  DType dtype;
  bool tp;
  int64_t k, n, sub_n, sub_k;
  std::vector<std::pair<int64_t, int64_t>> segments;  // (k_begin, k_rows)
  NibbleOrder plain_order, native_order;
  bool operator==(const BLayoutKey&) const = default;
};

std::optional<BLayoutKey> KeyOf(const Case& c, const Profile& p) {
  try {
    const LayoutGeometry g = GeometryOf(c, p);
    BLayoutKey key{g.dtype,   g.tp, g.b.k,         g.b.n,         g.b.sub_n,
                   g.b.sub_k, {},   g.plain_order, g.native_order};
    for (const auto& s : g.b.segments) key.segments.emplace_back(s.k_begin, s.k_rows);
    return key;
  } catch (const CaseError&) {
    return std::nullopt;
  }
}

}  // namespace

std::vector<Case> RealLayoutCases(const std::string& routine, const PropertyContext& ctx) {
  if (!ctx.real_shapes) return {};
  std::vector<Case> out = RealLayoutCandidates(routine, ctx.profile, ctx);
  if (MatrixOf(routine) != Matrix::kB) return out;
  // A real B shape whose layout (dtype, sub-blocks, K segments, nibble orders)
  // an earlier profile of the run checks with the same bytes, inside the
  // claims there, runs there only (each layout class once per distinct shape,
  // as the CANN real cases do).
  std::vector<BLayoutKey> earlier;
  for (const Profile* q : ctx.run_profiles) {
    if (q->name == ctx.profile.name) break;
    for (const Case& c : RealLayoutCandidates(routine, *q, ctx)) {
      if (auto key = KeyOf(c, *q)) earlier.push_back(std::move(*key));
    }
  }
  std::vector<Case> kept;
  for (Case& c : out) {
    const auto key = KeyOf(c, ctx.profile);
    if (key && std::find(earlier.begin(), earlier.end(), *key) != earlier.end()) continue;
    kept.push_back(std::move(c));
  }
  return kept;
}

std::vector<Case> RealCreateCases(const PropertyContext& ctx) {
  std::vector<Case> out;
  const Profile& p = ctx.profile;
  if (!ctx.real_shapes || !p.rknn || !p.rknn->has_tables) return out;
  for (const auto& real : DistinctRealShapes()) {
    if (real.shape.size() != 2) continue;
    for (int32_t type : p.rknn->supported_types) {
      for (int64_t M : {1, 4, 64}) {
        for (int64_t ac : {0, 1}) {
          for (int64_t b : {0, 1, 2}) {
            if (b == 2 && !p.rknn->tp_norm) continue;
            out.push_back(CreateCase(p, type, M, real.shape[1], real.shape[0], ac, b));
          }
        }
      }
    }
  }
  return out;
}

}  // namespace npuconf::rknn_props
