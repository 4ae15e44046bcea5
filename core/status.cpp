#include "core/status.h"

namespace npuconf::cann {

std::string_view StatusName(int64_t status) {
  switch (status) {
    case kAclnnSuccess:
      return "ACLNN_SUCCESS";
    case kAclnnErrParamNullptr:
      return "ACLNN_ERR_PARAM_NULLPTR";
    case kAclnnErrParamInvalid:
      return "ACLNN_ERR_PARAM_INVALID";
    case kAclnnErrRuntimeError:
      return "ACLNN_ERR_RUNTIME_ERROR";
    case kAclnnErrInner:
      return "ACLNN_ERR_INNER";
    case kAclnnErrInnerInfershapeError:
      return "ACLNN_ERR_INNER_INFERSHAPE_ERROR";
    case kAclnnErrInnerCreateExecutor:
      return "ACLNN_ERR_INNER_CREATE_EXECUTOR";
    case kAclnnErrInnerNullptr:
      return "ACLNN_ERR_INNER_NULLPTR";
    case kGeParamInvalid:
      return "ACL_ERROR_GE_PARAM_INVALID";
    case kGeFormatInvalid:
      return "ACL_ERROR_GE_FORMAT_INVALID";
    case kGeShapeInvalid:
      return "ACL_ERROR_GE_SHAPE_INVALID";
    case kGeDatatypeInvalid:
      return "ACL_ERROR_GE_DATATYPE_INVALID";
    case kGeMemoryAllocation:
      return "ACL_ERROR_GE_MEMORY_ALLOCATION";
    default:
      return "?";
  }
}

}  // namespace npuconf::cann

namespace npuconf {

std::string_view rknn::StatusName(int64_t status) {
  switch (status) {
    case kRknnSucc:
      return "RKNN_SUCC";
    case kRknnErrParamInvalid:
      return "RKNN_ERR_PARAM_INVALID";
    default:
      return "?";
  }
}

std::string StatusText(std::string_view vendor, int64_t status) {
  const std::string_view name =
      vendor == "cann" ? cann::StatusName(status) : rknn::StatusName(status);
  return std::to_string(status) + (name == "?" ? "" : " (" + std::string(name) + ")");
}

}  // namespace npuconf
