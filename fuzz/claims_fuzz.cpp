// A port's claims (its handshake's "claims", a library's claim table, a
// report's port.claims): one claim a line, parsed, validated against the
// routine table and the profiles as `npuconf run` does, then turned into the
// domains the generators draw inside. Every value a domain's Fit gives lies in
// the domain.
#include <climits>

#include "cli/families.h"
#include "conformance/ports/claims.h"
#include "core/domain.h"
#include "fuzz/fuzz_util.h"

namespace npuconf::fuzz {
namespace {

void CheckFit(const ParamBounds& bounds) {
  static const int64_t kProbes[] = {INT64_MIN, INT64_MIN + 1, -7,       0, 1,
                                    48,        INT64_MAX - 1, INT64_MAX};
  static const std::pair<int64_t, int64_t> kRanges[] = {
      {INT64_MIN, INT64_MAX}, {1, 8192}, {0, 0}, {INT64_MIN, INT64_MIN}, {INT64_MAX, INT64_MAX}};
  for (const int64_t v : kProbes) {
    for (const auto& [lo, hi] : kRanges) {
      const auto fit = bounds.Fit(v, lo, hi);
      if (!fit) continue;
      Require(*fit >= lo && *fit <= hi && bounds.AdmitsNumber(*fit),
              "ParamBounds::Fit gives an admitted value in [lo, hi]",
              std::to_string(*fit) + " for " + std::to_string(v) + " in [" + std::to_string(lo) +
                  ", " + std::to_string(hi) + "]");
    }
  }
}

}  // namespace
}  // namespace npuconf::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace npuconf;
  const std::vector<std::string> texts = fuzz::Lines(fuzz::Text(data, size));
  std::string error;
  const PortClaims claims = PortClaims::Parse(texts, &error);
  const Suite& suite = BuiltinSuite();
  if (!ValidateClaims(texts, suite.specs(), BuiltinProfiles()).empty()) return 0;
  for (const Profile& profile : BuiltinProfiles()) {
    (void)ProfileAsClaimed(profile, claims);
    for (const RoutineSpec* spec : suite.specs()) {
      if (!claims.Claims(spec->id, profile.name)) continue;
      (void)claims.Covers(Case(spec->id, profile.name), profile.name, *spec);
      for (const CaseDomain& domain : claims.Domains(*spec, profile.name)) {
        for (const auto& [key, bounds] : domain.params) fuzz::CheckFit(bounds);
      }
    }
  }
  return 0;
}
