#include "conformance/harness/layout_properties.h"

#include <algorithm>

#include "conformance/harness/call.h"
#include "conformance/harness/materialize.h"
#include "conformance/harness/suite.h"
#include "core/digest.h"
#include "core/status.h"

namespace npuconf {
namespace {

// The bytes a layout reads: an input tensor, or an in-place output's initial
// content. A reference: a real model shape's input is not copied.
const Bytes& InputOf(const Invocation& inv, const std::string& name) {
  static const Bytes kNone;
  if (const InputTensor* t = inv.Input(name)) return t->bytes;
  for (const auto& o : inv.outputs) {
    if (o.name == name) return o.initial;
  }
  return kNone;
}

const OutputSpec* SpecOf(const Invocation& inv, const std::string& name) {
  for (const auto& o : inv.outputs) {
    if (o.name == name) return &o;
  }
  return nullptr;
}

CompareMode ModeOf(const PropertyContext& ctx, const std::string& routine,
                   const std::string& output) {
  const Routine* r = ctx.suite.FindRoutine(routine);
  const TensorSpec* t = r ? r->spec->FindOutput(output) : nullptr;
  return t ? t->compare : CompareMode::Exact();
}

Verdict GuardFailure(const OutputResult& out, const std::string& context = "") {
  const verify::Mismatch m =
      verify::GuardMismatch(out.name, out.first_bad_offset, out.buffer->capacity_bytes());
  return Verdict::Fail(context + m.meaning,
                       {{"output", out.name}, {"first", {m.ToJson(DType::kUint8, "")}}});
}

// Calls the port on a layout case: a Fail when it did not answer, wrote
// outside its buffer, or did not succeed on a valid case.
std::optional<Verdict> CallLayout(const LayoutRoutine& layout, const PropertyContext& ctx,
                                  const Case& c, Called* k, LayoutInstance* l) {
  *l = layout.instance(c, ctx.profile);
  if (auto v = CallPort(ctx, c, k)) return v;
  const OutputResult* out = k->answer.Output(l->output);
  if (!out) return Verdict::Fail("the case has no output '" + l->output + "'");
  if (!out->guards_intact) return GuardFailure(*out);
  if (k->answer.status != layout.success) {
    return Verdict::Fail("status " + StatusText(layout.vendor, k->answer.status) +
                         " for a valid layout case" +
                         (k->answer.message.empty() ? "" : " (" + k->answer.message + ")"));
  }
  return std::nullopt;
}

std::optional<Verdict> CheckDims(const OutputResult& out, const LayoutInstance& l) {
  if (l.output_dims_open) return std::nullopt;
  if (out.rank == static_cast<int32_t>(l.output_dims.size()) && out.dims == l.output_dims)
    return std::nullopt;
  return Verdict::Fail("'" + out.name + "' dims " + ReportedDims(out) + ", expected " +
                       ToString(l.output_dims));
}

}  // namespace

Verdict CheckLayoutPadding(const LayoutRoutine& layout, const PropertyContext& ctx, const Case& c) {
  Called k;
  LayoutInstance l;
  if (auto v = CallLayout(layout, ctx, c, &k, &l)) return *v;
  const OutputResult& out = *k.answer.Output(l.output);
  const Bytes zeros(l.output_codec.Bytes(l.output_elems), 0);
  const auto comparison = verify::Compare({.output = l.output,
                                           .got = out.contents(),
                                           .want = zeros,
                                           .codec = l.output_codec,
                                           .count = l.output_elems,
                                           .map = l.output_map.get(),
                                           .only = verify::CompareRequest::Only::kPadding});
  if (comparison.ok()) return Verdict::Pass();
  return FailFrom(comparison, l.output_codec.dtype, l.output_map.get());
}

// Nothing outside the buffer, and nothing in the buffer past the layout's own
// bytes (an in-place routine's buffer is larger than the layout).
Verdict CheckLayoutCapacity(const LayoutRoutine& layout, const PropertyContext& ctx,
                            const Case& c) {
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  for (const OutputResult& out : k.answer.outputs) {
    if (!out.guards_intact) return GuardFailure(out);
  }
  // A call the routine rejects has no layout (its output must stay untouched:
  // the routine's rejects_invalid says so).
  if (k.answer.status != layout.success) return Verdict::Pass();
  const LayoutInstance l = layout.instance(c, ctx.profile);
  const OutputResult& out = *k.answer.Output(l.output);
  if (out.null) return Verdict::Pass();
  const uint64_t layout_bytes = l.output_codec.Bytes(l.output_elems);
  const Bytes before = SpecOf(k.inv, l.output)->Before();
  const auto after = out.contents();
  for (uint64_t b = layout_bytes; b < after.size(); ++b) {
    if (after[b] != before[b]) {
      return Verdict::Fail("byte " + std::to_string(b) + " of '" + l.output + "', past the " +
                           std::to_string(layout_bytes) + " bytes of the layout, was written (" +
                           verify::Hex(after[b], DType::kUint8) + ")");
    }
  }
  return Verdict::Pass();
}

// inverse(forward(x)) == x through the port alone: with random data this also
// shows a forward that maps two elements to one slot (the earlier one is lost).
Verdict CheckLayoutRoundTrip(const LayoutRoutine& layout, const PropertyContext& ctx,
                             const Case& c) {
  Called forward;
  LayoutInstance l;
  if (auto v = CallLayout(layout, ctx, c, &forward, &l)) return *v;
  const auto produced = forward.answer.Output(l.output)->contents();
  // x is compared at the end: a port that kept a pointer to it (an in-process
  // port gets large inputs in place) must not be able to change it meanwhile.
  const ChunkDigests x_digest = DigestChunks(InputOf(forward.inv, l.input));
  Case back = c;
  back.routine = layout.inverse;
  back.inputs = {{l.output, l.output_codec.dtype, l.output_dims,
                  Bytes(produced.begin(),
                        produced.begin() +
                            static_cast<std::ptrdiff_t>(l.output_codec.Bytes(l.output_elems)))}};
  Called backward;
  if (auto v = CallPort(ctx, back, &backward)) return *v;
  const OutputResult* restored = backward.answer.Output(l.input);
  if (!restored) return Verdict::Fail(layout.inverse + " has no output '" + l.input + "'");
  if (!restored->guards_intact) return GuardFailure(*restored, layout.inverse + ": ");
  if (backward.answer.status != layout.success) {
    return Verdict::Fail(layout.inverse + " status " +
                         StatusText(layout.vendor, backward.answer.status));
  }
  const Bytes& original = InputOf(forward.inv, l.input);
  if (auto at = FirstChangedChunk(x_digest, original)) {
    return Verdict::Fail(layout.inverse + " wrote to the input of the earlier " + layout.routine +
                         " call ('" + l.input + "', within bytes " + ChunkRangeText(x_digest, *at) +
                         ")");
  }
  const auto comparison =
      verify::Compare({.output = l.input,
                       .got = restored->contents(),
                       .want = original,
                       .codec = l.input_codec,
                       .count = l.input_elems,
                       .map = l.input_map.get(),
                       .only = layout.padding_unspecified ? verify::CompareRequest::Only::kData
                                                          : verify::CompareRequest::Only::kAll});
  // x once more, after the compare: a write racing it (a thread an in-process
  // port left running) must not make the two agree.
  if (comparison.ok() && !FirstChangedChunk(x_digest, original)) return Verdict::Pass();
  if (comparison.ok()) {
    return Verdict::Fail(layout.inverse + " or a thread of the port wrote to the input of the " +
                         "earlier " + layout.routine + " call ('" + l.input +
                         "') while it was compared");
  }
  return FailFrom(comparison, l.input_codec.dtype, l.input_map.get(),
                  layout.inverse + "(" + layout.routine + "(x)) differs from x: ");
}

Verdict FailFrom(const verify::Comparison& comparison, DType dtype, const verify::StorageMap* map,
                 const std::string& context) {
  const verify::Mismatch& first = comparison.first.front();
  const std::string logical_name = map ? map->logical_name() : "";
  nlohmann::json evidence = {{"output", first.output},
                             {"dtype", std::string(Name(dtype))},
                             {"logical_name", logical_name},
                             {"compared", comparison.compared},
                             {"mismatches", comparison.mismatches},
                             {"first", nlohmann::json::array()}};
  for (const auto& m : comparison.first) evidence["first"].push_back(m.ToJson(dtype, logical_name));
  if (!comparison.block_mismatches.empty()) {
    evidence["block_elements"] = map->block_elements();
    evidence["block_mismatches"] = comparison.block_mismatches;
    // Rows of blocks for the picture where the blocks are no rectangle.
    if (const auto rows = map->BlockRows(); !rows.empty() && rows.size() <= 100000) {
      nlohmann::json list = nlohmann::json::array();
      for (const auto& r : rows)
        list.push_back(
            {{"first", r.first}, {"count", r.count}, {"label", r.label}, {"boundary", r.boundary}});
      evidence["block_rows"] = list;
      evidence["block_row_axis"] = map->BlockRowAxes().first;
      evidence["block_col_axis"] = map->BlockRowAxes().second;
    }
  }
  if (!comparison.first_block.cells.empty())
    evidence["first_block"] = comparison.first_block.ToJson();
  return Verdict::Fail(context + first.Text(dtype, logical_name) + " (" +
                           std::to_string(comparison.mismatches) + " of " +
                           std::to_string(comparison.compared) + " elements differ)",
                       std::move(evidence));
}

Verdict CheckLayoutMatchesOracle(const LayoutRoutine& layout, const PropertyContext& ctx,
                                 const Case& c) {
  Called k;
  LayoutInstance l;
  if (auto v = CallLayout(layout, ctx, c, &k, &l)) return *v;
  const OutputResult& out = *k.answer.Output(l.output);
  if (auto v = CheckDims(out, l)) return *v;
  const CompareMode mode = ModeOf(ctx, layout.routine, l.output);
  const uint64_t want_bytes = l.output_codec.Bytes(l.output_elems);
  // Equal bytes pass an exact compare: only an answer that differs needs the
  // whole expected tensor (for the evidence's places).
  if (l.oracle_tile && mode == CompareMode::Exact() && !layout.padding_unspecified) {
    const TiledCompare tiled = CompareTiles(l, InputSpanOf(k.inv, l.input), out.contents());
    if (!tiled.suite_error.empty()) return Verdict::Fail(tiled.suite_error);
    if (tiled.equal) return Verdict::Pass();
    // The evidence below needs the whole expected tensor, weighed against the
    // case's budget; over it, the first differing byte is the evidence.
    try {
      ChargeCaseBytes(want_bytes);
    } catch (const CaseTooLarge&) {
      return Verdict::Fail(
          "'" + l.output + "' byte " + std::to_string(tiled.first_byte) + " holds " +
              verify::Hex(tiled.got, DType::kUint8) + ", the oracle's " +
              verify::Hex(tiled.want, DType::kUint8) +
              " (the first difference found; locating every one would need the whole "
              "expected tensor too, " +
              std::to_string(want_bytes) + " bytes, over --max-case-bytes " +
              std::to_string(MaxCaseBytes()) + ")",
          {{"output", l.output}, {"first_byte", tiled.first_byte}});
    }
  } else {
    ChargeCaseBytes(want_bytes);  // the expected tensor is part of the case's memory
  }
  const Bytes want = l.oracle(InputOf(k.inv, l.input));
  auto comparison =
      verify::Compare({.output = l.output,
                       .got = out.contents(),
                       .want = want,
                       .codec = l.output_codec,
                       .count = l.output_elems,
                       .mode = mode,
                       .map = l.output_map.get(),
                       .only = layout.padding_unspecified ? verify::CompareRequest::Only::kData
                                                          : verify::CompareRequest::Only::kAll});
  if (comparison.ok()) return Verdict::Pass();
  return FailFrom(comparison, l.output_codec.dtype, l.output_map.get());
}

void AddLayoutProperties(const LayoutRoutine& layout, std::vector<Property>* out) {
  const size_t first = out->size();
  auto edge = layout.edge_cases;
  auto with_real = [edge, real = layout.real_cases](const PropertyContext& ctx) {
    std::vector<Case> cases = edge ? edge(ctx) : std::vector<Case>{};
    if (real) {
      auto more = real(ctx);
      cases.insert(cases.end(), more.begin(), more.end());
    }
    return cases;
  };
  out->push_back({.name = layout.routine + ".matches_oracle",
                  .routine = layout.routine,
                  .description = layout.what + " equals the oracle's, element for element " +
                                 (layout.padding_unspecified
                                      ? "(logical elements: the padding's content is unspecified)"
                                      : "(padding included)") +
                                 " and with the reported dims",
                  .choices = layout.choices,
                  .not_applicable = layout.not_applicable,
                  .explicit_cases = with_real,
                  .generator = layout.generator,
                  .check = [layout](const PropertyContext& ctx, const Case& c) {
                    return CheckLayoutMatchesOracle(layout, ctx, c);
                  }});
  out->push_back(
      {.name = layout.routine + ".no_write_past_capacity",
       .routine = layout.routine,
       .description =
           "nothing is written outside the output (guard bytes), nor past the layout's own "
           "bytes inside it",
       .choices = layout.choices,
       .not_applicable = layout.not_applicable,
       .explicit_cases = edge,
       .generator = layout.capacity_generator ? layout.capacity_generator : layout.generator,
       .check = [layout](const PropertyContext& ctx, const Case& c) {
         return CheckLayoutCapacity(layout, ctx, c);
       }});
  if (layout.output_has_padding && !layout.padding_unspecified) {
    out->push_back({.name = layout.routine + ".padding_is_zero",
                    .routine = layout.routine,
                    .description = "every storage position outside the logical tensor holds 0",
                    .choices = layout.choices,
                    .not_applicable = layout.not_applicable,
                    .explicit_cases = edge,
                    .generator = layout.generator,
                    .check = [layout](const PropertyContext& ctx, const Case& c) {
                      return CheckLayoutPadding(layout, ctx, c);
                    }});
  }
  if (!layout.inverse.empty()) {
    out->push_back(
        {.name = layout.routine + ".round_trip",
         .routine = layout.routine,
         .also_needs = {layout.inverse},
         .description =
             layout.inverse + "(" + layout.routine +
             "(x)) == x through the port, guard bytes of both calls intact; no two elements "
             "share a storage slot",
         .choices = layout.choices,
         .not_applicable = layout.not_applicable,
         .explicit_cases = edge,
         .generator = layout.generator,
         .check = [layout](const PropertyContext& ctx, const Case& c) {
           return CheckLayoutRoundTrip(layout, ctx, c);
         }});
  }
  for (size_t i = first; i < out->size(); ++i) (*out)[i].not_covered = layout.not_covered;
}

}  // namespace npuconf
