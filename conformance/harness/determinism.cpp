#include "conformance/harness/determinism.h"

#include <algorithm>
#include <cstdio>

namespace npuconf {
namespace {

std::string Hex(uint8_t byte) {
  char text[8];
  std::snprintf(text, sizeof(text), "0x%02x", byte);
  return text;
}

}  // namespace

Verdict ConfirmFailure(const std::function<Verdict()>& check, Verdict first,
                       bool* non_deterministic) {
  const Verdict second = check();
  *non_deterministic = false;
  if (second.failed() && second.message == first.message) return first;
  *non_deterministic = true;
  if (second.failed()) {
    first.message =
        "non-deterministic: the same case gave two different failures; first: " + first.message +
        "; then: " + second.message;
  } else {
    first.message = "non-deterministic: the same case failed once and passed once; the failure: " +
                    first.message;
  }
  return first;
}

std::string CompareAnswers(const Answer& first, const Answer& second) {
  if (first.fault != second.fault) {
    return "fault '" + first.fault + "', then '" + second.fault + "'";
  }
  if (first.call_result != second.call_result) {
    return "call result " + std::to_string(first.call_result) + ", then " +
           std::to_string(second.call_result);
  }
  if (first.status != second.status) {
    return "vendor status " + std::to_string(first.status) + ", then " +
           std::to_string(second.status);
  }
  for (size_t i = 0; i < first.outputs.size() && i < second.outputs.size(); ++i) {
    const OutputResult& a = first.outputs[i];
    const OutputResult& b = second.outputs[i];
    if (a.rank != b.rank || a.dims != b.dims) {
      return "output '" + a.name + "' reported dims " + ReportedDims(a) + ", then " +
             ReportedDims(b);
    }
    if (a.guards_intact != b.guards_intact) {
      return "output '" + a.name + "' guard bytes " + (a.guards_intact ? "intact" : "changed") +
             ", then " + (b.guards_intact ? "intact" : "changed");
    }
    if (!a.buffer || !b.buffer) continue;
    const auto x = a.contents();
    const auto y = b.contents();
    const auto [px, py] = std::mismatch(x.begin(), x.end(), y.begin(), y.end());
    if (px != x.end() || py != y.end()) {
      if (px == x.end() || py == y.end()) return "output '" + a.name + "' sizes differ";
      return "output '" + a.name + "' byte " + std::to_string(px - x.begin()) + ": " + Hex(*px) +
             ", then " + Hex(*py);
    }
  }
  return {};
}

std::string CompareOutputDigests(const std::vector<ChunkDigests>& first, const Answer& second) {
  for (size_t i = 0; i < first.size() && i < second.outputs.size(); ++i) {
    const OutputResult& out = second.outputs[i];
    if (!out.buffer) continue;
    if (auto at = FirstChangedChunk(first[i], out.contents())) {
      if (first[i].size_bytes != out.contents().size())
        return "output '" + out.name + "' sizes differ";
      return "output '" + out.name + "' bytes " + ChunkRangeText(first[i], *at) + " differ";
    }
  }
  return {};
}

AskTwicePort::AskTwicePort(const Port& inner, uint64_t every)
    : Port(inner.name(), inner.version(), inner.claims()), inner_(inner), every_(every) {}

bool AskTwicePort::Sampled(const Case& c, uint64_t every) {
  if (every == 0) return false;
  uint64_t hash = 1469598103934665603ull;
  for (unsigned char ch : c.ToText()) {
    hash ^= ch;
    hash *= 1099511628211ull;
  }
  return hash % every == 0;
}

Answer AskTwicePort::Call(const Invocation& invocation) const {
  Answer first = inner_.Call(invocation);
  if (!first.fault.empty() || !Sampled(invocation.c, every_)) return first;
  const std::string kDiffers =
      "non-deterministic: the same case answered twice gave different answers (";
  uint64_t output_bytes = 0;
  for (const OutputResult& out : first.outputs) {
    if (out.buffer) output_bytes += out.buffer->capacity_bytes();
  }
  if (output_bytes <= kCompareWholeBytes) {
    const Answer second = inner_.Call(invocation);
    if (std::string differs = CompareAnswers(first, second); !differs.empty())
      first.fault = kDiffers + differs + ")";
    return first;
  }
  // Two answers of a real model shape at once would double the case's memory:
  // the first one's outputs leave only their digests, and the second is returned.
  std::vector<ChunkDigests> digests;
  for (OutputResult& out : first.outputs) {
    digests.push_back(out.buffer ? DigestChunks(out.contents()) : ChunkDigests{});
    out.buffer.reset();
  }
  Answer second = inner_.Call(invocation);
  std::string differs = CompareAnswers(first, second);
  if (differs.empty()) differs = CompareOutputDigests(digests, second);
  if (!differs.empty()) second.fault = kDiffers + differs + ")";
  return second;
}

}  // namespace npuconf
