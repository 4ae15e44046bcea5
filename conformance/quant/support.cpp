#include "conformance/quant/support.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "conformance/harness/suite.h"
#include "core/float16.h"
#include "core/prng.h"
#include "core/status.h"

namespace npuconf::quant_props {
namespace {

double Uniform(SplitMix64& rng) { return static_cast<double>(rng.Next() >> 11) * 0x1.0p-53; }

double OneScale(SplitMix64& rng, const std::string& kind, int64_t i) {
  const double u = Uniform(rng);
  const double mantissa = 1.0 + Uniform(rng);
  if (kind == "ordinary") return std::ldexp(mantissa, -10 + static_cast<int>(u * 8));
  if (kind == "tiny") return std::ldexp(mantissa, -14 + static_cast<int>(u * 3));
  if (kind == "subnormal") return std::ldexp(1.0 + std::floor(u * 1023), -24);
  if (kind == "huge") return std::ldexp(mantissa, 6 + static_cast<int>(u * 6));
  if (kind == "exact") return std::ldexp(1.0, -8 + static_cast<int>(u * 11));
  if (kind == "index") return static_cast<double>(i + 1);
  if (kind == "ones") return 1.0;
  // mixed / positive: a kind per value.
  static const char* const kKinds[] = {"ordinary", "ordinary",  "ordinary", "ordinary", "ordinary",
                                       "tiny",     "subnormal", "huge",     "exact",    "exact"};
  const std::string pick = kKinds[rng.Next() % 10];
  const double v = OneScale(rng, pick, i);
  if (kind == "mixed" && rng.Next() % 8 == 0) return -v;
  return v;
}

}  // namespace

std::vector<double> ScaleValues(uint64_t seed, int64_t count, const std::string& kind) {
  SplitMix64 rng(seed);
  std::vector<double> out;
  for (int64_t i = 0; i < count; ++i) out.push_back(OneScale(rng, kind, i));
  return out;
}

std::vector<double> ZeroPointValues(uint64_t seed, int64_t count, const std::string& kind,
                                    int64_t lo, int64_t hi) {
  SplitMix64 rng(seed);
  std::vector<double> out;
  const double span = static_cast<double>(hi - lo + 1);
  for (int64_t i = 0; i < count; ++i) {
    std::string pick = kind;
    if (kind == "mixed") pick = rng.Next() % 3 == 0 ? "integer" : "fractional";
    if (pick == "zero") {
      out.push_back(0.0);
    } else if (pick == "integer") {
      out.push_back(static_cast<double>(lo) + std::floor(Uniform(rng) * span));
    } else if (rng.Next() % 2) {
      out.push_back(static_cast<double>(lo) + std::floor(Uniform(rng) * span * 8) / 8.0);
    } else {
      out.push_back(static_cast<double>(lo - 8) + Uniform(rng) * (span + 16));
    }
  }
  return out;
}

std::vector<float> WeightValues(uint64_t seed, int64_t count, const std::string& kind) {
  SplitMix64 rng(seed);
  std::vector<float> out(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    if (kind == "uniform") {
      out[i] = static_cast<float>(Uniform(rng) * 2 - 1);
    } else {  // Box–Muller, ·0.1 as gen_data.py's randn(V, E)·0.1 (§3.5)
      const double u1 = std::max(Uniform(rng), 1e-300), u2 = Uniform(rng);
      out[i] = static_cast<float>(0.1 * std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2));
    }
  }
  return out;
}

uint16_t Bits16(double value, DType dtype) {
  const float f = static_cast<float>(value);
  return dtype == DType::kBf16 ? BFloat16Bits(BFloat16(f)) : HalfBits(Half(f));
}

double Value16(uint16_t bits, DType dtype) {
  return dtype == DType::kBf16 ? static_cast<double>(static_cast<float>(BFloat16FromBits(bits)))
                               : static_cast<double>(static_cast<float>(HalfFromBits(bits)));
}

std::vector<int32_t> IndexValues(uint64_t seed, int64_t count, int64_t vocab) {
  SplitMix64 rng(seed);
  std::vector<int32_t> out;
  for (int64_t i = 0; i < count; ++i) {
    // The first two reach the ends of the vocabulary; the rest spread over all of it.
    if (vocab <= 0) {
      out.push_back(0);
    } else if (i == 0 && count > 2) {
      out.push_back(static_cast<int32_t>(vocab - 1));
    } else if (i == 1 && count > 2) {
      out.push_back(0);
    } else {
      out.push_back(static_cast<int32_t>(rng.Next() % static_cast<uint64_t>(vocab)));
    }
  }
  return out;
}

std::optional<Verdict> CallQuantPort(const PropertyContext& ctx, Invocation inv, Called* out) {
  std::optional<Verdict> verdict = npuconf::CallPort(ctx, std::move(inv), out);
  const Case& c = out->inv.c;
  if (verdict && out->answer.call_result == NPUCONF_CALL_UNCLAIMED &&
      (c.Find("group_order") || c.Find("zero_point"))) {
    return Verdict::Skip("port does not take this reading: " + out->answer.message);
  }
  return verdict;
}

