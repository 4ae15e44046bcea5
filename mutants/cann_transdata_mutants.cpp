// Realistic faults of host TransData code (spec layouts.md §A.1–A.7, §A.12):
// the other implementations' C0s and group factors taken as GE's, padding
// left as found, an off-by-one C1, NHWC read as NCHW, checks in the wrong order
// or with the wrong code; in the 3-D and C04 formats D on the wrong side of C1,
// FRACTAL_Z_C04 flattened channel-major or with C0 16 for int8, C > 4 let through.
// Each is the reference with one knob turned.
#include "mutants/cann_transdata_mutants.h"

#include <cstring>

#include "core/abi_view.h"
#include "core/profile.h"
#include "core/routines/cann_transdata.h"
#include "reference/cann_transdata/trans_data.h"
#include "reference/cann_transdata/trans_data_port.h"

namespace npuconf {
namespace {

using namespace cann_transdata;
using namespace routines::cann_transdata;

enum class Bug {
  kFp32C0Is8,
  kInt8C0Is16,
  kThreeWayMin,
  kGroupsIgnored,
  kGroupsOverNUngrouped,
  kPaddingUnwritten,
  kC1OneTooMany,
  kNNotPaddedTo16,
  kNhwcReadAsNchw,
  kDtypeCheckedFirst,
  kRankIsFormatError,
  kGroupBlocksRoundDown,
  kGroupsZeroRejected,
  kRejectedWritesDst,
  kDimsNotReported,
  kUnpackDropsPartialC1,
  kNz1dColumn,
  kC04TakesDtypeC0,
  kN1StepsOfFour,
  kFz3dDAfterC1,
  kNdc1hwc0DC1Swapped,
  kFzC04ChannelMajor,
  kFzC04Int8C0Is16,
  kFzC04AcceptsCOver4,
  kNdhwcReadAsNcdhw,
};

// Swaps the adjacent axes D and C1 of a blocked buffer [outer, D, C1, row] (the
// reference's layout) to [outer, C1, D, row] (`to_swapped`), or back.
void SwapDAndC1(const TransDataPlan& p, bool to_swapped, const uint8_t* from, uint8_t* to) {
  const bool fz = p.blocked == Format::kFractalZ3d;
  const int64_t outer = fz ? p.g_blocks : p.n;
  const int64_t row = p.h * p.w * (fz ? p.cout_padded : 1) * p.c0 * p.elem_bytes;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t d = 0; d < p.d; ++d) {
      for (int64_t c1 = 0; c1 < p.c1; ++c1) {
        const int64_t right = (o * p.d + d) * p.c1 + c1, swapped = (o * p.c1 + c1) * p.d + d;
        std::memcpy(to + (to_swapped ? swapped : right) * row,
                    from + (to_swapped ? right : swapped) * row, static_cast<size_t>(row));
      }
    }
  }
}

// FRACTAL_Z_C04 with f = (c·H + h)·W + w (each channel's plane in turn) for
// (h·W + w)·4 + c (§A.5); `pack` writes the blocked side, else the plain one.
void ChannelMajorC04(const TransDataPlan& p, const uint8_t* src, uint8_t* dst) {
  const int64_t e = p.elem_bytes, hw = p.h * p.w;
  const bool hwcn = p.plain == Format::kHwcn;
  for (int64_t n = 0; n < p.n; ++n) {
    for (int64_t c = 0; c < p.c; ++c) {
      for (int64_t i = 0; i < hw; ++i) {
        const int64_t f = c * hw + i;
        const int64_t blocked = (f / p.c0) * p.cout_padded * p.c0 + n * p.c0 + f % p.c0;
        const int64_t plain = hwcn ? (i * p.c + c) * p.n + n : (n * p.c + c) * hw + i;
        const int64_t from = p.pack ? plain : blocked, to = p.pack ? blocked : plain;
        std::memcpy(dst + to * e, src + from * e, static_cast<size_t>(e));
      }
    }
  }
}

