// Vendor status codes as data (CANN aclnnStatus, spec cann.md §0.1) and the
// npuconf process exit codes (DESIGN.md "Runner and reports").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace npuconf {

namespace cann {
// hicann/ops-math : docs/zh/context/aclnn_return_code.md (spec cann.md §0.1)
inline constexpr int64_t kAclnnSuccess = 0;
inline constexpr int64_t kAclnnErrParamNullptr = 161001;
inline constexpr int64_t kAclnnErrParamInvalid = 161002;
inline constexpr int64_t kAclnnErrRuntimeError = 361001;
inline constexpr int64_t kAclnnErrInner = 561000;
inline constexpr int64_t kAclnnErrInnerInfershapeError = 561001;
inline constexpr int64_t kAclnnErrInnerCreateExecutor = 561101;
inline constexpr int64_t kAclnnErrInnerNullptr = 561103;
// GraphEngine host format-transfer codes (hicann/ge inc/external/ge/ge_error_codes.h@ffdcbc9f,
// spec layouts.md §0 "Status codes"): what the GE TransData converters return.
inline constexpr int64_t kGeParamInvalid = 145000;
inline constexpr int64_t kGeFormatInvalid = 145020;
inline constexpr int64_t kGeShapeInvalid = 145021;
inline constexpr int64_t kGeDatatypeInvalid = 145022;
inline constexpr int64_t kGeMemoryAllocation = 245000;

// Name of a CANN status (aclnn or GE) for messages ("ACLNN_ERR_PARAM_INVALID",
// "ACL_ERROR_GE_SHAPE_INVALID"); "?" if unknown.
std::string_view StatusName(int64_t status);
}  // namespace cann

namespace rknn {
// rknn_api.h (spec rknn.md §1.10, API-h): 0 on success, negative on error.
inline constexpr int64_t kRknnSucc = 0;
inline constexpr int64_t kRknnErrParamInvalid = -5;
std::string_view StatusName(int64_t status);  // "RKNN_ERR_PARAM_INVALID"; "?" if unknown
}  // namespace rknn

// "161002 (ACLNN_ERR_PARAM_INVALID)", "-5 (RKNN_ERR_PARAM_INVALID)": a status
// of a routine of `vendor` ("cann" / "rknn") for messages.
std::string StatusText(std::string_view vendor, int64_t status);

// Process exit codes (DESIGN.md): the interface of the `npuconf` binary.
enum ExitCode : int {
  kExitConformant = 0,
  kExitNonConformant = 1,
  kExitBadUsage = 2,
  kExitPortFailure = 3,     // the port could not be loaded (or, in process, crashed)
  kExitNothingChecked = 4,  // no claimed case on the selected profiles and routines
};

}  // namespace npuconf
