#include "core/routines/cann_transdata.h"

#include "core/routines/common.h"

namespace npuconf::routines::cann_transdata {

const std::vector<RoutineSpec>& Specs() {
  const std::vector<std::string> formats(std::begin(kFormats), std::end(kFormats));
  static const std::vector<RoutineSpec> specs = {
      {.id = kTransData,
       .vendor = "cann",
       .vendor_api = "TransFormat (GE host format transfer)",
       .source = "spec layouts.md §A.1 (NC1HWC0), §A.3 (FRACTAL_Z), §A.4 (grouped FRACTAL_Z / "
                 "FRACTAL_Z_3D), §A.5 (FRACTAL_Z_C04), §A.6 (NDC1HWC0), §A.7 (FRACTAL_Z_3D), §A.8 "
                 "and cann.md §2.5 (FRACTAL_NZ)",
       .summary = "host TransData: NCHW/NHWC <-> NC1HWC0, NCHW/HWCN/NHWC <-> FRACTAL_Z "
                  "(grouped), NCHW/NHWC <-> NC1HWC0_C04, NCHW/HWCN <-> FRACTAL_Z_C04, "
                  "NCDHW/NDHWC <-> NDC1HWC0, NCDHW/DHWCN/NDHWC <-> FRACTAL_Z_3D (grouped), "
                  "ND <-> FRACTAL_NZ(_C0_16/_C0_32), zero padding, GE's checks and codes",
       .params =
           {{.key = "src_format",
             .type = ParamType::kEnum,
             .doc = "the source's primary format; a pair GE does not register gets 145020 "
                    "(§A.1 step 1)",
             .required = true,
             .values = formats},
            {.key = "dst_format",
             .type = ParamType::kEnum,
             .doc = "the destination's primary format",
             .required = true,
             .values = formats},
            {.key = "groups",
             .type = ParamType::kInt,
             .doc = "the FRACTAL_Z / FRACTAL_Z_3D sub-format (§A.0.1 format word); 0 and 1 both "
                    "mean ungrouped (GE fz_c04.cc); > 1 only with FRACTAL_Z and FRACTAL_Z_3D "
                    "(§A.4), else 145021 (FRACTAL_Z_C04: GE's UNSUPPORTED, §A.5)",
             .min = -1,
             .max = 65535,
             .default_value = ParamValue::Int(1)},
            {.key = "shape",
             .type = ParamType::kIntList,
             .doc =
                 "the logical shape of the plain side in its own axis order, 4-D (NCDHW, NDHWC, "
                 "DHWCN: 5-D; ND: rank >= 1, a rank-1 [k] per choice cann.trans_data.nz_1d) (the "
                 "source's for a plain -> blocked call, the destination's origin shape for "
                 "blocked -> plain); weights are (N = Cout, C = Cin per group); FRACTAL_Z_C04 "
                 "needs C <= 4 (choice cann.trans_data.fz_c04_c_over_4)",
             .unit = "elements",
             .required = true},
            {.key = "dtype",
             .type = ParamType::kDType,
             .doc = "the element type; a dtype without a C0 in trans_data.c0 gets 145022",
             .required = true},
            {.key = "c0",
             .type = ParamType::kInt,
             .doc = "C0 as the format word's C0 bits give it (§A.0.1); the readings of choices "
                    "cann.trans_data.fp32_c0 / int8_c0 are asked for this way too; "
                    "FRACTAL_NZ_C0_16/_C0_32 fix it at 16/32 (§A.8), NC1HWC0_C04 at 4 (§A.2); "
                    "FRACTAL_Z_C04 per choice cann.trans_data.fz_c04_c0 (§A.5, D7)",
             .unit = "elements",
             .min = 1,
             .max = 256,
             .default_doc =
                 "trans_data.c0 of the profile for the dtype (FRACTAL_NZ: fractal_nz.c0)",
             .profile_default = true},
            SeedParam()},
       .inputs = {{.name = "src",
                   .dtype = "the dtype param",
                   .shape = "[shape] (plain) or the blocked storage dims",
                   .doc = "random data, padding included for a blocked source"}},
       .outputs = {{.name = "dst",
                    .dtype = "the dtype param",
                    .shape = "NC1HWC0 (N, C1, H, W, C0); NC1HWC0_C04 (N, ceil(C/4), H, W, 4); "
                             "FRACTAL_Z (G'·C1'·H·W, N1', 16, C0); NDC1HWC0 (N, D, C1, H, W, "
                             "C0); FRACTAL_Z_3D (G'·D·C1'·H·W, N1', 16, C0); FRACTAL_Z_C04 "
                             "(ceil(4·H·W/C0), N1, 16, C0); "
                             "FRACTAL_NZ (B..., C1, N1, 16, C0); plain: [shape] (reported dims)",
                    .doc = "the converted tensor; every padding position holds 0"}},
       .facts = {"trans_data.*", "fractal_nz.*"}},
  };
  return specs;
}

}  // namespace npuconf::routines::cann_transdata
