#include "core/domain.h"

#include <algorithm>
#include <charconv>

namespace npuconf {
namespace {

int64_t FloorMod(int64_t x, int64_t m) {
  const int64_t r = x % m;
  return r < 0 ? r + m : r;
}

std::optional<int64_t> ParseInt(std::string_view text) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<int64_t> RoundUpToMultiple(int64_t x, int64_t m) {
  const int64_t r = FloorMod(x, m);
  if (r == 0) return x;
  if (x > INT64_MAX - (m - r)) return std::nullopt;
  return x + (m - r);
}

std::optional<int64_t> RoundDownToMultiple(int64_t x, int64_t m) {
  const int64_t r = FloorMod(x, m);
  if (x < INT64_MIN + r) return std::nullopt;
  return x - r;
}

bool ParamBounds::AdmitsText(std::string_view text) const {
  return !texts || std::find(texts->begin(), texts->end(), text) != texts->end();
}

bool ParamBounds::AdmitsNumber(int64_t v) const {
  return v >= min && v <= max && FloorMod(v, multiple) == 0;
}

bool ParamBounds::AdmitsInt(int64_t v) const {
  return AdmitsNumber(v) && AdmitsText(std::to_string(v));
}

bool ParamBounds::AdmitsValue(const ParamValue& value) const {
  switch (value.kind) {
    case ParamValue::Kind::kNull:
      return false;
    case ParamValue::Kind::kInt:
      return AdmitsInt(value.i);
    case ParamValue::Kind::kIntList:
      if (!AdmitsText(value.ToText()) || !AdmitsRank(static_cast<int64_t>(value.ints.size())))
        return false;
      return std::all_of(value.ints.begin(), value.ints.end(),
                         [&](int64_t v) { return AdmitsNumber(v); });
    case ParamValue::Kind::kFloat:
    case ParamValue::Kind::kString:
      return AdmitsText(value.ToText()) && !BoundsNumbers();
  }
  return false;
}

bool ParamBounds::AdmitsRank(int64_t rank) const {
  if (rank < rank_min || rank > rank_max) return false;
  return !ranks || std::find(ranks->begin(), ranks->end(), rank) != ranks->end();
}

bool ParamBounds::BoundsNumbers() const {
  return multiple != 1 || min != INT64_MIN || max != INT64_MAX;
}

bool ParamBounds::BoundsValues() const { return texts || BoundsNumbers(); }

std::optional<int64_t> ParamBounds::Fit(int64_t v, int64_t lo, int64_t hi) const {
  const int64_t bottom = std::max(min, lo), top = std::min(max, hi);
  if (bottom > top) return std::nullopt;
  if (texts) {
    // Listed ints only: the least one >= v, else the greatest.
    std::optional<int64_t> above, largest;
    for (const std::string& text : *texts) {
      const auto x = ParseInt(text);
      if (!x || *x < bottom || *x > top || !AdmitsInt(*x)) continue;
      if (*x >= v && (!above || *x < *above)) above = *x;
      if (!largest || *x > *largest) largest = *x;
    }
    return above ? above : largest;
  }
  if (const auto up = RoundUpToMultiple(std::max(v, bottom), multiple); up && *up <= top) return up;
  const auto down = RoundDownToMultiple(top, multiple);
  if (!down || *down < bottom) return std::nullopt;
  return down;
}

const ParamBounds* CaseDomain::Find(std::string_view key) const {
  const auto it = params.find(key);
  return it == params.end() ? nullptr : &it->second;
}

bool CaseDomain::AdmitsText(std::string_view key, std::string_view text) const {
  const ParamBounds* b = Find(key);
  return !b || b->AdmitsText(text);
}

bool CaseDomain::AdmitsInt(std::string_view key, int64_t v) const {
  const ParamBounds* b = Find(key);
  return !b || b->AdmitsInt(v);
}

bool CaseDomain::AdmitsAbsent(std::string_view key) const {
  const ParamBounds* b = Find(key);
  return !b || b->admits_absent;
}

bool CaseDomain::Admits(const Case& c) const {
  for (const auto& [key, bounds] : params) {
    const ParamValue* value = c.Find(key);
    if (value ? !bounds.AdmitsValue(*value) : !bounds.admits_absent) return false;
  }
  return true;
}

const CaseDomain& UnboundedDomain() {
  static const CaseDomain domain;
  return domain;
}

}  // namespace npuconf
