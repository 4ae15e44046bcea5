// Reads a cann.transfer_shape case through the ABI view, calls
// reference/cann_transfer_shape/transfer_shape.h, writes the dims as INT64.
#include "reference/cann_transfer_shape/transfer_shape_port.h"

#include <cstring>

#include "core/routines/cann_transfer_shape.h"
#include "reference/cann_transfer_shape/transfer_shape.h"

namespace npuconf::cann_transfer_shape {
namespace {

using routines::cann_transfer_shape::kTrue;

int32_t Answer(const CaseView& view, const Profile& profile, int64_t* status,
               std::string* message) {
  if (!profile.cann || !profile.raw.contains("transfer_shape")) {
    *message = "profile '" + profile.name + "' has no transfer_shape facts";
    return NPUCONF_CALL_UNCLAIMED;
  }
  auto src = view.String("src_format"), dst = view.String("dst_format");
  auto dtype = view.String("dtype");
  auto shape = view.IntList("shape");
  if (!src || !dst || !dtype || !shape) {
    *message = "params src_format, dst_format, dtype and shape (int list) are required";
    return NPUCONF_CALL_BAD_CASE;
  }
  const TransferShapeArgs args{.origin_format = *src,
                               .format = *dst,
                               .dtype = *dtype,
                               .shape = *shape,
                               .groups = view.Int("groups").value_or(1),
                               .m0 = view.Int("m0").value_or(0)};
  Shape storage;
  *status = TransferShape(ReadTransferShapeFacts(profile.raw), args, &storage);
  if (*status != kTrue) return NPUCONF_CALL_ANSWERED;
  npuconf_tensor* out = view.Output("storage_shape");
  const uint64_t bytes = storage.size() * sizeof(int64_t);
  if (!out || out->bytes < bytes || (bytes && !out->data)) {
    *message = "output 'storage_shape' needs " + std::to_string(bytes) + " bytes";
    return NPUCONF_CALL_BAD_CASE;
  }
  if (bytes) std::memcpy(out->data, storage.data(), bytes);
  SetOutputShape(out, {static_cast<int64_t>(storage.size())});
  return NPUCONF_CALL_ANSWERED;
}

}  // namespace

const ReferenceFamily& CannTransferShapeReference() {
  static const ReferenceFamily family = {
      .routines = {{routines::cann_transfer_shape::kTransferShape, Answer}}};
  return family;
}

}  // namespace npuconf::cann_transfer_shape
