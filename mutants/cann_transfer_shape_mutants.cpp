// Realistic faults of a framework storage-shape function (spec layouts.md
// §A.0.1, §A.0.2): aclnn's fp32 C0 taken for TSU's, the 2-D FRACTAL_Z split on
// the wrong axis, a 4-D origin not given D = 1, -1 read as a size, a C <= 4
// check TSU does not make, _C0_x ignored, a short rank refused, N1 rounded
// down. Each is the reference with one knob turned.
#include "mutants/cann_transfer_shape_mutants.h"

#include <cstring>

#include "core/abi_view.h"
#include "core/profile.h"
#include "core/routines/cann_transfer_shape.h"
#include "reference/cann_transfer_shape/transfer_shape.h"
#include "reference/cann_transfer_shape/transfer_shape_port.h"

namespace npuconf {
namespace {

using namespace cann_transfer_shape;
namespace ids = routines::cann_transfer_shape;

enum class Bug {
  kFp32C0Is8,
  kFz2dSplitsSecondAxis,
  kNdc1hwc0WithoutUnitD,
  kUnknownReadAsZero,
  kC04ChecksC,
  kNzC0SuffixIgnored,
  kRankBelowNeedFalse,
  kFzN1RoundsDown,
};

// The origin's axis letters (ND reads as NCHW), "" without an axis map.
std::string LettersOf(const std::string& origin) {
  if (origin == "ND") return "NCHW";
  for (const char* f : {"NCHW", "NHWC", "HWCN", "CHWN", "NCDHW", "NDHWC", "DHWCN", "DHWNC"}) {
    if (origin == f) return origin;
  }
  return "";
}

int64_t K0(const TransferShapeFacts& f, const std::string& dtype) {
  auto it = f.k0.find(dtype);
  return it == f.k0.end() ? f.k0_default : it->second;
}

template <Bug kBug>
int32_t Call(const npuconf_case* c, int64_t* status, char* message, uint64_t message_bytes) {
  const CaseView view(c);
  const Profile* profile = FindProfile(view.profile());
  auto src = view.String("src_format"), dst = view.String("dst_format"),
       dtype = view.String("dtype");
  auto shape = view.IntList("shape");
  npuconf_tensor* out = view.Output("storage_shape");
  if (!profile || !profile->cann || !profile->raw.contains("transfer_shape") || !src || !dst ||
      !dtype || !shape || !out) {
    return AnswerWith(CannTransferShapeReference(), c, status, message, message_bytes);
  }
  TransferShapeFacts facts = ReadTransferShapeFacts(profile->raw);
  TransferShapeArgs args{.origin_format = *src,
                         .format = *dst,
                         .dtype = *dtype,
                         .shape = *shape,
                         .groups = view.Int("groups").value_or(1),
                         .m0 = view.Int("m0").value_or(0)};
  const std::string letters = LettersOf(*src);
  const Shape& s = *shape;
  auto axis = [&](char l) -> int64_t {
    const size_t at = letters.find(l);
    return at == std::string::npos || at >= s.size() ? 1 : s[at];
  };
  if (kBug == Bug::kFp32C0Is8)
    facts.k0["FLOAT"] = facts.k0["INT32"] = 8;  // aclnn CalcC0Format (D1)
  if (kBug == Bug::kUnknownReadAsZero) {
    for (int64_t& d : args.shape) d = d == -1 ? 0 : d;
  }
  if (kBug == Bug::kNzC0SuffixIgnored && args.format.rfind("FRACTAL_NZ_C0_", 0) == 0)
    args.format = "FRACTAL_NZ";
  Shape storage;
  *status = TransferShape(facts, args, &storage);
  const int64_t k0 = K0(facts, *dtype);
  if (kBug == Bug::kFz2dSplitsSecondAxis && *status == ids::kTrue && *dst == "FRACTAL_Z" &&
      s.size() == 2 && s[0] > 0 && s[1] > 0) {
    storage = {(s[1] + k0 - 1) / k0, (s[0] + 15) / 16, 16, k0};
  }
  if (kBug == Bug::kNdc1hwc0WithoutUnitD && *dst == "NDC1HWC0" && s.size() == 4) storage = s;
  if (kBug == Bug::kC04ChecksC && (*dst == "NC1HWC0_C04" || *dst == "FRACTAL_Z_C04") &&
      !letters.empty() && s.size() >= letters.size() && axis('C') > 4) {
    *status = ids::kFalse;
  }
  if (kBug == Bug::kRankBelowNeedFalse && *status == ids::kTrue && !letters.empty() && !s.empty() &&
      s.size() < letters.size() && dst->rfind("FRACTAL_NZ", 0) != 0 &&
      !(*dst == "FRACTAL_Z" && s.size() == 2) && !(*src == "ND" && !LettersOf(*dst).empty()) &&
      *dst != "ND") {
    *status = ids::kFalse;
  }
  if (kBug == Bug::kFzN1RoundsDown && *status == ids::kTrue && *dst == "FRACTAL_Z" &&
      s.size() == letters.size() && axis('N') > 0 && args.groups <= 1) {
    storage[1] = axis('N') / 16;
  }
  if (*status != ids::kTrue) return NPUCONF_CALL_ANSWERED;
  const uint64_t bytes = storage.size() * sizeof(int64_t);
  if (out->bytes < bytes || (bytes && !out->data)) return NPUCONF_CALL_BAD_CASE;
  if (bytes) std::memcpy(out->data, storage.data(), bytes);
  SetOutputShape(out, {static_cast<int64_t>(storage.size())});
  return NPUCONF_CALL_ANSWERED;
}

}  // namespace

void AddCannTransferShapeMutants(std::vector<Mutant>* out) {
  const ReferenceFamily* family = &CannTransferShapeReference();
  auto add = [&](const char* name, const char* bug, const char* property, PortCallPtr call) {
    out->push_back({.name = name,
                    .bug = bug,
                    .caught_by = std::string("cann.transfer_shape.") + property,
                    .profile = "ascend910b",
                    .family = family,
                    .call = call,
                    .routines = {ids::kTransferShape}});
  };
  add("tsu-fp32-c0-8", "FLOAT/INT32 take C0 8 (aclnn TransData's 32 B / 4) for TSU's 16 (D1)",
      "vendor_unit_test_rows", &Call<Bug::kFp32C0Is8>);
  add("tsu-fz-2d-splits-second-axis",
      "a 2-D FRACTAL_Z splits the second axis by C0 and the first by 16 (NZ's roles)",
      "vendor_unit_test_rows", &Call<Bug::kFz2dSplitsSecondAxis>);
  add("tsu-ndc1hwc0-without-unit-d", "a 4-D origin to NDC1HWC0 is left unchanged (no D = 1)",
      "vendor_unit_test_rows", &Call<Bug::kNdc1hwc0WithoutUnitD>);
  add("tsu-unknown-read-as-zero", "a -1 dim is read as the size 0, not kept unknown",
      "unknown_dim_propagates", &Call<Bug::kUnknownReadAsZero>);
  add("tsu-c04-checks-c", "NC1HWC0_C04 / FRACTAL_Z_C04 return false for C > 4 (GE's check, D8)",
      "vendor_unit_test_rows", &Call<Bug::kC04ChecksC>);
  add("tsu-nz-c0-suffix-ignored", "FRACTAL_NZ_C0_x takes the dtype's C0, not x",
      "vendor_unit_test_rows", &Call<Bug::kNzC0SuffixIgnored>);
  add("tsu-rank-below-need-false", "a rank below the origin's axis need returns false",
      "rank_below_need_unchanged", &Call<Bug::kRankBelowNeedFalse>);
  add("tsu-fz-n1-rounds-down", "FRACTAL_Z's N1 = N / 16 rounded down (N not padded to 16)",
      "agrees_with_trans_data", &Call<Bug::kFzN1RoundsDown>);
}

}  // namespace npuconf
