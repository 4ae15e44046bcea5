// Every reading a port may claim is applied (issue 15 item 0): for each choice
// of each profile and each reading other than the profile's default that a port
// can claim, a witness shows that claiming it changes a verdict. Mostly the
// witness is the reference (which implements the defaults) failing once it
// claims the other reading; a reading that leaves a region undefined (overflow
// unspecified, say) is witnessed by a port wrong only in that region, which
// passes under the reading and fails under the default. A reading with no
// witness here is either not applied or untested: both are defects.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <map>
#include <set>

#include "cli/families.h"
#include "conformance/harness/runner.h"
#include "conformance/ports/claims.h"

namespace npuconf {
namespace {

// The reference, with `change` applied to its answers.
class WrappingPort : public Port {
 public:
  using Change = std::function<Answer(const Port& reference, const Invocation& inv)>;
  WrappingPort(std::vector<std::string> claims, Change change)
      : Port("wrapping", "1", std::move(claims)),
        reference_(MakeReferencePort()),
        change_(std::move(change)) {}
  Answer Call(const Invocation& inv) const override { return change_(*reference_, inv); }

 private:
  std::unique_ptr<Port> reference_;
  Change change_;
};

// The reference's claims with `choice` claimed as `reading` instead.
std::vector<std::string> ClaimsWith(const std::string& choice, const std::string& reading) {
  std::vector<std::string> out;
  for (const std::string& claim : ReferenceClaims()) {
    if (claim.rfind("choice:" + choice + "=", 0) != 0) out.push_back(claim);
  }
  out.push_back("choice:" + choice + "=" + reading);
  return out;
}

// The properties whose verdicts depend on `choice`, as one glob.
std::string PropertiesOf(const std::string& choice) {
  std::string glob;
  for (const Property& p : BuiltinSuite().properties()) {
    for (const auto& c : p.choices) {
      if (c == choice) glob += (glob.empty() ? "" : ",") + p.name;
    }
  }
  return glob;
}

// Failing results of `port` on the properties of `choice` (or `properties`).
std::vector<std::string> Failures(const Port& port, const std::string& profile,
                                  const std::string& properties) {
  RunOptions options;
  options.profiles = {profile};
  options.property_glob = properties;
  options.real_shapes = false;
  options.cases = 40;
  std::vector<std::string> out;
  for (const auto& r : RunSuite(BuiltinSuite(), port, options).results) {
    if (report::IsFailure(r.outcome)) out.push_back(r.property + ": " + r.message);
  }
  return out;
}

bool AnyDimAtLeast(const Invocation& inv, int64_t limit) {
  const auto shape = inv.c.IntList("shape");
  if (!shape) return false;
  for (int64_t d : *shape) {
    if (d >= limit) return true;
  }
  return false;
}

// The reference's answer with its status replaced (outputs as it left them).
Answer WithStatus(const Port& reference, const Invocation& inv, int64_t status) {
  Answer a = reference.Call(inv);
  a.status = status;
  return a;
}

// A port wrong only where a reading leaves the answer open: it passes when
// the port claims that reading and fails under the profile's default.
struct OpenRegion {
  std::string profile, properties;
  WrappingPort::Change change;
};

std::map<std::pair<std::string, std::string>, OpenRegion> OpenRegions() {
  return {
      {{"cann.size.overflow", "unspecified"},
       {"ascend910b", "cann.calculate_matmul_weight_size_v2.*",
        // SUCCESS (size untouched) where only the overflow rule rejects: a rank
        // in [2, 6], every dim positive, one past 2^39 (the suite draws 2^40 x 2^40).
        [](const Port& ref, const Invocation& inv) {
          Answer a = ref.Call(inv);
          const auto shape = inv.c.IntList("shape");
          const ParamValue* out = inv.c.Find("weight_tensor_size");
          if (!shape || (out && out->kind == ParamValue::Kind::kNull) || shape->size() < 2 ||
              shape->size() > 6 || !AnyDimAtLeast(inv, int64_t{1} << 39))
            return a;
          for (int64_t d : *shape) {
            if (d <= 0) return a;
          }
          a.status = 0;
          return a;
        }}},
      {{"cann.gather_dequant.validation", "undefined"},
       {"ascend910b", "cann.gather_dequant_int8.*",
        // SUCCESS for an index outside the table, as upstream leaves it (§3.4).
        [](const Port& ref, const Invocation& inv) {
          const InputTensor* idx = inv.Input("indices");
          const int64_t vocab = inv.c.Int("vocab").value_or(0);
          for (size_t i = 0; idx && i + 4 <= idx->bytes.size(); i += 4) {
            int32_t v;
            std::memcpy(&v, idx->bytes.data() + i, 4);
            if (v < 0 || v >= vocab) return WithStatus(ref, inv, 0);
          }
          return ref.Call(inv);
        }}},
      {{"cann.gather_dequant.embed_dim", "multiple_of_32"},
       {"ascend910b", "cann.gather_dequant_int8.*",
        // Rejects an embedding dim that is not a multiple of 32.
        [](const Port& ref, const Invocation& inv) {
          if (inv.c.routine == "cann.gather_dequant_int8" && inv.c.Int("embed").value_or(0) % 32)
            return WithStatus(ref, inv, 161002);
          return ref.Call(inv);
        }}},
      {{"rknn.native_io.nhwc_input_batch", "first_batch"},
       {"rk3588", "rknn.nhwc_zero_copy_pack.*",
        // Packs batch 0 only, as the RV1106 mobilenet demo does (spec layouts.md
        // §B.4): the first pixel of batch 1 is left as the buffer was.
        [](const Port& ref, const Invocation& inv) {
          Answer a = ref.Call(inv);
          const Shape shape = inv.c.IntList("shape").value_or(Shape{});
          if (inv.c.routine != "rknn.nhwc_zero_copy_pack" || a.status != 0 || shape.size() != 4 ||
              shape[0] < 2)
            return a;
          const int64_t w_stride = inv.c.Int("w_stride").value_or(0);
          const int64_t batch_bytes = shape[1] * (w_stride > 0 ? w_stride : shape[2]) * shape[3];
          for (auto& out : a.outputs) {
            if (out.name != "dst" || !out.buffer ||
                out.buffer->capacity_bytes() <= static_cast<uint64_t>(batch_bytes))
              continue;
            auto changed = std::make_shared<GuardedBuffer>(*out.buffer);
            changed->data()[batch_bytes] ^= 0x5a;
            out.buffer = changed;
          }
          return a;
        }}},
      {{"rknn.segment.b_dims", "unknown"},
       {"rk3588", "rknn.b_norm_to_native.*",
        // Reports a segmented NATIVE B as [T, N1, K1_per_segment...]: here, rank 1.
        [](const Port& ref, const Invocation& inv) {
          Answer a = ref.Call(inv);
          if (inv.c.routine == "rknn.b_norm_to_native" && inv.c.Int("K").value_or(0) > 8192) {
            for (auto& out : a.outputs) {
              out.rank = 1;
              out.dims = {1};
            }
          }
          return a;
        }}},
  };
}

TEST(Readings, EveryClaimableReadingChangesAVerdict) {
  const auto open = OpenRegions();
  // (choice, reading) → the profiles listing it as claimable; some readings
  // show only on some profiles (the legacy rank rule off 910B, RK3576's mixed B).
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> where;
  for (const Profile& profile : BuiltinProfiles()) {
    if (!profile.verified) continue;
    for (const Choice& choice : profile.choices) {
      for (const std::string& reading : choice.readings) {
        if (reading != choice.value && !choice.cannot_check.count(reading))
          where[{choice.name, reading}].push_back(profile.name);
      }
    }
  }
  for (const auto& [key, profiles] : where) {
    const auto& [choice, reading] = key;
    const std::string what = choice + "=" + reading;
    if (const auto it = open.find(key); it != open.end()) {
      const OpenRegion& region = it->second;
      const WrappingPort claimed(ClaimsWith(choice, reading), region.change);
      const WrappingPort unclaimed(ReferenceClaims(), region.change);
      const auto fails = Failures(claimed, region.profile, region.properties);
      EXPECT_TRUE(fails.empty()) << what << ": a port wrong only where the reading leaves the "
                                 << "answer open fails: " << fails.front();
      EXPECT_FALSE(Failures(unclaimed, region.profile, region.properties).empty())
          << what << ": the same port passes under the default reading";
      continue;
    }
    const auto reference = MakeReferencePort(ClaimsWith(choice, reading));
    bool shown = false;
    for (const std::string& profile : profiles) {
      if (!Failures(*reference, profile, PropertiesOf(choice)).empty()) {
        shown = true;
        break;
      }
    }
    EXPECT_TRUE(shown) << what << ": the reference (which implements the defaults) passes on "
                       << "every profile listing it when it claims this reading, so the "
                       << "reading is not applied (or no case tells the two apart)";
  }
  EXPECT_GE(where.size(), 20u);
}

TEST(Readings, AReadingNpuconfCannotCheckIsRefused) {
  const std::string error =
      ValidateClaims({"rknn.matmul_create:*", "choice:rknn.quant.type_encoding=header_comment"},
                     BuiltinSuite().specs(), BuiltinProfiles());
  EXPECT_NE(error.find("cannot check it"), std::string::npos) << error;
  EXPECT_NE(error.find("header_comment"), std::string::npos) << error;
}

}  // namespace
}  // namespace npuconf
