/* An out-of-tree npuconf port in plain C11: a starting point for a port author.
 *
 * It implements one routine, aclnnCalculateMatmulWeightSizeV2
 * ("cann.calculate_matmul_weight_size_v2", spec cann.md §1.4), on the
 * ascend910b profile only, and claims nothing else — every other routine is
 * reported "not claimed", never "pass". Build it as a shared library against
 * include/npuconf/port.h and run:
 *
 *   npuconf run --port ./libnpuconf_port_template.so --profile ascend910b
 *
 * Replace the body of `call` with calls into your own implementation.
 */
#include <stdint.h>
#include <string.h>

#include "npuconf/port.h"

enum {
  kSuccess = 0,           /* ACLNN_SUCCESS */
  kParamNullptr = 161001, /* ACLNN_ERR_PARAM_NULLPTR */
  kParamInvalid = 161002, /* ACLNN_ERR_PARAM_INVALID */
};

static const npuconf_param* find_param(const npuconf_case* c, const char* key) {
  for (uint64_t i = 0; i < c->n_params; ++i) {
    if (strcmp(c->params[i].key, key) == 0) return &c->params[i];
  }
  return NULL;
}

static npuconf_tensor* find_output(const npuconf_case* c, const char* name) {
  for (uint64_t i = 0; i < c->n_outputs; ++i) {
    if (strcmp(c->outputs[i].name, name) == 0) return &c->outputs[i];
  }
  return NULL;
}

static int64_t round_up(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

/* 910B passes the SoC gate (§1.4 step 1), so the checks start at the pointers. */
static int64_t weight_size_v2(const npuconf_param* shape, const char* dtype, uint64_t* out) {
  if (shape == NULL || shape->kind == NPUCONF_PARAM_NULL) return kParamNullptr;
  if (out == NULL) return kParamNullptr;
  if (shape->kind != NPUCONF_PARAM_INT_LIST || shape->n_ints < 2 || shape->n_ints > 6) {
    return kParamInvalid;
  }
  const int half = strcmp(dtype, "FLOAT16") == 0 || strcmp(dtype, "BF16") == 0;
  __int128 size = 1;
  for (uint64_t i = 0; i < shape->n_ints; ++i) {
    int64_t d = shape->ints[i];
    if (d <= 0) return kParamInvalid; /* zero: §1.4 step 5; negative: our defined choice */
    if (i == shape->n_ints - 2) d = round_up(d, 16);
    if (i == shape->n_ints - 1) d = round_up(d, half ? 16 : 32);
    size *= d;
    if (size > INT64_MAX) return kParamInvalid; /* overflow: our defined choice */
  }
  *out = (uint64_t)size;
  return kSuccess;
}

static int32_t call(const npuconf_case* c, int64_t* vendor_status, char* message,
                    uint64_t message_bytes) {
  (void)message;
  (void)message_bytes;
  if (strcmp(c->routine, "cann.calculate_matmul_weight_size_v2") != 0 ||
      strcmp(c->profile, "ascend910b") != 0) {
    return NPUCONF_CALL_UNCLAIMED;
  }
  const npuconf_param* dtype = find_param(c, "dtype");
  npuconf_tensor* size = find_output(c, "weight_tensor_size");
  if (dtype == NULL || dtype->kind != NPUCONF_PARAM_STRING || size == NULL) {
    return NPUCONF_CALL_BAD_CASE;
  }
  uint64_t value = 0;
  *vendor_status = weight_size_v2(find_param(c, "shape"), dtype->s, size->data ? &value : NULL);
  if (*vendor_status == kSuccess) memcpy(size->data, &value, sizeof(value));
  return NPUCONF_CALL_ANSWERED;
}

static const char* const kClaims[] = {
    "cann.calculate_matmul_weight_size_v2:ascend910b",
    "choice:cann.size.negative_dims=param_invalid",
    "choice:cann.size.overflow=param_invalid",
    NULL,
};

static const npuconf_port kPort = {NPUCONF_PORT_ABI_VERSION, "port-template", "0.1.0", kClaims,
                                   call};

__attribute__((visibility("default"))) const npuconf_port* npuconf_port_entry(
    uint32_t abi_version) {
  return abi_version == NPUCONF_PORT_ABI_VERSION ? &kPort : NULL;
}
