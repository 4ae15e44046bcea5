#include "conformance/cann/cases.h"

#include <algorithm>

#include "conformance/cann/support.h"
#include "core/real_shapes.h"
#include "core/status.h"

namespace npuconf::cann_props {
namespace {

using namespace npuconf::cann;  // status codes

// The profile a spec row's arch names (spec cann.md §0.2 table).
bool ArchMatches(const std::string& arch, const Profile& profile) {
  if (arch == "any") return true;
  if (arch == "v2_supported") return profile.cann->v2_size_supported;
  if (arch == "v2_unsupported") return !profile.cann->v2_size_supported;
  return profile.cann->npu_arch == arch || profile.name == arch;
}

struct SizeRow {
  const char* id;
  const char* routine;
  const char* arch;  // DAV_xxxx, a profile name, "any", "v2_supported", "v2_unsupported"
  std::optional<Shape> shape;
  const char* dtype;  // "" for the legacy API
  bool null_out;
  int64_t status;
  std::optional<uint64_t> size;
  const char* reading = "";
  const char* choice = "";
};

// spec cann.md §1.7: upstream UTs (U1–U7), the documented examples, and the
// rows derived from the §1.2 formula.
const std::vector<SizeRow>& SizeRows() {
  static const std::vector<SizeRow> rows = {
      {"U1", kLegacy, "DAV_2201", std::nullopt, "", false, kAclnnErrParamNullptr, {}},
      {"U2", kLegacy, "DAV_2201", Shape{32, 16}, "", true, kAclnnErrParamNullptr, {}},
      {"U3",
       kLegacy,
       "DAV_2201",
       Shape{16, 16, 16, 16, 16, 32, 16},
       "",
       false,
       kAclnnErrParamInvalid,
       {}},
      {"U4", kV2, "DAV_2002", std::nullopt, "INT8", false, kAclnnErrParamNullptr, {}},
      {"U5", kV2, "DAV_2002", Shape{32, 16}, "INT8", true, kAclnnErrParamNullptr, {}},
      {"U6", kV2, "DAV_2002", Shape{0, 16}, "INT8", false, kAclnnErrParamInvalid, {}},
      {"U7",
       kV2,
       "DAV_2002",
       Shape{2, 2, 2, 2, 2, 32, 16},
       "FLOAT16",
       false,
       kAclnnErrParamInvalid,
       {}},
      {"example legacy fp16 [32,16]", kLegacy, "any", Shape{32, 16}, "", false, kAclnnSuccess, 512},
      {"example V2 int8 [32,16]", kV2, "v2_supported", Shape{32, 16}, "INT8", false, kAclnnSuccess,
       1024},
      {"doc legacy [510,510]", kLegacy, "any", Shape{510, 510}, "", false, kAclnnSuccess, 262144},
      {"doc V2 [510,510] FLOAT16", kV2, "v2_supported", Shape{510, 510}, "FLOAT16", false,
       kAclnnSuccess, 262144},
      {"doc V2 [510,510] BF16", kV2, "v2_supported", Shape{510, 510}, "BF16", false, kAclnnSuccess,
       262144},
      {"doc V2 [510,270] INT8", kV2, "v2_supported", Shape{510, 270}, "INT8", false, kAclnnSuccess,
       147456},
      {"derived V2 [510,270] FLOAT16", kV2, "v2_supported", Shape{510, 270}, "FLOAT16", false,
       kAclnnSuccess, 139264},
      {"derived V2 [510,510] INT8", kV2, "v2_supported", Shape{510, 510}, "INT8", false,
       kAclnnSuccess, 262144},
      {"derived V2 [32,16] FLOAT16", kV2, "v2_supported", Shape{32, 16}, "FLOAT16", false,
       kAclnnSuccess, 512},
      {"derived V2 [16,32] INT8", kV2, "v2_supported", Shape{16, 32}, "INT8", false, kAclnnSuccess,
       512},
      {"derived V2 [1,1] BF16", kV2, "v2_supported", Shape{1, 1}, "BF16", false, kAclnnSuccess,
       256},
      {"derived V2 [1,1] INT8", kV2, "v2_supported", Shape{1, 1}, "INT8", false, kAclnnSuccess,
       512},
      {"derived V2 [17,33] INT8", kV2, "v2_supported", Shape{17, 33}, "INT8", false, kAclnnSuccess,
       2048},
      {"derived V2 [16,16,32] FLOAT16", kV2, "v2_supported", Shape{16, 16, 32}, "FLOAT16", false,
       kAclnnSuccess, 8192},
      {"derived V2 6-D FLOAT16", kV2, "v2_supported", Shape{2, 2, 2, 2, 32, 16}, "FLOAT16", false,
       kAclnnSuccess, 8192},
      {"derived V2 6-D INT8", kV2, "v2_supported", Shape{2, 2, 2, 2, 32, 16}, "INT8", false,
       kAclnnSuccess, 16384},
      {"derived V2 [32,16] FLOAT", kV2, "v2_supported", Shape{32, 16}, "FLOAT", false,
       kAclnnSuccess, 1024},
      {"derived V2 1-D",
       kV2,
       "v2_supported",
       Shape{5},
       "FLOAT16",
       false,
       kAclnnErrParamInvalid,
       {}},
      {"derived V2 7-D",
       kV2,
       "v2_supported",
       Shape{1, 2, 3, 4, 5, 6, 7},
       "INT8",
       false,
       kAclnnErrParamInvalid,
       {}},
      {"derived V2 [16,-1] as shipped", kV2, "v2_supported", Shape{16, -1}, "FLOAT16", false,
       kAclnnSuccess, 0, "as_shipped", "cann.size.negative_dims"},
      {"derived V2 [16,-1] npuconf choice",
       kV2,
       "v2_supported",
       Shape{16, -1},
       "FLOAT16",
       false,
       kAclnnErrParamInvalid,
       {},
       "param_invalid",
       "cann.size.negative_dims"},
      {"derived V2 on 310B/910, nullptr",
       kV2,
       "v2_unsupported",
       std::nullopt,
       "FLOAT16",
       false,
       kAclnnErrRuntimeError,
       {}},
      {"derived V2 on 310B/910",
       kV2,
       "v2_unsupported",
       Shape{32, 16},
       "INT8",
       false,
       kAclnnErrRuntimeError,
       {}},
      {"derived legacy 910B [16,16,32,16]", kLegacy, "DAV_2201", Shape{16, 16, 32, 16}, "", false,
       kAclnnSuccess, 131072},
      {"derived legacy 910B [17,16,16]", kLegacy, "DAV_2201", Shape{17, 16, 16}, "", false,
       kAclnnSuccess, 4352},
      {"derived legacy 310P [16,16,32]",
       kLegacy,
       "DAV_2002",
       Shape{16, 16, 32},
       "",
       false,
       kAclnnErrParamInvalid,
       {}},
      {"derived legacy 950 [16,16,32]",
       kLegacy,
       "DAV_3510",
       Shape{16, 16, 32},
       "",
       false,
       kAclnnErrParamInvalid,
       {}},
      {"derived legacy [16,0]", kLegacy, "any", Shape{16, 0}, "", false, kAclnnSuccess, 0},
      {"derived legacy [32,16] int8 weight", kLegacy, "any", Shape{32, 16}, "", false,
       kAclnnSuccess, 512},
  };
  return rows;
}

struct TransRow {
  const char* id;
  const char* arch;
  std::optional<Shape> shape;  // nullopt: mmWeightRef == nullptr
  const char* dtype;
  const char* format;
  int64_t status;
};

// spec cann.md §2.4: UT cases T1–T7 and the derived rows.
const std::vector<TransRow>& TransRows() {
  static const std::vector<TransRow> rows = {
      {"T1", "DAV_2201", Shape{16, 32}, "FLOAT16", "ND", kAclnnSuccess},
      {"T2", "DAV_2201", Shape{16, 16, 32}, "FLOAT16", "ND", kAclnnSuccess},
      {"T3", "DAV_2201", Shape{16, 0}, "FLOAT16", "ND", kAclnnSuccess},
      {"T4", "DAV_2201", Shape{16, 16, 16, 16, 16, 16, 32}, "FLOAT16", "ND", kAclnnErrParamInvalid},
      {"T5", "DAV_2201", Shape{16, 32}, "INT8", "FRACTAL_NZ", kAclnnErrParamInvalid},
      {"T6", "DAV_3510", Shape{16, 16, 32}, "FLOAT16", "ND", kAclnnErrParamInvalid},
      {"T7", "DAV_2002", Shape{16, 32}, "INT8", "ND", kAclnnSuccess},
      {"derived 310P BF16", "DAV_2002", Shape{16, 32}, "BF16", "ND", kAclnnErrParamInvalid},
      {"derived 950 INT8 3-D", "DAV_3510", Shape{4, 16, 32}, "INT8", "ND", kAclnnSuccess},
      {"derived 910B FLOAT", "DAV_2201", Shape{16, 32}, "FLOAT", "ND", kAclnnErrParamInvalid},
      {"derived 910B UINT8 3-D", "DAV_2201", Shape{2, 16, 32}, "UINT8", "ND", kAclnnSuccess},
      {"derived 950 UINT8 3-D", "DAV_3510", Shape{2, 16, 32}, "UINT8", "ND", kAclnnErrParamInvalid},
      {"derived nullptr", "any", std::nullopt, "FLOAT16", "ND", kAclnnErrParamNullptr},
      {"derived 9-D", "any", Shape{1, 1, 1, 1, 1, 1, 1, 16, 32}, "FLOAT16", "ND",
       kAclnnErrParamInvalid},
  };
  return rows;
}

Case SizeRowCase(const SizeRow& row, const Profile& profile) {
  Case c(row.routine, profile.name);
  if (row.shape)
    c.Set("shape", *row.shape);
  else
    c.SetNull("shape");
  if (*row.dtype) c.Set("dtype", row.dtype);
  if (row.null_out) c.SetNull("weight_tensor_size");
  return c;
}

Case TransRowCase(const TransRow& row, const Profile& profile) {
  Case c(kTrans, profile.name);
  c.Set("shape", row.shape.value_or(Shape{16, 32}));
  c.Set("dtype", row.dtype).Set("format", row.format).Set("seed", int64_t{1});
  if (!row.shape) c.SetNull("mm_weight_ref");
  return c;
}

}  // namespace

std::vector<DocumentedCase> DocumentedCases(const std::string& routine, const Profile& profile) {
  std::vector<DocumentedCase> out;
  if (!profile.cann) return out;
  for (const auto& row : SizeRows()) {
    if (routine != row.routine || !ArchMatches(row.arch, profile)) continue;
    out.push_back({SizeRowCase(row, profile), row.status, row.size,
                   std::string("spec cann.md §1.7 ") + row.id, row.reading, row.choice});
  }
  if (routine == kTrans) {
    for (const auto& row : TransRows()) {
      if (!ArchMatches(row.arch, profile)) continue;
      out.push_back({TransRowCase(row, profile), row.status, std::nullopt,
                     std::string("spec cann.md §2.4 ") + row.id, "", ""});
    }
  }
  return out;
}

const DocumentedCase* FindDocumented(const Case& c, const Profile& profile) {
  static thread_local std::vector<DocumentedCase> rows;
  rows = DocumentedCases(c.routine, profile);
  for (const auto& row : rows) {
    if (row.c == c) return &row;
  }
  return nullptr;
}

std::vector<Case> DocumentedAsCases(const std::string& routine, const Profile& profile) {
  std::vector<Case> out;
  for (const auto& row : DocumentedCases(routine, profile)) out.push_back(row.c);
  return out;
}

std::vector<Case> RealSizeCases(const std::string& routine, const Profile& profile) {
  std::vector<Case> out;
  const std::vector<DType> dtypes =
      routine == kV2 ? std::vector<DType>{DType::kFloat16, DType::kBf16,         DType::kInt8,
                                          DType::kUint8,   DType::kFloat8E4M3Fn, DType::kHiFloat8,
                                          DType::kFloat,   DType::kInt32,        DType::kInt4}
                     : std::vector<DType>{DType::kFloat16};
  for (const auto& real : DistinctRealShapes()) {
    for (DType dtype : dtypes) {
      Case c(routine, profile.name);
      c.Set("shape", real.shape);
      if (routine == kV2) c.Set("dtype", dtype);
      out.push_back(c);
    }
  }
  return out;
}

std::vector<Case> RealLayoutCases(const std::string& routine, const PropertyContext& ctx) {
  std::vector<Case> out;
  if (!ctx.real_shapes || !ctx.profile.cann) return out;
  auto layout_case = [&](const Profile& p, DType dtype, const Shape& shape, int64_t seed) {
    Case c(routine, p.name);
    c.Set("shape", shape).Set("dtype", dtype).Set("seed", seed);
    return c;
  };
  auto takes = [&](const Profile& p, DType dtype) {
    return p.cann && p.verified && p.cann->nz_c0.count(dtype) &&
           (routine != kTrans || p.cann->TransSupports(dtype));
  };
  // The layout moves bits: dtypes of equal width and C0 (FLOAT16/BF16;
  // INT8/UINT8/FP8/HIF8; FLOAT/INT32) give byte-identical cases, so a real
  // shape (1.6 G elements in all) runs once per (bits, C0) class: on the first
  // profile of the run, and the first dtype of the class there, whose case the
  // port's claims admit. Every dtype still runs the edge and random cases.
  const auto& shapes = DistinctRealShapes();
  std::vector<std::pair<int, int64_t>> classes_done;
  for (const auto& [dtype, c0] : ctx.profile.cann->nz_c0) {
    const std::pair<int, int64_t> layout_class{Bits(dtype), c0};
    if (!takes(ctx.profile, dtype) ||
        std::find(classes_done.begin(), classes_done.end(), layout_class) != classes_done.end()) {
      continue;
    }
    classes_done.push_back(layout_class);
    for (size_t i = 0; i < shapes.size(); ++i) {
      const int64_t seed = static_cast<int64_t>(i) + 1;
      auto here = RunHere(ctx, [&](const Profile& p) {
        std::vector<Case> same;
        if (!p.cann) return same;
        for (const auto& [d, c] : p.cann->nz_c0) {
          if (Bits(d) == layout_class.first && c == layout_class.second && takes(p, d))
            same.push_back(layout_case(p, d, shapes[i].shape, seed));
        }
        return same;
      });
      if (here) out.push_back(std::move(*here));
    }
  }
  return out;
}

}  // namespace npuconf::cann_props
