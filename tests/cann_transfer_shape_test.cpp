// cann.transfer_shape: the reference and the oracle against every kept TSU-UT
// row (transformer_transfer_shape_ut.cc @8d5a10a4, conformance/cann_transfer_shape/ut_rows.h)
// and the spec's worked examples (spec layouts.md §A.0, §A.4), each expected
// value traced to its source.
#include "core/routines/cann_transfer_shape.h"

#include <gtest/gtest.h>

#include "conformance/cann_transfer_shape/ut_rows.h"
#include "core/profile.h"
#include "oracles/cann_transfer_shape/transfer_shape_oracle.h"
#include "reference/cann_transfer_shape/transfer_shape.h"

namespace npuconf {
namespace {

namespace ids = routines::cann_transfer_shape;
namespace orc = oracle::cann_transfer_shape;
using cann_transfer_shape::ReadTransferShapeFacts;
using cann_transfer_shape::TransferShape;
using cann_transfer_shape::TransferShapeArgs;

const Profile& Ascend910b() { return *FindProfile("ascend910b"); }

struct Both {
  int64_t ref_status, orc_status;
  Shape ref, orc;
};
Both BothAnswer(const std::string& src, const std::string& dst, const std::string& dtype, Shape s,
                int64_t groups = 1, int64_t m0 = 0) {
  Both b{};
  b.ref_status = TransferShape(
      ReadTransferShapeFacts(Ascend910b().raw),
      {.origin_format = src, .format = dst, .dtype = dtype, .shape = s, .groups = groups, .m0 = m0},
      &b.ref);
  const auto a = orc::ExpectTransferShape(Ascend910b().raw, {.src_format = src,
                                                             .dst_format = dst,
                                                             .dtype = dtype,
                                                             .shape = s,
                                                             .groups = groups,
                                                             .m0 = m0});
  b.orc_status = a.status;
  b.orc = a.storage;
  return b;
}

TEST(TransferShape, ReferenceAndOracleGiveEveryTsuUtRow) {
  int checked = 0;
  for (const auto& r : cann_transfer_shape::ut::kRows) {
    const Both b = BothAnswer(r.src_format, r.dst_format, r.dtype, Shape(r.shape), r.groups, r.m0);
    const int64_t want = r.expect_true ? ids::kTrue : ids::kFalse;
    EXPECT_EQ(b.ref_status, want) << "reference, TSU-UT line " << r.line;
    EXPECT_EQ(b.orc_status, want) << "oracle, TSU-UT line " << r.line;
    if (r.expect_true) {
      EXPECT_EQ(b.ref, Shape(r.expect)) << "reference, TSU-UT line " << r.line;
      EXPECT_EQ(b.orc, Shape(r.expect)) << "oracle, TSU-UT line " << r.line;
    }
    ++checked;
  }
  // 468 calls in the UT, less the 45 FRACTAL_ZN_RNN / ND_RNN_BIAS ones (ut_rows.h).
  EXPECT_EQ(checked, 423);
}

TEST(TransferShape, GroupedFractalZTakesTheLcmThenTheMin) {
  // spec layouts.md §A.0 item 1: NCHW (128,2,3,3) fp16 g=8 -> e = 8, (9,8,16,16).
  const Both b = BothAnswer("NCHW", "FRACTAL_Z", "FLOAT16", {128, 2, 3, 3}, 8);
  EXPECT_EQ(b.ref, (Shape{9, 8, 16, 16}));
  EXPECT_EQ(b.orc, (Shape{9, 8, 16, 16}));
  // §A.4 [derived]: NCHW (16,8,1,1) fp16 g=4 -> (2,1,16,16); int8 (32,1,1,1) g=2 -> (1,2,16,32).
  EXPECT_EQ(BothAnswer("NCHW", "FRACTAL_Z", "FLOAT16", {16, 8, 1, 1}, 4).ref,
            (Shape{2, 1, 16, 16}));
  EXPECT_EQ(BothAnswer("NCHW", "FRACTAL_Z", "INT8", {32, 1, 1, 1}, 2).orc, (Shape{1, 2, 16, 32}));
}

TEST(TransferShape, NBelowGroupsIsUngrouped) {
  // §A.4 hazard 3 (D6): TSU falls back to the ungrouped shape when N < groups.
  const Both b = BothAnswer("NCHW", "FRACTAL_Z", "FLOAT16", {3, 5, 2, 2}, 4);
  EXPECT_EQ(b.ref, (Shape{4, 1, 16, 16}));
  EXPECT_EQ(b.orc, b.ref);
}

TEST(TransferShape, OutsideTheSnapshotIsNotModelled) {
  EXPECT_EQ(BothAnswer("NCHW", "NCHW", "FLOAT16", {2, -3, 4, 4}).ref_status, ids::kNotModelled);
  EXPECT_EQ(BothAnswer("NCHW", "FRACTAL_Z", "FLOAT16", {8, 0, 2, 2}, 2).orc_status,
            ids::kNotModelled);
  EXPECT_EQ(BothAnswer("NCHW", "FRACTAL_Z_3D", "FLOAT16", {2, 17, 4, 5}).ref_status,
            ids::kNotModelled);
  EXPECT_EQ(BothAnswer("NCHW", "FRACTAL_Z_3D", "FLOAT16", {2, 17, 4, 5}).orc_status,
            ids::kNotModelled);
}

TEST(TransferShape, ProfilesCarryTheK0Table) {
  // spec layouts.md §A.0.1 row "framework shape (TSU)".
  for (const char* name :
       {"ascend310b", "ascend310p", "ascend910", "ascend910_93", "ascend910b", "ascend950"}) {
    const auto f = ReadTransferShapeFacts(FindProfile(name)->raw);
    EXPECT_EQ(f.k0_default, 16) << name;
    EXPECT_EQ(f.k0.at("INT8"), 32) << name;
    EXPECT_EQ(f.k0.at("INT4"), 64) << name;
    EXPECT_EQ(f.k0.at("UINT1"), 256) << name;
    EXPECT_EQ(f.m0_default, 16) << name;
  }
}

}  // namespace
}  // namespace npuconf