std::optional<Verdict> CallQuantPort(const PropertyContext& ctx, const Case& c, Called* out) {
  return CallQuantPort(ctx, ctx.suite.Materialize(c, ctx.profile), out);
}

std::string Reading(const PropertyContext& ctx, const std::string& choice,
                    const std::string& fallback) {
  if (auto claimed = ctx.port.ClaimedChoice(choice)) return *claimed;
  if (const Choice* c = ctx.profile.FindChoice(choice)) return c->value;
  return fallback;
}

std::string StatusText(const std::string& routine, int64_t status) {
  if (routine.rfind("rknn.", 0) == 0) {
    return std::to_string(status) + (status == -5  ? " (RKNN_ERR_PARAM_INVALID)"
                                     : status == 0 ? " (RKNN_SUCC)"
                                                   : "");
  }
  return std::to_string(status) + " (" + std::string(cann::StatusName(status)) + ")";
}

std::optional<Verdict> CheckUntouched(const Called& k, const std::string& why) {
  for (size_t i = 0; i < k.inv.outputs.size(); ++i) {
    const OutputResult& out = k.answer.outputs[i];
    if (out.null) continue;
    const Bytes before = k.inv.outputs[i].Before();
    if (!std::equal(before.begin(), before.end(), out.contents().begin())) {
      return Verdict::Fail("output '" + out.name + "' written although " + why);
    }
  }
  return std::nullopt;
}

std::optional<int64_t> FirstDiff16(const uint8_t* got, const std::vector<uint16_t>& want,
                                   DType dtype) {
  for (size_t i = 0; i < want.size(); ++i) {
    uint16_t g;
    std::memcpy(&g, got + 2 * i, 2);
    if (g == want[i]) continue;
    if (std::isnan(Value16(g, dtype)) && std::isnan(Value16(want[i], dtype))) continue;
    return static_cast<int64_t>(i);
  }
  return std::nullopt;
}

std::optional<int64_t> FirstDiff32(const uint8_t* got, const std::vector<float>& want) {
  for (size_t i = 0; i < want.size(); ++i) {
    float g;
    std::memcpy(&g, got + 4 * i, 4);
    uint32_t gb, wb;
    std::memcpy(&gb, &g, 4);
    std::memcpy(&wb, &want[i], 4);
    if (gb == wb || (std::isnan(g) && std::isnan(want[i]))) continue;
    return static_cast<int64_t>(i);
  }
  return std::nullopt;
}

std::string Hex16(uint16_t bits) {
  std::ostringstream out;
  out << "0x" << std::hex << std::uppercase;
  out.width(4);
  out.fill('0');
  out << bits;
  return out.str();
}

std::string Hex32(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  std::ostringstream out;
  out.precision(9);
  out << value << " (0x" << std::hex << std::uppercase;
  out.width(8);
  out.fill('0');
  out << bits << ")";
  return out.str();
}

std::vector<uint16_t> Words16(const uint8_t* data, int64_t count) {
  std::vector<uint16_t> out(static_cast<size_t>(count));
  if (count > 0) std::memcpy(out.data(), data, static_cast<size_t>(count) * 2);
  return out;
}
std::vector<uint16_t> Words16(const std::vector<uint8_t>& bytes) {
  return Words16(bytes.data(), static_cast<int64_t>(bytes.size() / 2));
}

std::vector<int32_t> IndicesOf(const Invocation& inv) {
  const InputTensor* t = inv.Input("indices");
  std::vector<int32_t> out(t ? t->bytes.size() / 4 : 0);
  if (!out.empty()) std::memcpy(out.data(), t->bytes.data(), out.size() * 4);
  return out;
}

oracle::quant::GatherCall GatherCallOf(const Invocation& inv, const Case& c) {
  oracle::quant::GatherCall call;
  const InputTensor* table = inv.Input("table");
  const InputTensor* scale = inv.Input("scale");
  const InputTensor* zp = inv.Input("zero_point");
  call.null_input = !table || !scale || !zp || !inv.Input("indices");
  call.null_y = OutputIsNull(c, "y");
  call.vocab = table ? table->shape[0] : 0;
  call.embed = table ? table->shape[1] : 0;
  call.scale_len = scale ? scale->shape[0] : 0;
  call.zero_point_len = zp ? zp->shape[0] : 0;
  call.indices = IndicesOf(inv);
  return call;
}

namespace {

std::string ProfileValue(const Profile& profile, const std::string& choice,
                         const std::string& fallback) {
  const Choice* found = profile.FindChoice(choice);
  return found ? found->value : fallback;
}

}  // namespace

