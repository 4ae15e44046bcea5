#include <cstring>
#include <string>

#include "core/abi_view.h"
#include "core/profile.h"
#include "core/status.h"
#include "mutants/mutants.h"
#include "reference/cann/cann_port.h"

namespace npuconf {
namespace {

using cann::kAclnnErrParamInvalid;
using cann::kAclnnErrParamNullptr;
using cann::kAclnnErrRuntimeError;
using cann::kAclnnSuccess;

// ---- a plain, element-by-element FRACTAL_NZ packer with knobs for the bugs ----

struct PackKnobs {
  bool zero_padding = true;
  bool even_nibble_high = false;
  int64_t int8_c0 = 32;
};

uint8_t GetNibble(const uint8_t* d, int64_t e, bool even_high) {
  const bool high = (e % 2 == 0) == even_high;
  return high ? static_cast<uint8_t>(d[e / 2] >> 4) : static_cast<uint8_t>(d[e / 2] & 0xF);
}
void SetNibble(uint8_t* d, int64_t e, uint8_t v, bool even_high) {
  const bool high = (e % 2 == 0) == even_high;
  d[e / 2] = high ? static_cast<uint8_t>((d[e / 2] & 0x0F) | (v << 4))
                  : static_cast<uint8_t>((d[e / 2] & 0xF0) | (v & 0x0F));
}

bool MutantPack(const CaseView& view, const PackKnobs& knobs, int64_t* status) {
  auto shape = view.IntList("shape");
  auto dtype = view.DTypeParam("dtype");
  const Profile* profile = FindProfile(view.profile());
  if (!shape || !dtype || !profile || !profile->cann || shape->empty()) return false;
  int64_t c0 = profile->cann->nz_c0.at(*dtype);
  if (auto explicit_c0 = view.Int("c0")) c0 = *explicit_c0;
  if ((*dtype == DType::kInt8 || *dtype == DType::kUint8) && !view.Has("c0")) c0 = knobs.int8_c0;
  const size_t rank = shape->size();
  const int64_t k = (*shape)[rank - 1];
  const int64_t n = rank >= 2 ? (*shape)[rank - 2] : 1;
  int64_t batch = 1;
  for (size_t i = 0; i + 2 < rank; ++i) batch *= (*shape)[i];
  const int64_t n1 = (n + 15) / 16, c1 = (k + c0 - 1) / c0;
  const int bits = Bits(*dtype);
  const npuconf_tensor* in = view.Input("nd");
  npuconf_tensor* out = view.Output("nz");
  const auto* src = static_cast<const uint8_t*>(in->data);
  auto* dst = static_cast<uint8_t*>(out->data);
  const uint64_t storage_elems = static_cast<uint64_t>(batch * c1 * n1 * 16 * c0);
  const uint64_t storage_bytes = bits == 4 ? storage_elems / 2 : storage_elems * (bits / 8);
  if (knobs.zero_padding) std::memset(dst, 0, std::min<uint64_t>(storage_bytes, out->bytes));
  const int64_t bytes = bits / 8;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t r = 0; r < n; ++r) {
      for (int64_t c = 0; c < k; ++c) {
        const int64_t from = (b * n + r) * k + c;
        const int64_t to = ((b * c1 + c / c0) * n1 * 16 + r) * c0 + c % c0;
        if (static_cast<uint64_t>(bits == 4 ? to / 2 : to * bytes) >= out->bytes) continue;
        if (bits == 4) {
          SetNibble(dst, to, GetNibble(src, from, false), knobs.even_nibble_high);
        } else {
          std::memcpy(dst + to * bytes, src + from * bytes, static_cast<size_t>(bytes));
        }
      }
    }
  }
  Shape storage(shape->begin(), shape->end() - std::min<size_t>(rank, 2));
  storage.insert(storage.end(), {c1, n1, 16, c0});
  SetOutputShape(out, storage);
  *status = kAclnnSuccess;
  return true;
}

// ---- a plain size routine with knobs ------------------------------------------

