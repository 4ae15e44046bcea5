// Properties of aclnnCalculateMatmulWeightSize and ...V2 (spec cann.md §1).
#include <cstring>

#include "conformance/cann/cases.h"
#include "conformance/cann/support.h"
#include "conformance/harness/materialize.h"
#include "core/status.h"
#include "generators/cann.h"
#include "oracles/cann/fractal_nz_oracle.h"

namespace npuconf {
namespace {

using namespace cann_props;

uint64_t ReadSize(const OutputResult& out) {
  uint64_t size = 0;
  std::memcpy(&size, out.contents().data(), sizeof(size));
  return size;
}

// SUCCESS must come with a written size: a port that only returns 0 would
// otherwise pass the relational properties on the untouched sentinel bytes.
std::optional<Verdict> RequireWritten(const Called& k) {
  if (!k.Written("weight_tensor_size")) {
    return Verdict::Fail("status SUCCESS but weightTensorSize was not written (" +
                         ToString(*k.inv.c.IntList("shape")) + ")");
  }
  return std::nullopt;
}

int64_t KAlign(const Case& c) {
  if (c.routine == kLegacy) return 16;
  const DType dtype = c.DTypeParam("dtype").value_or(DType::kFloat16);
  return dtype == DType::kFloat16 || dtype == DType::kBf16 ? 16 : 32;
}

// Status, size and untouched output against the oracle's expectation.
Verdict CheckAgainstOracle(const PropertyContext& ctx, const Case& c) {
  const auto expected = ExpectSize(ctx, c);
  if (expected.undefined) return Verdict::Skip(expected.rule);
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  if (k.answer.status != expected.status) {
    return Verdict::Fail("status " + StatusText(k.answer.status) + ", expected " +
                         StatusText(expected.status) + ": " + expected.rule);
  }
  const OutputResult& out = *k.answer.Output("weight_tensor_size");
  if (!out.guards_intact) {
    return Verdict::Fail("wrote past the 8-byte weightTensorSize (offset " +
                         std::to_string(out.first_bad_offset) + ")");
  }
  if (expected.status == cann::kAclnnSuccess) {
    const uint64_t got = ReadSize(out);
    const uint64_t want = static_cast<uint64_t>(*expected.size);
    if (got != want) {
      return Verdict::Fail("weightTensorSize " + std::to_string(got) + " elements, expected " +
                           std::to_string(want) + ": " + expected.rule);
    }
  } else if (!out.null) {
    const Bytes before = k.inv.outputs[0].Before();
    if (!std::equal(before.begin(), before.end(), out.contents().begin())) {
      return Verdict::Fail("weightTensorSize written although the status is " +
                           StatusText(k.answer.status));
    }
  }
  return Verdict::Pass();
}

// The answer the spec table gives for a documented row.
Verdict CheckDocumented(const PropertyContext& ctx, const Case& c) {
  const DocumentedCase* row = FindDocumented(c, ctx.profile);
  if (!row) return Verdict::Fail("not a documented case of spec cann.md §1.7/§2.4: " + c.ToText());
  if (!row->reading.empty() && Reading(ctx, row->choice) != row->reading) {
    return Verdict::Skip(row->source + " holds under " + row->choice + "=" + row->reading);
  }
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  if (k.answer.status != row->status) {
    return Verdict::Fail("status " + StatusText(k.answer.status) + ", " + row->source + " gives " +
                         StatusText(row->status));
  }
  if (row->size_elems) {
    const uint64_t got = ReadSize(*k.answer.Output("weight_tensor_size"));
    if (got != *row->size_elems) {
      return Verdict::Fail("weightTensorSize " + std::to_string(got) + ", " + row->source +
                           " gives " + std::to_string(*row->size_elems));
    }
  }
  return Verdict::Pass();
}

// A valid call must succeed and then the size covers every logical element and
// is a whole number of 16 × k_align blocks.
Verdict CheckCapacity(const PropertyContext& ctx, const Case& c) {
  const auto expected = ExpectSize(ctx, c);
  if (expected.undefined || expected.status != cann::kAclnnSuccess) {
    return Verdict::Skip("not a valid call on this profile");
  }
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  if (k.answer.status != cann::kAclnnSuccess) {
    return Verdict::Fail("valid call answered " + StatusText(k.answer.status));
  }
  if (auto v = RequireWritten(k)) return *v;
  const uint64_t size = ReadSize(*k.answer.Output("weight_tensor_size"));
  const Shape shape = *c.IntList("shape");
  const auto logical = NumElements(shape);
  if (logical && size < static_cast<uint64_t>(*logical)) {
    return Verdict::Fail("size " + std::to_string(size) + " elements < logical " +
                         std::to_string(*logical) + " elements of " + ToString(shape));
  }
  const uint64_t block = 16 * static_cast<uint64_t>(KAlign(c));
  if (size % block != 0) {
    return Verdict::Fail("size " + std::to_string(size) + " is not a multiple of the 16x" +
                         std::to_string(KAlign(c)) + " block");
  }
  return Verdict::Pass();
}

// Growing any one dim never shrinks the size.
Verdict CheckMonotone(const PropertyContext& ctx, const Case& c) {
  const auto expected = ExpectSize(ctx, c);
  if (expected.undefined || expected.status != cann::kAclnnSuccess) {
    return Verdict::Skip("not a valid call on this profile");
  }
  Called base;
  if (auto v = CallPort(ctx, c, &base)) return *v;
  if (base.answer.status != cann::kAclnnSuccess) {
    return Verdict::Fail("valid call answered " + StatusText(base.answer.status));
  }
  if (auto v = RequireWritten(base)) return *v;
  const uint64_t size = ReadSize(*base.answer.Output("weight_tensor_size"));
  const Shape shape = *c.IntList("shape");
  for (size_t axis = 0; axis < shape.size(); ++axis) {
    for (int64_t grow : {1, 16}) {
      Case bigger = c;
      Shape grown = shape;
      grown[axis] += grow;
      bigger.Set("shape", grown);
      const auto bigger_expected = ExpectSize(ctx, bigger);
      if (bigger_expected.undefined || bigger_expected.status != cann::kAclnnSuccess) continue;
      Called k;
      if (auto v = CallPort(ctx, bigger, &k)) return *v;
      if (k.answer.status != cann::kAclnnSuccess) {
        return Verdict::Fail("valid call " + ToString(grown) + " answered " +
                             StatusText(k.answer.status));
      }
      if (auto v = RequireWritten(k)) return *v;
      const uint64_t grown_size = ReadSize(*k.answer.Output("weight_tensor_size"));
      if (grown_size < size) {
        return Verdict::Fail("size(" + ToString(grown) + ") = " + std::to_string(grown_size) +
                             " < size(" + ToString(shape) + ") = " + std::to_string(size));
      }
    }
  }
  return Verdict::Pass();
}

// V2 size == element count of the FRACTAL_NZ storage, for the dtypes whose C0
// is what V2 aligns k to (spec cann.md §1.2 [derived]): the oracle's storage
// shape, and the storage shape the port's own nd_to_nz reports.
Verdict CheckSizeMatchesLayout(const PropertyContext& ctx, const Case& c) {
  const auto expected = ExpectSize(ctx, c);
  const DType dtype = c.DTypeParam("dtype").value_or(DType::kFloat16);
  const auto c0_it = ctx.profile.cann->nz_c0.find(dtype);
  if (expected.undefined || expected.status != cann::kAclnnSuccess ||
      c0_it == ctx.profile.cann->nz_c0.end() || c0_it->second != KAlign(c)) {
    return Verdict::Skip("not a valid V2 call for a dtype whose C0 equals V2's k alignment");
  }
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  if (k.answer.status != cann::kAclnnSuccess) {
    return Verdict::Fail("valid call answered " + StatusText(k.answer.status));
  }
  const uint64_t size = ReadSize(*k.answer.Output("weight_tensor_size"));
  const Shape shape = *c.IntList("shape");
  const auto storage = oracle::cann::NzStorageShape(shape, c0_it->second);
  const auto storage_elems = NumElements(*storage);
  if (!storage_elems || size != static_cast<uint64_t>(*storage_elems)) {
    return Verdict::Fail("V2 size " + std::to_string(size) + " != FRACTAL_NZ storage " +
                         ToString(*storage) + " of " + ToString(shape));
  }
  const auto nd_elems = NumElements(shape);
  if (ctx.port.Claims(kPack, ctx.profile.name) && nd_elems && *nd_elems <= (1 << 20)) {
    Case pack(kPack, ctx.profile.name);
    pack.Set("shape", shape).Set("dtype", dtype).Set("seed", int64_t{0});
    Called p;
    if (auto v = CallPort(ctx, pack, &p)) return *v;
    const OutputResult& nz = *p.answer.Output("nz");
    const auto port_elems = NumElements(nz.dims);
    if (p.answer.status != cann::kAclnnSuccess || nz.rank < 0 || !port_elems ||
        static_cast<uint64_t>(*port_elems) != size) {
      return Verdict::Fail("V2 size " + std::to_string(size) +
                           " != the port's own nd_to_nz storage " + ReportedDims(nz));
    }
  }
  return Verdict::Pass();
}

// ---- generators (generators/cann.h) with the port's claimed readings ----------------

bool ClaimsOverflow(const PropertyContext& ctx) {
  return !Reading(ctx, "cann.size.overflow").empty();
}
bool ClaimsNegative(const PropertyContext& ctx) {
  return !Reading(ctx, "cann.size.negative_dims").empty();
}

rc::Gen<Case> ValidSizeCase(const PropertyContext& ctx, const std::string& routine) {
  return gen::cann::ValidSizeCase(ctx.profile, routine, ClaimsOverflow(ctx), ctx.Domain());
}

rc::Gen<Case> InvalidSizeCase(const PropertyContext& ctx, const std::string& routine) {
  return gen::cann::InvalidSizeCase(ctx.profile, routine, ClaimsNegative(ctx), ClaimsOverflow(ctx),
                                    ctx.Domain());
}

// The documented rows whose answer is a rejection (rejects_invalid), or SUCCESS.
std::vector<Case> DocumentedRows(const PropertyContext& ctx, const std::string& routine,
                                 bool rejected) {
  std::vector<Case> out;
  for (const auto& row : DocumentedCases(routine, ctx.profile)) {
    if ((row.status != cann::kAclnnSuccess) == rejected) out.push_back(row.c);
  }
  return out;
}

std::function<std::string(const Profile&)> NoValidCall(const std::string& routine) {
  if (routine != kV2) return nullptr;
  return [](const Profile& profile) -> std::string {
    if (profile.cann->v2_size_supported) return "";
    return "aclnnCalculateMatmulWeightSizeV2 returns 361001 for every call on " +
           profile.cann->soc_version + " (spec cann.md §1.4 step 1): no valid call exists";
  };
}

void AddFor(const std::string& routine, std::vector<Property>* out) {
  const std::vector<std::string> choices = {"cann.size.negative_dims", "cann.size.overflow",
                                            "cann.v2.dtype_validation", "cann.legacy_size.rank"};
  auto valid = [routine](const PropertyContext& ctx) { return ValidSizeCase(ctx, routine); };
  auto real = [routine](const PropertyContext& ctx) {
    return ctx.real_shapes ? RealSizeCases(routine, ctx.profile) : std::vector<Case>{};
  };
  out->push_back(
      {.name = routine + ".documented_cases",
       .routine = routine,
       .description =
           "every documented and unit-test case of spec cann.md §1.7 answers as the spec says",
       .choices = choices,
       .explicit_cases =
           [routine](const PropertyContext& ctx) {
             return DocumentedAsCases(routine, ctx.profile);
           },
       .check = CheckDocumented});
  out->push_back(
      {.name = routine + ".matches_oracle",
       .routine = routine,
       .description =
           "status and size of valid calls equal the oracle's (padded shape product, §1.2)",
       .choices = choices,
       .not_applicable = NoValidCall(routine),
       .explicit_cases =
           [routine, real](const PropertyContext& ctx) {
             auto cases = DocumentedRows(ctx, routine, false);
             // A dim past 2^16 and a size past 2^31 elements (coverage classes
             // dim.past_2_16, size.past_2_31_elements), without real shapes too.
             cases.push_back(Case(routine, ctx.profile.name)
                                 .Set("shape", Shape{65537, 40000})
                                 .Set("dtype", DType::kFloat16));
             if (routine == kLegacy) cases.back().params.erase("dtype");
             auto more = real(ctx);
             cases.insert(cases.end(), more.begin(), more.end());
             return cases;
           },
       .generator = valid,
       .check = CheckAgainstOracle});
  out->push_back(
      {.name = routine + ".rejects_invalid",
       .routine = routine,
       .description =
           "every documented bad input gets the documented status in the documented check "
           "order; the output is untouched",
       .choices = choices,
       .explicit_cases =
           [routine](const PropertyContext& ctx) { return DocumentedRows(ctx, routine, true); },
       .generator = [routine](const PropertyContext& ctx) { return InvalidSizeCase(ctx, routine); },
       .check = CheckAgainstOracle});
  out->push_back(
      {.name = routine + ".capacity_ge_logical",
       .routine = routine,
       .description =
           "the size covers every logical element and is a whole number of 16 x C0 blocks",
       .choices = choices,
       .not_applicable = NoValidCall(routine),
       .explicit_cases = real,
       .generator = valid,
       .check = CheckCapacity});
  out->push_back({.name = routine + ".monotone",
                  .routine = routine,
                  .description = "growing any one dim (by 1 or 16) never shrinks the size",
                  .choices = choices,
                  .not_applicable = NoValidCall(routine),
                  .generator = valid,
                  .check = CheckMonotone});
  if (routine == kV2) {
    out->push_back(
        {.name = routine + ".size_matches_layout",
         .routine = routine,
         .description =
             "V2 size == FRACTAL_NZ storage elements for FLOAT16/BF16/INT8/UINT8/FP8/HIF8 "
             "(oracle layout and the port's own nd_to_nz)",
         .choices = choices,
         .not_applicable = NoValidCall(routine),
         .explicit_cases = real,
         .generator = valid,
         .check = CheckSizeMatchesLayout});
  }
}

}  // namespace

void cann_props::AddSizeProperties(std::vector<Property>* out) {
  AddFor(cann_props::kLegacy, out);
  AddFor(cann_props::kV2, out);
}

}  // namespace npuconf