void Restorage(TransDataPlan* p) {
  if (p->blocked == Format::kNc1hwc0 || p->blocked == Format::kNc1hwc0C04) {
    p->storage = {p->n, p->c1, p->h, p->w, p->c0};
  } else if (p->blocked == Format::kNdc1hwc0) {
    p->storage = {p->n, p->d, p->c1, p->h, p->w, p->c0};
  } else if (p->blocked == Format::kFractalZC04) {
    p->storage = {(4 * p->c04_c1 * p->h * p->w + p->c0 - 1) / p->c0, p->cout_padded / 16, 16,
                  p->c0};
  } else {
    p->storage = {p->g_blocks * p->d * p->c1 * p->h * p->w, p->cout_padded / 16, 16, p->c0};
  }
  p->storage_elems = 1;
  for (int64_t d : p->storage) p->storage_elems *= d;
  const uint64_t storage_bytes = static_cast<uint64_t>(p->storage_elems * p->elem_bytes);
  (p->pack ? p->dst_bytes : p->src_bytes) = storage_bytes;
  if (p->pack) p->dst_dims = p->storage;
}

// The axis of a plain format's channels (the last for ND, FRACTAL_NZ's C1 being
// the column blocks), or -1.
int ChannelAxis(Format plain, size_t rank) {
  switch (plain) {
    case Format::kNchw:
    case Format::kNcdhw:
      return 1;
    case Format::kHwcn:
      return 2;
    case Format::kNhwc:
    case Format::kDhwcn:
      return 3;
    case Format::kNdhwc:
      return 4;
    case Format::kNd:
      return static_cast<int>(rank) - 1;
    default:
      return -1;
  }
}

// An unpack that skips the last partial C1 block: the plain elements of the
// channels past the last whole C0 keep what `before` (the output as the call
// found it) held. The unpack itself runs on the reference's plan: a plan with
// C cut and C1 not (as this mutant once did) sent the kernels past their
// buffers, a heap corruption no port-author bug is about.
void DropPartialC1(const TransDataPlan& p, const std::vector<uint8_t>& before, uint8_t* out,
                   uint64_t out_bytes) {
  const Shape& dims = p.dst_dims;
  const int axis = ChannelAxis(p.plain, dims.size());
  if (axis < 0 || static_cast<size_t>(axis) >= dims.size() || p.c0 <= 0) return;
  const int64_t channels = dims[static_cast<size_t>(axis)];
  const int64_t whole = channels / p.c0 * p.c0;
  if (whole == channels) return;
  int64_t outer = 1, inner = p.elem_bytes;
  for (int i = 0; i < axis; ++i) outer *= dims[static_cast<size_t>(i)];
  for (size_t i = static_cast<size_t>(axis) + 1; i < dims.size(); ++i) inner *= dims[i];
  for (int64_t o = 0; o < outer; ++o) {
    const uint64_t at = static_cast<uint64_t>((o * channels + whole) * inner);
    const uint64_t bytes = static_cast<uint64_t>((channels - whole) * inner);
    if (at + bytes > out_bytes || at + bytes > before.size()) return;
    std::memcpy(out + at, before.data() + at, static_cast<size_t>(bytes));
  }
}

