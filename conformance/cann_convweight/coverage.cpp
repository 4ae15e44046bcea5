// The conv-weight family's coverage classes (conformance/harness/coverage.h): the
// grouped FRACTAL_Z's padding edges (Cin and cout = N div groups mod 16, spec
// layouts.md §A.4), 1x1 kernels, groups 1 / few / many and N not a multiple of
// groups (§A.4 hazard 4), each status of §A.9 and §A.10 by the oracle's rule,
// and every branch of §A.10. The rules for which class a case hits live here.
#include "conformance/harness/coverage.h"

#include "conformance/cann_convweight/family.h"
#include "core/routines/cann_convweight.h"
#include "core/status.h"

namespace npuconf::cann_convweight_props {
namespace {

namespace ids = routines::cann_convweight;

bool Fact(const Profile& p, const char* name) {
  return p.raw.contains("conv_weight") && p.raw.at("conv_weight").at(name).at("value").get<bool>();
}
bool ConvWeight(const Profile& p) { return Fact(p, "supported"); }
bool FormatCast(const Profile& p) { return Fact(p, "format_cast_supported"); }

// (N, Cin, H, W) and groups of a conv case with a rank-4 shape of positive dims.
struct Conv {
  int64_t n, cin, h, w, groups, cout;
};
std::optional<Conv> ConvOf(const Case& c) {
  const auto s = c.IntList("shape");
  const int64_t groups = c.Int("groups").value_or(1);
  if (!s || s->size() != 4 || groups < 1) return std::nullopt;
  for (int64_t d : *s) {
    if (d < 1) return std::nullopt;
  }
  return Conv{(*s)[0], (*s)[1], (*s)[2], (*s)[3], groups, (*s)[0] / groups};
}

int64_t StatusOf(const Case& c, const Profile& p) { return ExpectOf(p, c).status; }

std::vector<CoverageClass> ConvClasses(bool size_api) {
  std::vector<CoverageClass> out;
  for (int64_t r : {0, 1, 15}) {
    const std::string mod = std::to_string(r);
    out.push_back({.name = "cin.mod16_" + mod,
                   .doc = "Cin per group mod 16 = " + mod +
                          ": the C0 padding of each group's Cin' tile (§A.4); edge cases and "
                          "gen::cann_convweight::Edge16",
                   .applies = ConvWeight,
                   .hit = [r](const Case& c, const Profile&) {
                     auto v = ConvOf(c);
                     return v && v->cin % 16 == r;
                   }});
    out.push_back({.name = "cout.mod16_" + mod,
                   .doc = "cout = N div groups mod 16 = " + mod +
                          ": the 16-row padding of Cout' "
                          "(§A.4)",
                   .applies = ConvWeight,
                   .hit = [r](const Case& c, const Profile&) {
                     auto v = ConvOf(c);
                     return v && v->cout >= 1 && v->cout % 16 == r;
                   }});
  }
  out.push_back({.name = "kernel.1x1",
                 .doc = "H = W = 1 (a 1x1 conv: one (h, w) per C1 row, §A.3)",
                 .applies = ConvWeight,
                 .hit = [](const Case& c, const Profile&) {
                   auto v = ConvOf(c);
                   return v && v->h == 1 && v->w == 1;
                 }});
  out.push_back({.name = "groups.one",
                 .doc = "groups = 1: the ungrouped FRACTAL_Z of §A.3",
                 .applies = ConvWeight,
                 .hit = [](const Case& c, const Profile&) {
                   auto v = ConvOf(c);
                   return v && v->groups == 1 && v->cout >= 1;
                 }});
  out.push_back({.name = "groups.shared_tile",
                 .doc = "groups > 1 with e > 1: several groups share one block-diagonal tile "
                        "(§A.4; Cin or cout not a multiple of 16)",
                 .applies = ConvWeight,
                 .hit = [](const Case& c, const Profile&) {
                   auto v = ConvOf(c);
                   return v && v->groups > 1 && v->cout >= 1 &&
                          (v->cin % 16 != 0 || v->cout % 16 != 0);
                 }});
  out.push_back({.name = "groups.depthwise_like",
                 .doc = "groups >= 16 with Cin <= 3 (MobileNet's depthwise [32,1,3,3] g=32, §A.4 "
                        "e up to 16)",
                 .applies = ConvWeight,
                 .hit = [](const Case& c, const Profile&) {
                   auto v = ConvOf(c);
                   return v && v->groups >= 16 && v->cin <= 3 && v->cout >= 1;
                 }});
  out.push_back({.name = "n.not_multiple_of_groups",
                 .doc = "N mod groups != 0 with cout >= 1: the rest is dropped (§A.4 hazard 4)",
                 .applies = ConvWeight,
                 .hit = [](const Case& c, const Profile&) {
                   auto v = ConvOf(c);
                   return v && v->groups > 1 && v->cout >= 1 && v->n % v->groups != 0;
                 }});
  out.push_back({.name = "status.161001",
                 .doc = "a null pointer (§A.9): rejects_invalid's explicit cases",
                 .hit = [](const Case& c, const Profile& p) {
                   return StatusOf(c, p) == cann::kAclnnErrParamNullptr;
                 }});
  out.push_back({.name = "status.161002",
                 .doc = "a CheckParams / dtype / dim rejection (§A.9)",
                 .hit = [](const Case& c, const Profile& p) {
                   return StatusOf(c, p) == cann::kAclnnErrParamInvalid;
                 }});
  out.push_back(
      {.name = "status.561103",
       .doc = "groups > 65535 past the dim checks: TransData's nullptr (§A.9, D13 as "
              "shipped)",
       .applies =
           [](const Profile& p) {
             return ConvWeight(p) &&
                    p.raw.at("conv_weight").at("groups_range").at("value") == "as_shipped";
           },
       .hit = [](const Case& c,
                 const Profile& p) { return StatusOf(c, p) == cann::kAclnnErrInnerNullptr; }});
  if (size_api) {
    out.push_back({.name = "size.zero_dim",
                   .doc = "a dim == 0: size 0, SUCCESS (§A.9)",
                   .applies = ConvWeight,
                   .hit = [](const Case& c, const Profile& p) {
                     const auto s = c.IntList("shape");
                     if (!s || StatusOf(c, p) != 0) return false;
                     for (int64_t d : *s) {
                       if (d == 0) return true;
                     }
                     return false;
                   }});
  }
  return out;
}

std::vector<CoverageClass> CastClasses() {
  std::vector<CoverageClass> out;
  static const std::pair<const char*, const char*> kBranches[] = {
      {"NCHW", "NC1HWC0"},       {"NHWC", "NC1HWC0"},      {"NCHW", "FRACTAL_Z"},
      {"HWCN", "FRACTAL_Z"},     {"NCDHW", "NDC1HWC0"},    {"NDHWC", "NDC1HWC0"},
      {"NCDHW", "FRACTAL_Z_3D"}, {"DHWCN", "FRACTAL_Z_3D"}};
  for (const auto& [plain, blocked] : kBranches) {
    const std::string src = plain, dst = blocked;
    out.push_back({.name = "branch." + src + "_to_" + dst,
                   .doc = "the forward branch " + src + " -> " + dst + " succeeds (§A.10)",
                   .applies = FormatCast,
                   .hit = [src, dst](const Case& c, const Profile& p) {
                     return c.String("src_format") == src && c.String("dst_format") == dst &&
                            StatusOf(c, p) == 0;
                   }});
  }
  out.push_back({.name = "branch.reverse",
                 .doc = "a reverse branch returns the view shape (§A.10)",
                 .applies = FormatCast,
                 .hit = [](const Case& c, const Profile& p) {
                   const std::string src = c.String("src_format").value_or("");
                   return (src == "NC1HWC0" || src == "FRACTAL_Z" || src == "NDC1HWC0" ||
                           src == "FRACTAL_Z_3D") &&
                          StatusOf(c, p) == 0;
                 }});
  for (int64_t c0 : {8, 16, 32}) {
    out.push_back({.name = "c0." + std::to_string(c0),
                   .doc = "a forward branch with C0 = 32 / sizeof = " + std::to_string(c0) +
                          " (§A.10, §A.0.1)",
                   .applies = FormatCast,
                   .hit = [c0](const Case& c, const Profile& p) {
                     // A forward branch's storage shape ends in C0 (§A.1, §A.3, §A.6, §A.7).
                     const std::string src = c.String("src_format").value_or("");
                     const bool forward = src == "NCHW" || src == "NHWC" || src == "HWCN" ||
                                          src == "NCDHW" || src == "NDHWC" || src == "DHWCN";
                     const auto x = ExpectOf(p, c);
                     return forward && x.status == 0 && !x.dims.empty() && x.dims.back() == c0;
                   }});
  }
  out.push_back({.name = "status.361001",
                 .doc = "an unsupported pair, or an empty tensor on non-950 (§A.10)",
                 .applies = FormatCast,
                 .hit = [](const Case& c, const Profile& p) {
                   return StatusOf(c, p) == cann::kAclnnErrRuntimeError;
                 }});
  out.push_back({.name = "status.161002",
                 .doc = "the SoC, a null src (as shipped) or a src dtype outside the list (§A.10)",
                 .hit = [](const Case& c, const Profile& p) {
                   return StatusOf(c, p) == cann::kAclnnErrParamInvalid;
                 }});
  return out;
}

}  // namespace

void AddCoverage(std::vector<RoutineCoverage>* out) {
  out->push_back({ids::kCalculateConvolutionWeightSize, ConvClasses(true)});
  out->push_back({ids::kTransConvolutionWeight, ConvClasses(false)});
  out->push_back({ids::kNpuFormatCastCalculateSizeAndFormat, CastClasses()});
}

}  // namespace npuconf::cann_convweight_props