struct SizeKnobs {
  bool v2_half_rule_for_all = false;  // the legacy 16×16 rule inside V2
  bool align_batch = false;
  bool v2_accepts_zero = false;
  bool null_checks_before_soc = false;
  int max_rank = 6;
};

int64_t MutantSize(const CaseView& view, const SizeKnobs& knobs, bool v2) {
  const Profile* profile = FindProfile(view.profile());
  const CannFacts& facts = *profile->cann;
  npuconf_tensor* out = view.Output("weight_tensor_size");
  auto shape = view.IntList("shape");
  const bool null_shape = !shape;
  const bool null_out = out->data == nullptr;
  if (v2 && !knobs.null_checks_before_soc && !facts.v2_size_supported) return kAclnnErrRuntimeError;
  if (null_shape || null_out) return kAclnnErrParamNullptr;
  if (v2 && !facts.v2_size_supported) return kAclnnErrRuntimeError;
  const RankRange rule = v2 ? facts.v2_size_rank : facts.legacy_size_rank;
  const int max_rank = rule.max == 6 ? knobs.max_rank : rule.max;
  if (static_cast<int>(shape->size()) < rule.min || static_cast<int>(shape->size()) > max_rank) {
    return kAclnnErrParamInvalid;
  }
  for (int64_t d : *shape) {
    if (d < 0 || (v2 && d == 0 && !knobs.v2_accepts_zero)) return kAclnnErrParamInvalid;
  }
  const DType dtype = v2 ? view.DTypeParam("dtype").value_or(DType::kFloat16) : DType::kFloat16;
  const bool half =
      !v2 || knobs.v2_half_rule_for_all || dtype == DType::kFloat16 || dtype == DType::kBf16;
  __int128 size = 1;
  for (size_t i = 0; i < shape->size(); ++i) {
    const int64_t align = i + 2 == shape->size()   ? 16
                          : i + 1 == shape->size() ? (half ? 16 : 32)
                                                   : (knobs.align_batch ? 16 : 1);
    size *= ((*shape)[i] + align - 1) / align * align;
    if (size > INT64_MAX) return kAclnnErrParamInvalid;
  }
  const uint64_t value = static_cast<uint64_t>(size);
  std::memcpy(out->data, &value, sizeof(value));
  return kAclnnSuccess;
}

// ---- the mutants -------------------------------------------------------------

enum class Bug {
  kNzPaddingUnwritten,
  kInt8C0Is16,
  kInt4EvenHighNibble,
  kV2LegacyRule,
  kBatchDimsAligned,
  kV2AcceptsZeroDims,
  kV2NullBeforeSocCheck,
  kRankSevenAccepted,
  kTransWritesPastCapacity,
  kUnpackBlocksTransposed,
  kTransEmptyRejected,
};

int32_t Answer(int32_t result, int64_t* status, int64_t value) {
  *status = value;
  return result;
}