oracle::quant::AntiquantCall AntiquantCallOf(const Case& c, const Invocation& inv,
                                             const Profile& profile) {
  oracle::quant::AntiquantCall call;
  call.npu_arch = profile.cann->npu_arch;
  call.soc_supported = profile.cann->antiquant_supported;
  call.kn_max = profile.cann->antiquant_kn_max;
  call.x_dtype = *c.DTypeParam("x_dtype");
  call.weight_dtype = *c.DTypeParam("weight_dtype");
  call.k = *c.Int("k");
  call.n = *c.Int("n");
  call.group_size = c.Int("group_size").value_or(0);
  call.null_weight = !inv.Input("weight");
  call.null_y = OutputIsNull(c, "y");
  if (const InputTensor* s = inv.Input("scale")) call.scale_shape = s->shape;
  if (const InputTensor* o = inv.Input("offset")) call.offset_shape = o->shape;
  call.channel_scale_n_by_1 = ProfileValue(profile, kChoiceChannel2d, "as_code") == "as_310p_doc";
  return call;
}

namespace {

oracle::quant::RknnCall RknnCallWith(const Case& c, const Invocation& inv, const Profile& profile,
                                     const std::string& group_order,
                                     const std::string& zero_point) {
  oracle::quant::RknnCall call;
  call.b_dtype = *c.DTypeParam("dtype");
  call.even_high = profile.rknn && profile.rknn->norm_nibble == NibbleOrder::kHighFirst;
  call.k = *c.Int("k");
  call.n = *c.Int("n");
  call.quant_type = *c.Int("quant_type");
  call.group_size = c.Int("group_size").value_or(0);
  call.group_size_32_only = profile.rknn && profile.rknn->group_size_rule == "32_only";
  call.n_major = c.String("group_order").value_or(group_order) == "n_major";
  call.asymmetric = c.String("zero_point").value_or(zero_point) == "asymmetric";
  const InputTensor* s = inv.Input("scale");
  const InputTensor* z = inv.Input("zp");
  call.scale_len = s ? static_cast<int64_t>(s->bytes.size() / 4) : 0;
  call.zp_len = z ? static_cast<int64_t>(z->bytes.size() / 4) : 0;
  if (z) {
    for (size_t i = 0; i + 4 <= z->bytes.size(); i += 4) {
      int32_t v;
      std::memcpy(&v, z->bytes.data() + i, 4);
      call.any_nonzero_zp |= v != 0;
    }
  }
  return call;
}

}  // namespace

oracle::quant::RknnCall RknnCallOf(const PropertyContext& ctx, const Case& c,
                                   const Invocation& inv) {
  return RknnCallWith(c, inv, ctx.profile, Reading(ctx, kChoiceGroupOrder, "g_major"),
                      Reading(ctx, kChoiceZeroPoint, "symmetric_only"));
}

oracle::quant::RknnCall RknnCallOfProfile(const Case& c, const Invocation& inv,
                                          const Profile& profile) {
  return RknnCallWith(c, inv, profile, ProfileValue(profile, kChoiceGroupOrder, "g_major"),
                      ProfileValue(profile, kChoiceZeroPoint, "symmetric_only"));
}

std::vector<DType> RknnDequantCombos::DTypesFor(int64_t quant_type) const {
  auto it = by_quant_type.find(quant_type);
  return it == by_quant_type.end() ? std::vector<DType>{} : it->second;
}

bool RknnDequantCombos::AnyQuantType(DType dtype) const {
  for (const auto& [q, dtypes] : by_quant_type) {
    if (std::find(dtypes.begin(), dtypes.end(), dtype) != dtypes.end()) return true;
  }
  return false;
}

bool RknnDequantCombos::Supports(int64_t quant_type, DType dtype) const {
  const auto dtypes = DTypesFor(quant_type);
  return std::find(dtypes.begin(), dtypes.end(), dtype) != dtypes.end();
}

RknnDequantCombos RknnDequantSupport(const Profile& profile) {
  RknnDequantCombos out;
  if (!profile.rknn || !profile.rknn->has_tables) return out;
  const RknnFacts& f = *profile.rknn;
  auto b_dtypes = [&](const std::vector<int32_t>& types) {
    std::vector<DType> dtypes;
    for (int32_t type : types) {
      const RknnMatmulType* t = f.FindType(type);
      if (!t || !f.Supports(type)) continue;
      if ((t->b == DType::kInt8 || t->b == DType::kInt4) &&
          std::find(dtypes.begin(), dtypes.end(), t->b) == dtypes.end()) {
        dtypes.push_back(t->b);
      }
    }
    std::sort(dtypes.begin(), dtypes.end());
    return dtypes;
  };
  const std::vector<DType> all = b_dtypes(f.supported_types);
  out.by_quant_type[0] = all;
  if (f.quant_types) out.by_quant_type[1] = all;
  if (f.quant_types && f.per_channel_types) {
    out.by_quant_type[2] = out.by_quant_type[3] = b_dtypes(*f.per_channel_types);
  }
  if (f.quant_types && f.per_group_types) {
    out.by_quant_type[4] = out.by_quant_type[5] = b_dtypes(*f.per_group_types);
  }
  for (auto it = out.by_quant_type.begin(); it != out.by_quant_type.end();) {
    it = it->second.empty() ? out.by_quant_type.erase(it) : std::next(it);
  }
  return out;
}

}  // namespace npuconf::quant_props