template <Bug kBug>
int32_t Call(const npuconf_case* c, int64_t* status, char* message, uint64_t message_bytes) {
  const CaseView view(c);
  const Profile* profile = FindProfile(view.profile());
  auto src = view.String("src_format"), dst = view.String("dst_format");
  auto shape = view.IntList("shape");
  auto dtype = view.DTypeParam("dtype");
  auto reference = [&] {
    return AnswerWith(CannTransDataReference(), c, status, message, message_bytes);
  };
  if (!profile || !profile->cann || !src || !dst || !shape || !dtype || !ParseFormat(*src) ||
      !ParseFormat(*dst)) {
    return reference();
  }
  TransDataFacts facts = ReadTransDataFacts(profile->raw);
  TransDataArgs args{.src = *ParseFormat(*src),
                     .dst = *ParseFormat(*dst),
                     .groups = view.Int("groups").value_or(1),
                     .shape = *shape,
                     .dtype = *dtype,
                     .c0 = view.Int("c0").value_or(0)};
  const bool byte_int = *dtype == DType::kInt8 || *dtype == DType::kUint8;
  const bool word = *dtype == DType::kFloat || *dtype == DType::kInt32;
  if (kBug == Bug::kFp32C0Is8 && word && !args.c0) args.c0 = 8;
  if (kBug == Bug::kInt8C0Is16 && byte_int && !args.c0) args.c0 = 16;
  if (kBug == Bug::kThreeWayMin) facts.three_way_min = true;
  if (kBug == Bug::kGroupsIgnored) args.groups = 1;
  if (kBug == Bug::kNz1dColumn) facts.nz_1d_column = true;
  if (kBug == Bug::kC04TakesDtypeC0) {
    if (args.src == Format::kNc1hwc0C04) args.src = Format::kNc1hwc0;
    if (args.dst == Format::kNc1hwc0C04) args.dst = Format::kNc1hwc0;
  }
  if (kBug == Bug::kGroupsOverNUngrouped) facts.groups_exceed_n_ungrouped = true;
  if (kBug == Bug::kFzC04AcceptsCOver4) facts.fz_c04_accepts_c_over_4 = true;
  // FRACTAL_Z_C04 takes no C0 from the caller (§A.5): the fixed-16 fact, for bytes only.
  if (kBug == Bug::kFzC04Int8C0Is16 && byte_int &&
      (args.src == Format::kFractalZC04 || args.dst == Format::kFractalZC04))
    facts.fz_c04_fixed_16 = true;
  if (kBug == Bug::kGroupsZeroRejected && args.groups == 0) {
    *status = kGeShapeInvalid;
    return NPUCONF_CALL_ANSWERED;
  }
  if (kBug == Bug::kDtypeCheckedFirst && args.c0 <= 0 && !facts.c0.count(*dtype)) {
    *status = kGeDatatypeInvalid;
    return NPUCONF_CALL_ANSWERED;
  }
  TransDataPlan plan;
  *status = PlanTransData(facts, args, &plan);
  npuconf_tensor* out = view.Output("dst");
  const npuconf_tensor* in = view.Input("src");
  if (*status != kGeSuccess) {
    if (kBug == Bug::kRankIsFormatError && shape->size() != 4 && *status == kGeShapeInvalid)
      *status = kGeFormatInvalid;
    if (kBug == Bug::kRejectedWritesDst && out && out->data)
      std::memset(out->data, 0, static_cast<size_t>(out->bytes));
    return NPUCONF_CALL_ANSWERED;
  }
  if (!in || !out) return reference();
  if (kBug == Bug::kC1OneTooMany) {
    plan.c1 = plan.e * plan.c / plan.c0 + 1;
    Restorage(&plan);
  }
  if (kBug == Bug::kNNotPaddedTo16 && plan.blocked == Format::kFractalZ) {
    plan.cout_padded = plan.e * plan.cout;
    Restorage(&plan);
  }
  if (kBug == Bug::kNhwcReadAsNchw && plan.plain == Format::kNhwc) plan.plain = Format::kNchw;
  if (kBug == Bug::kNdhwcReadAsNcdhw && plan.plain == Format::kNdhwc) plan.plain = Format::kNcdhw;
  if (kBug == Bug::kGroupBlocksRoundDown && plan.groups > 1) {
    plan.g_blocks = std::max<int64_t>(1, plan.groups / plan.e);
    Restorage(&plan);
  }
  // A buffer too small for the (wrong) layout: kC1OneTooMany writes 16 bytes past it
  // (into the guard zone, core/buffer.h), the others stop at its end.
  std::vector<uint8_t> scratch(std::max<uint64_t>(plan.dst_bytes, out->bytes), 0);
  std::vector<uint8_t> src_copy(std::max<uint64_t>(plan.src_bytes, in->bytes), 0);
  if (in->data) std::memcpy(src_copy.data(), in->data, static_cast<size_t>(in->bytes));
  if (kBug == Bug::kPaddingUnwritten) {
    // What the buffer held stays where the layout has padding.
    std::vector<uint8_t> ones(src_copy.size(), 0xFF), probe(scratch.size(), 0);
    RunTransData(plan, ones.data(), probe.data());
    RunTransData(plan, src_copy.data(), scratch.data());
    auto* d = static_cast<uint8_t*>(out->data);
    for (size_t b = 0; b < out->bytes; ++b) {
      if (probe[b] == 0xFF) d[b] = scratch[b];
    }
  } else {
    const bool swap = (kBug == Bug::kFz3dDAfterC1 && plan.blocked == Format::kFractalZ3d) ||
                      (kBug == Bug::kNdc1hwc0DC1Swapped && plan.blocked == Format::kNdc1hwc0);
    if (swap && !plan.pack && plan.src_bytes) {
      std::vector<uint8_t> right(src_copy.size(), 0);
      SwapDAndC1(plan, false, src_copy.data(), right.data());
      src_copy = right;
    }
    if (kBug == Bug::kFzC04ChannelMajor && plan.blocked == Format::kFractalZC04) {
      ChannelMajorC04(plan, src_copy.data(), scratch.data());
    } else {
      RunTransData(plan, src_copy.data(), scratch.data());
    }
    if (swap && plan.pack && plan.dst_bytes) {
      std::vector<uint8_t> swapped(scratch.size(), 0);
      SwapDAndC1(plan, true, scratch.data(), swapped.data());
      scratch = swapped;
    }
    const uint64_t written = kBug == Bug::kC1OneTooMany
                                 ? std::min<uint64_t>(plan.dst_bytes, out->bytes + 16)
                                 : std::min(plan.dst_bytes, out->bytes);
    std::vector<uint8_t> before;
    if (kBug == Bug::kUnpackDropsPartialC1 && !plan.pack && out->data) {
      const auto* d = static_cast<const uint8_t*>(out->data);
      before.assign(d, d + out->bytes);
    }
    if (written) std::memcpy(out->data, scratch.data(), static_cast<size_t>(written));
    if (!before.empty()) DropPartialC1(plan, before, static_cast<uint8_t*>(out->data), out->bytes);
  }
  if (kBug == Bug::kN1StepsOfFour && plan.pack && plan.blocked == Format::kFractalZ &&
      plan.groups <= 1) {
    // The ungrouped fast path. Storage [C1·H·W, N1, 16, C0]: the N1 blocks
    // after the last whole step of four are zeroed, not packed.
    const int64_t n1 = plan.cout_padded / 16, done = n1 / 4 * 4;
    const int64_t row = 16 * plan.c0 * plan.elem_bytes;
    auto* d = static_cast<uint8_t*>(out->data);
    if (n1 > 4 && done < n1 && plan.dst_bytes <= out->bytes) {
      for (int64_t outer = 0; outer < plan.storage[0]; ++outer) {
        std::memset(d + (outer * n1 + done) * row, 0, static_cast<size_t>((n1 - done) * row));
      }
    }
  }
  if (kBug != Bug::kDimsNotReported) SetOutputShape(out, plan.dst_dims);
  return NPUCONF_CALL_ANSWERED;
}

}  // namespace