template <Bug kBug>
int32_t MutantCall(const npuconf_case* c, int64_t* vendor_status, char* message,
                   uint64_t message_bytes) {
  const CaseView view(c);
  const std::string routine = view.routine();
  const bool size_routine = routine == "cann.calculate_matmul_weight_size" ||
                            routine == "cann.calculate_matmul_weight_size_v2";
  const bool v2 = routine == "cann.calculate_matmul_weight_size_v2";
  if (FindProfile(view.profile()) == nullptr) {
    return cann::CannReferenceCall(c, vendor_status, message, message_bytes);
  }
  switch (kBug) {
    case Bug::kNzPaddingUnwritten:
      if (routine == "cann.nd_to_nz" && MutantPack(view, {false, false, 32}, vendor_status)) {
        return NPUCONF_CALL_ANSWERED;
      }
      break;
    case Bug::kInt8C0Is16:
      if (routine == "cann.nd_to_nz" && MutantPack(view, {true, false, 16}, vendor_status)) {
        return NPUCONF_CALL_ANSWERED;
      }
      break;
    case Bug::kInt4EvenHighNibble:
      if (routine == "cann.nd_to_nz" && MutantPack(view, {true, true, 32}, vendor_status)) {
        return NPUCONF_CALL_ANSWERED;
      }
      break;
    case Bug::kV2LegacyRule:
      if (size_routine)
        return Answer(NPUCONF_CALL_ANSWERED, vendor_status, MutantSize(view, {true}, v2));
      break;
    case Bug::kBatchDimsAligned:
      if (size_routine) {
        return Answer(NPUCONF_CALL_ANSWERED, vendor_status, MutantSize(view, {false, true}, v2));
      }
      break;
    case Bug::kV2AcceptsZeroDims:
      if (size_routine) {
        return Answer(NPUCONF_CALL_ANSWERED, vendor_status,
                      MutantSize(view, {false, false, true}, v2));
      }
      break;
    case Bug::kV2NullBeforeSocCheck:
      if (size_routine) {
        return Answer(NPUCONF_CALL_ANSWERED, vendor_status,
                      MutantSize(view, {false, false, false, true}, v2));
      }
      break;
    case Bug::kRankSevenAccepted:
      if (size_routine) {
        return Answer(NPUCONF_CALL_ANSWERED, vendor_status,
                      MutantSize(view, {false, false, false, false, 7}, v2));
      }
      break;
    case Bug::kTransWritesPastCapacity: {
      const int32_t result = cann::CannReferenceCall(c, vendor_status, message, message_bytes);
      npuconf_tensor* out = view.Output("mm_weight_ref");
      if (routine == "cann.trans_matmul_weight" && out && out->data &&
          *vendor_status == kAclnnSuccess && out->bytes > 0) {
        // Zero-fills a whole 32-byte block past the end, "to be safe".
        std::memset(static_cast<uint8_t*>(out->data) + out->bytes, 0, 32);
      }
      return result;
    }
    case Bug::kUnpackBlocksTransposed:
      if (routine == "cann.nz_to_nd") {
        // Reads the NZ blocks N1-major instead of C1-major.
        auto shape = view.IntList("shape");
        auto dtype = view.DTypeParam("dtype");
        const Profile* profile = FindProfile(view.profile());
        if (!shape || !dtype || shape->empty() || Bits(*dtype) < 8) break;
        int64_t c0 = view.Int("c0").value_or(profile->cann->nz_c0.at(*dtype));
        const size_t rank = shape->size();
        const int64_t k = (*shape)[rank - 1], n = rank >= 2 ? (*shape)[rank - 2] : 1;
        int64_t batch = 1;
        for (size_t i = 0; i + 2 < rank; ++i) batch *= (*shape)[i];
        const int64_t n1 = (n + 15) / 16, c1 = (k + c0 - 1) / c0, bytes = Bits(*dtype) / 8;
        const auto* src = static_cast<const uint8_t*>(view.Input("nz")->data);
        auto* dst = static_cast<uint8_t*>(view.Output("nd")->data);
        for (int64_t b = 0; b < batch; ++b) {
          for (int64_t r = 0; r < n; ++r) {
            for (int64_t col = 0; col < k; ++col) {
              const int64_t from =
                  ((b * n1 + r / 16) * c1 + col / c0) * 16 * c0 + (r % 16) * c0 + col % c0;
              std::memcpy(dst + ((b * n + r) * k + col) * bytes, src + from * bytes,
                          static_cast<size_t>(bytes));
            }
          }
        }
        SetOutputShape(view.Output("nd"), *shape);
        return Answer(NPUCONF_CALL_ANSWERED, vendor_status, kAclnnSuccess);
      }
      break;
    case Bug::kTransEmptyRejected:
      if (routine == "cann.trans_matmul_weight") {
        auto shape = view.IntList("shape");
        npuconf_tensor* out = view.Output("mm_weight_ref");
        if (shape && out && out->data &&
            std::find(shape->begin(), shape->end(), 0) != shape->end()) {
          return Answer(NPUCONF_CALL_ANSWERED, vendor_status, kAclnnErrParamInvalid);
        }
      }
      break;
  }
  return cann::CannReferenceCall(c, vendor_status, message, message_bytes);
}

}  // namespace

