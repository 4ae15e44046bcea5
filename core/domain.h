// The cases one claim of a port admits, as bounds on each param: what a
// generator must draw inside (DESIGN.md "Claims shape the run, never weaken
// it"). conformance/ports/claims.h builds a CaseDomain from a claim's
// conditions; generators/ reads it at every draw, so a narrowed port gets its
// random cases inside its claims by dependent generation, not by discarding.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/case.h"

namespace npuconf {

// What one param may be. An int param, or every element of an int-list param
// (a shape), must satisfy `texts`, `multiple`, `min` and `max`; an int list's
// length must satisfy the rank bounds.
struct ParamBounds {
  // KEY=V1|V2: the value's text (as `npuconf case` writes it) is listed;
  // several such conditions intersect.
  std::optional<std::vector<std::string>> texts;
  int64_t multiple = 1;                      // KEY%M==0 (several: their lcm)
  int64_t min = INT64_MIN, max = INT64_MAX;  // KEY>=V, KEY<=V
  // rank(KEY)=R1|R2, rank(KEY)<=R, rank(KEY)>=R: the length of an int list.
  std::optional<std::vector<int64_t>> ranks;
  int64_t rank_min = 0, rank_max = INT64_MAX;
  // Whether a case that leaves the param out (it then takes its literal
  // default) is admitted.
  bool admits_absent = false;

  bool AdmitsInt(int64_t v) const;
  bool AdmitsNumber(int64_t v) const;  // multiple, min and max only (an int list's element)
  // A value as a case holds it, as conformance/ports/claims.h Covers reads a
  // condition: null satisfies none, an int list's text is what KEY=… lists.
  bool AdmitsValue(const ParamValue& value) const;
  bool AdmitsText(std::string_view text) const;  // `texts` only
  bool AdmitsRank(int64_t rank) const;
  bool BoundsValues() const;   // some condition on the value (not only on the rank)
  bool BoundsNumbers() const;  // a %, <= or >= condition
  // Among the admitted ints in [lo, hi]: the least one >= v, else the
  // greatest; nullopt when none lies in [lo, hi]. Monotone in v, so a drawn
  // value mapped through Fit still shrinks as the draw does.
  std::optional<int64_t> Fit(int64_t v, int64_t lo = INT64_MIN, int64_t hi = INT64_MAX) const;
};

// One claim's bounds, by param key. Empty: every case of the routine.
struct CaseDomain {
  std::map<std::string, ParamBounds, std::less<>> params;

  const ParamBounds* Find(std::string_view key) const;
  bool Unbounded() const { return params.empty(); }
  // Whether a case whose param `key` is `text` / `v` may lie inside (true
  // where the claim does not bound `key`).
  bool AdmitsText(std::string_view key, std::string_view text) const;
  bool AdmitsInt(std::string_view key, int64_t v) const;
  bool AdmitsAbsent(std::string_view key) const;
  // Every bounded param of `c` is admitted (a param it leaves out by admits_absent).
  bool Admits(const Case& c) const;
};

// The domain that admits everything (no claim narrows the routine).
const CaseDomain& UnboundedDomain();

// Floor-based multiples: the least multiple of m (> 0) that is >= x, and the
// greatest that is <= x; nullopt past the int64 range.
std::optional<int64_t> RoundUpToMultiple(int64_t x, int64_t m);
std::optional<int64_t> RoundDownToMultiple(int64_t x, int64_t m);

}  // namespace npuconf