void AddCannTransDataMutants(std::vector<Mutant>* out) {
  const ReferenceFamily* family = &CannTransDataReference();
  auto add = [&](const char* name, const char* bug, const char* property, PortCallPtr call) {
    out->push_back({.name = name,
                    .bug = bug,
                    .caught_by = std::string("cann.trans_data.") + property,
                    .profile = "ascend910b",
                    .family = family,
                    .call = call,
                    .routines = {kTransData}});
  };
  add("transdata-fp32-c0-8", "FLOAT/INT32 take C0 8 (aclnn's CalcC0Format) for GE's 16 (D1)",
      "matches_oracle", &Call<Bug::kFp32C0Is8>);
  add("transdata-int8-c0-16", "INT8/UINT8 take C0 16 (torch_npu) for 32 (D2)", "matches_oracle",
      &Call<Bug::kInt8C0Is16>);
  add("transdata-three-way-min", "the group factor is cann.md's three-way min (D3)",
      "matches_oracle", &Call<Bug::kThreeWayMin>);
  add("transdata-groups-ignored", "groups are ignored (torch_npu InferShapeNDToZ)",
      "matches_oracle", &Call<Bug::kGroupsIgnored>);
  add("transdata-groups-over-n-ungrouped", "N < groups falls back to the ungrouped map (TSU, D6)",
      "rejects_invalid", &Call<Bug::kGroupsOverNUngrouped>);
  add("transdata-padding-unwritten", "padding positions keep what the buffer held",
      "padding_is_zero", &Call<Bug::kPaddingUnwritten>);
  add("transdata-c1-one-too-many", "C1 = C / C0 + 1 (one block too many when C0 divides C)",
      "no_write_past_capacity", &Call<Bug::kC1OneTooMany>);
  add("transdata-n-not-padded", "FRACTAL_Z's N axis is not padded to 16", "matches_oracle",
      &Call<Bug::kNNotPaddedTo16>);
  add("transdata-nhwc-read-as-nchw",
      "an NHWC tensor is read with NCHW strides (its dims permuted, its data not)",
      "matches_oracle", &Call<Bug::kNhwcReadAsNchw>);
  add("transdata-dtype-checked-first", "the dtype is checked before the shape", "rejects_invalid",
      &Call<Bug::kDtypeCheckedFirst>);
  add("transdata-rank-is-format-error", "a rank other than 4 gets 145020, not 145021",
      "rejects_invalid", &Call<Bug::kRankIsFormatError>);
  add("transdata-group-blocks-round-down", "G' = g / e rounded down (the last groups lost)",
      "matches_oracle", &Call<Bug::kGroupBlocksRoundDown>);
  add("transdata-groups-zero-rejected", "groups 0 is rejected (not GE's alias of 1)",
      "groups_one_is_ungrouped", &Call<Bug::kGroupsZeroRejected>);
  add("transdata-rejected-writes-dst", "a rejected call zero-fills dst", "rejects_invalid",
      &Call<Bug::kRejectedWritesDst>);
  add("transdata-dims-not-reported", "dst dims are not reported", "size_matches_layout",
      &Call<Bug::kDimsNotReported>);
  add("transdata-unpack-drops-partial-c1", "the unpack skips the last partial C1 block",
      "round_trip", &Call<Bug::kUnpackDropsPartialC1>);
  add("transdata-nz-1d-column",
      "a rank-1 [k] to FRACTAL_NZ is the column [k, 1] (TSU, torch_npu; D9)", "matches_oracle",
      &Call<Bug::kNz1dColumn>);
  add("transdata-n1-steps-of-four",
      "ungrouped FRACTAL_Z is packed four N1 blocks (64 rows of N) at a time and the last "
      "N1 mod 4 blocks are left zero when N1 > 4 (a bug only at N > 64)",
      "matches_oracle", &Call<Bug::kN1StepsOfFour>);
  add("transdata-fz3d-d-after-c1",
      "FRACTAL_Z_3D's row blocks run (c1, d, h, w): D placed after C1 (spec layouts.md §A.7: "
      "(d, c1, h, w))",
      "matches_oracle", &Call<Bug::kFz3dDAfterC1>);
  add("transdata-ndc1hwc0-d-c1-swapped",
      "NDC1HWC0 laid out as (N, C1, D, H, W, C0): D and C1 swapped (§A.6)", "matches_oracle",
      &Call<Bug::kNdc1hwc0DC1Swapped>);
  add("transdata-fzc04-channel-major",
      "FRACTAL_Z_C04 flattens f = (c·H + h)·W + w, each channel's plane in turn, for (h·W + "
      "w)·4 + c (§A.5)",
      "matches_oracle", &Call<Bug::kFzC04ChannelMajor>);
  add("transdata-fzc04-int8-c0-16",
      "FRACTAL_Z_C04 takes C0 16 for INT8/UINT8 (MindSpore's fixed cube, D7) for the dtype's 32",
      "matches_oracle", &Call<Bug::kFzC04Int8C0Is16>);
  add("transdata-fzc04-accepts-c-over-4",
      "FRACTAL_Z_C04 lets C > 4 through (TSU, MS; D8) where GE answers 145021 (§A.5)",
      "rejects_invalid", &Call<Bug::kFzC04AcceptsCOver4>);
  add("transdata-ndhwc-read-as-ncdhw",
      "an NDHWC tensor is read with NCDHW strides (its dims permuted, its data not)",
      "matches_oracle", &Call<Bug::kNdhwcReadAsNcdhw>);
  add("transdata-c04-takes-dtype-c0",
      "NC1HWC0_C04 is laid out with the dtype's C0 (16 for fp16) instead of 4 (spec layouts.md "
      "§A.2)",
      "matches_oracle", &Call<Bug::kC04TakesDtypeC0>);
}

}  // namespace npuconf