void AddCannMutants(std::vector<Mutant>* out) {
  const std::vector<Mutant> mutants = {
      {"nz-padding-unwritten",
       "nd_to_nz leaves the FRACTAL_NZ padding as it found it",
       "cann.nd_to_nz.padding_is_zero",
       "ascend910b",
       &cann::CannReference(),
       &MutantCall<Bug::kNzPaddingUnwritten>,
       {"cann.nd_to_nz"}},
      {"int8-c0-16",
       "nd_to_nz uses C0 = 16 for INT8/UINT8 instead of 32",
       "cann.nd_to_nz.matches_oracle",
       "ascend910b",
       &cann::CannReference(),
       &MutantCall<Bug::kInt8C0Is16>,
       {"cann.nd_to_nz"}},
      {"int4-high-nibble",
       "nd_to_nz stores the even INT4 element in the high nibble",
       "cann.nd_to_nz.matches_oracle",
       "ascend910b",
       &cann::CannReference(),
       &MutantCall<Bug::kInt4EvenHighNibble>,
       {"cann.nd_to_nz"}},
      {"v2-legacy-rule",
       "V2 aligns k to 16 for every dtype (the legacy rule)",
       "cann.calculate_matmul_weight_size_v2.matches_oracle",
       "ascend910b",
       &cann::CannReference(),
       &MutantCall<Bug::kV2LegacyRule>,
       {"cann.calculate_matmul_weight_size*"}},
      {"batch-dims-aligned",
       "the size routines align the batch dims to 16 too",
       "cann.calculate_matmul_weight_size.matches_oracle",
       "ascend910b",
       &cann::CannReference(),
       &MutantCall<Bug::kBatchDimsAligned>,
       {"cann.calculate_matmul_weight_size*"}},
      {"v2-zero-dims-accepted",
       "V2 gives size 0 for a zero dim instead of 161002",
       "cann.calculate_matmul_weight_size_v2.rejects_invalid",
       "ascend910b",
       &cann::CannReference(),
       &MutantCall<Bug::kV2AcceptsZeroDims>,
       {"cann.calculate_matmul_weight_size*"}},
      {"v2-wrong-check-order",
       "V2 checks the null pointers before the SoC gate",
       "cann.calculate_matmul_weight_size_v2.rejects_invalid",
       "ascend910",
       &cann::CannReference(),
       &MutantCall<Bug::kV2NullBeforeSocCheck>,
       {"cann.calculate_matmul_weight_size*"}},
      {"rank7-accepted",
       "the size routines accept rank 7",
       "cann.calculate_matmul_weight_size.rejects_invalid",
       "ascend910b",
       &cann::CannReference(),
       &MutantCall<Bug::kRankSevenAccepted>,
       {"cann.calculate_matmul_weight_size*"}},
      {"trans-writes-past-capacity",
       "TransMatmulWeight zero-fills 32 bytes past the buffer",
       "cann.trans_matmul_weight.no_write_past_capacity",
       "ascend910b",
       &cann::CannReference(),
       &MutantCall<Bug::kTransWritesPastCapacity>,
       {"cann.trans_matmul_weight"}},
      {"unpack-blocks-transposed",
       "nz_to_nd reads the fractal blocks N1-major",
       "cann.nz_to_nd.matches_oracle",
       "ascend910b",
       &cann::CannReference(),
       &MutantCall<Bug::kUnpackBlocksTransposed>,
       {"cann.nz_to_nd"}},
      {"trans-empty-rejected",
       "TransMatmulWeight rejects an empty tensor (the doc's reading, not the code's)",
       "cann.trans_matmul_weight.rejects_invalid",
       "ascend910b",
       &cann::CannReference(),
       &MutantCall<Bug::kTransEmptyRejected>,
       {"cann.trans_matmul_weight"}},
  };
  out->insert(out->end(), mutants.begin(), mutants.end());
}

}  // namespace npuconf
