// cann.trans_data.ge_unit_test_arrays: GE's own unit-test arrays (spec layouts.md
// §A.11; hicann/ge tests/ge/ut/ge/common @ ffdcbc9f, copied into ge_gold.h) as
// explicit cases: GE's input, both directions, and GE's expected output.
#include <cstring>

#include "conformance/cann_transdata/family.h"
#include "conformance/cann_transdata/ge_gold.h"
#include "conformance/harness/call.h"
#include "core/routines/cann_transdata.h"
#include "core/status.h"

namespace npuconf::cann_transdata_props {
namespace {

using routines::cann_transdata::kGeSuccess;
using routines::cann_transdata::kTransData;

struct Gold {
  const char* test;
  const char* plain;
  const char* blocked;
  Shape shape, storage;
  DType dtype;
  int64_t groups;
  Bytes plain_bytes, blocked_bytes;
};

template <typename T, size_t N>
Bytes BytesOf(const T (&a)[N]) {
  Bytes out(sizeof(a));
  std::memcpy(out.data(), a, sizeof(a));
  return out;
}

const std::vector<Gold>& Golds() {
  namespace g = cann_transdata::gold;
  static const std::vector<Gold> golds = {
      {"format_transfer_hwcn_fractalz_unittest.cc fp16_4c_8n_with_groups_02",
       "HWCN",
       "FRACTAL_Z",
       {3, 3, 4, 8},
       {9, 1, 16, 16},
       DType::kFloat16,
       2,
       BytesOf(g::kHwcnFzGroups02In),
       BytesOf(g::kHwcnFzGroups02Out)},
      {"format_transfer_hwcn_fractalz_unittest.cc fp16_1c_1n_with_groups",
       "HWCN",
       "FRACTAL_Z",
       {1, 1, 1, 2},
       {1, 1, 16, 16},
       DType::kFloat16,
       2,
       BytesOf(g::kHwcnFzGroups01In),
       BytesOf(g::kHwcnFzGroups01Out)},
      {"format_transfer_nchw_5d_unittest.cc nchw_to_5d_fp16_17c",
       "NCHW",
       "NC1HWC0",
       {1, 17, 4, 4},
       {1, 2, 4, 4, 16},
       DType::kFloat16,
       1,
       BytesOf(g::kNchw5dFp16C17In),
       BytesOf(g::kNchw5dFp16C17Out)},
      {"format_transfer_nchw_5d_unittest.cc nchw_to_5d_uint8",
       "NCHW",
       "NC1HWC0",
       {1, 3, 4, 4},
       {1, 1, 4, 4, 32},
       DType::kUint8,
       1,
       BytesOf(g::kNchw5dUint8In),
       BytesOf(g::kNchw5dUint8Out)},
      {"format_transfer_fzc04_unittest.cc hwcn_fzc04_hwcn_success_2 (spec layouts.md §A.5)",
       "HWCN",
       "FRACTAL_Z_C04",
       {2, 2, 1, 2},
       {1, 1, 16, 16},
       DType::kFloat16,
       1,
       BytesOf(g::kFzC04Success2Hwcn),
       BytesOf(g::kFzC04Success2Fz)},
  };
  return golds;
}

Case GoldCase(const Profile& profile, const Gold& g, bool pack) {
  Case c(kTransData, profile.name);
  c.Set("src_format", pack ? g.plain : g.blocked)
      .Set("dst_format", pack ? g.blocked : g.plain)
      .Set("shape", g.shape)
      .Set("dtype", g.dtype);
  if (g.groups != 1) c.Set("groups", g.groups);
  c.inputs = {{"src", g.dtype, pack ? g.shape : g.storage, pack ? g.plain_bytes : g.blocked_bytes}};
  return c;
}

Verdict CheckGold(const PropertyContext& ctx, const Case& c) {
  for (const Gold& g : Golds()) {
    for (bool pack : {true, false}) {
      if (c.String("src_format") != (pack ? g.plain : g.blocked) ||
          c.String("dst_format") != (pack ? g.blocked : g.plain) || c.IntList("shape") != g.shape ||
          c.DTypeParam("dtype") != g.dtype)
        continue;
      Called k;
      if (auto v = CallPort(ctx, c, &k)) return *v;
      if (k.answer.status != kGeSuccess)
        return Verdict::Fail(std::string(g.test) + ": status " +
                             StatusText("cann", k.answer.status));
      const Bytes& want = pack ? g.blocked_bytes : g.plain_bytes;
      const auto got = k.answer.Output("dst")->contents();
      for (size_t b = 0; b < want.size(); ++b) {
        if (b >= got.size() || got[b] != want[b]) {
          return Verdict::Fail(std::string(g.test) + (pack ? "" : " (reversed)") + ": dst byte " +
                               std::to_string(b) + " differs from GE's array");
        }
      }
      return Verdict::Pass();
    }
  }
  return Verdict::Fail("not a GE unit-test case: " + c.ToText());
}

}  // namespace

Property GoldProperty() {
  return {.name = std::string(kTransData) + ".ge_unit_test_arrays",
          .routine = kTransData,
          .description =
              "GE's unit-test input arrays give GE's expected arrays byte for byte, and "
              "back (spec layouts.md §A.11; hicann/ge tests/ge/ut/ge/common@ffdcbc9f)",
          .choices = {"cann.trans_data.fp32_c0", "cann.trans_data.int8_c0"},
          // GE's arrays are C0 16 for FLOAT16 and 32 for UINT8 (the C0 bits 5 and 6 of the
          // tests): an array whose dtype has another C0 under the profile's readings has
          // other answers and is left out; the others still run.
          .explicit_cases =
              [](const PropertyContext& ctx) {
                const auto& c0 = ctx.profile.raw.at("trans_data").at("c0").at("value");
                std::vector<Case> out;
                for (const Gold& g : Golds()) {
                  const int64_t ge_c0 = g.dtype == DType::kFloat16 ? 16 : 32;
                  if (c0.value(std::string(Name(g.dtype)), int64_t{0}) != ge_c0) continue;
                  for (bool pack : {true, false}) out.push_back(GoldCase(ctx.profile, g, pack));
                }
                return out;
              },
          .check = CheckGold};
}

}  // namespace npuconf::cann_transdata_props
