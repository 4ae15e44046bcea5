#include "conformance/harness/call.h"

#include <algorithm>

#include "conformance/harness/suite.h"

namespace npuconf {

bool Called::Written(const std::string& name) const {
  for (size_t i = 0; i < inv.outputs.size() && i < answer.outputs.size(); ++i) {
    if (inv.outputs[i].name != name) continue;
    return !Untouched(inv.outputs[i], answer.outputs[i].contents());
  }
  return false;
}

std::optional<Verdict> CallPort(const PropertyContext& ctx, Invocation inv, Called* out) {
  out->inv = std::move(inv);
  out->answer = ctx.port.Call(out->inv);
  if (out->answer.timed_out && ctx.cost) ++ctx.cost->timeouts;
  if (!out->answer.fault.empty() && ctx.cost) ++ctx.cost->faults;
  if (ctx.cost && out->answer.fault.empty() && out->answer.call_result == NPUCONF_CALL_ANSWERED &&
      out->answer.status == 0)
    ++ctx.cost->successes;
  if (!out->answer.fault.empty()) {
    return Verdict::Fail("port " + ctx.port.name() + " failed inside call: " + out->answer.fault);
  }
  // The port's message, if it wrote one, after the verdict.
  const std::string said = out->answer.message.empty() ? "" : ": " + out->answer.message;
  if (out->answer.call_result == NPUCONF_CALL_UNCLAIMED) {
    return Verdict::Fail("port claims " + out->inv.c.routine + " on " + ctx.profile.name +
                         " but answered 'unclaimed'" + said);
  }
  if (out->answer.call_result == NPUCONF_CALL_BAD_CASE) {
    return Verdict::Fail("port refused the case as malformed (NPUCONF_CALL_BAD_CASE)" + said);
  }
  if (out->answer.call_result != NPUCONF_CALL_ANSWERED) {
    return Verdict::Fail("port's call returned " + std::to_string(out->answer.call_result) +
                         ", none of NPUCONF_CALL_ANSWERED (0), _UNCLAIMED (1), _BAD_CASE (2)" +
                         said);
  }
  // Every check reads the outputs it handed over: a Port that drops one (a
  // C++ Port implementation, not the C ABI, which always returns them) fails
  // here instead of crashing the check.
  for (const OutputSpec& spec : out->inv.outputs) {
    const OutputResult* got = out->answer.Output(spec.name);
    if (!got || !got->buffer) {
      return Verdict::Fail("port " + ctx.port.name() + " answered without output '" + spec.name +
                           "'");
    }
  }
  return std::nullopt;
}

std::optional<Verdict> CallPort(const PropertyContext& ctx, const Case& c, Called* out) {
  return CallPort(ctx, ctx.suite.Materialize(c, ctx.profile), out);
}

bool Untouched(const OutputSpec& spec, std::span<const uint8_t> after) {
  if (after.size() != spec.capacity_bytes) return false;
  const size_t head = std::min<size_t>(spec.initial.size(), after.size());
  if (!std::equal(spec.initial.begin(), spec.initial.begin() + static_cast<std::ptrdiff_t>(head),
                  after.begin())) {
    return false;
  }
  return std::all_of(after.begin() + static_cast<std::ptrdiff_t>(head), after.end(),
                     [](uint8_t b) { return b == kSentinelByte; });
}

std::optional<Verdict> CheckGuards(const OutputResult& out) {
  if (out.guards_intact) return std::nullopt;
  return Verdict::Fail("wrote outside output '" + out.name + "' (capacity " +
                       std::to_string(out.buffer->capacity_bytes()) +
                       " bytes): guard byte at offset " + std::to_string(out.first_bad_offset) +
                       " changed");
}

}  // namespace npuconf
