/* A correct port with narrowed claims, as real clients narrow them: ND <->
 * FRACTAL_NZ (spec cann.md §2.5) for FLOAT16 and INT8 only, rank <= 3, every
 * CANN profile. NPUCONF_NARROW_BUG=1 plants one fault inside those claims:
 * INT8 with n past 64 packs the rows of the second N1 block one row late (a
 * case a few percent of the claimed domain reaches). For the tests of claims
 * in `run` and in `vectors check` (tests/claims_cli_test.cpp).
 * NPUCONF_NARROW_FP32_C0=8|16 also claims FLOAT with that reading of choice
 * cann.nz.fp32_c0 (spec cann.md §5.6), and packs FLOAT with C0
 * NPUCONF_NARROW_FP32_IMPL (default: the claimed one; another value makes a
 * port that lies about its reading).
 * Two more faults, for the tests of waivers (tests/team_gate_test.cpp: two
 * bugs, one waiver): NPUCONF_NARROW_INT8_PADDING=1 fills the FRACTAL_NZ
 * padding of INT8 with 0x5A instead of 0; NPUCONF_NARROW_FP16_BATCHES=zero
 * zeroes every batch after the first of FLOAT16, =segv crashes (SIGSEGV)
 * on a FLOAT16 case with more than one batch. */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "npuconf/port.h"

static const npuconf_param* find_param(const npuconf_case* c, const char* key) {
  for (uint64_t i = 0; i < c->n_params; ++i) {
    if (strcmp(c->params[i].key, key) == 0) return &c->params[i];
  }
  return NULL;
}

static int64_t ceil_div(int64_t x, int64_t a) { return (x + a - 1) / a; }

/* Element (b, r, c) of ND [B, n, k] at its FRACTAL_NZ offset (§2.5). */
static int64_t nz_offset(int64_t b, int64_t r, int64_t col, int64_t n, int64_t k, int64_t c0) {
  const int64_t n1 = ceil_div(n, 16), c1 = ceil_div(k, c0);
  return b * c1 * n1 * 16 * c0 + (col / c0) * n1 * 16 * c0 + r * c0 + col % c0;
}

static int32_t call(const npuconf_case* c, int64_t* vendor_status, char* message,
                    uint64_t message_bytes) {
  (void)message;
  (void)message_bytes;
  const int to_nz = strcmp(c->routine, "cann.nd_to_nz") == 0;
  if (!to_nz && strcmp(c->routine, "cann.nz_to_nd") != 0) return NPUCONF_CALL_UNCLAIMED;
  const npuconf_param* shape = find_param(c, "shape");
  const npuconf_param* dtype = find_param(c, "dtype");
  const npuconf_param* c0_param = find_param(c, "c0");
  if (!shape || shape->kind != NPUCONF_PARAM_INT_LIST || !dtype || c->n_inputs != 1 ||
      c->n_outputs != 1)
    return NPUCONF_CALL_UNCLAIMED;
  const int int8 = strcmp(dtype->s, "INT8") == 0;
  const char* reading = getenv("NPUCONF_NARROW_FP32_C0");
  const int fp32 = strcmp(dtype->s, "FLOAT") == 0 && reading != NULL;
  if (!int8 && !fp32 && strcmp(dtype->s, "FLOAT16") != 0) return NPUCONF_CALL_UNCLAIMED;
  if (shape->n_ints < 1 || shape->n_ints > 3) return NPUCONF_CALL_UNCLAIMED;
  const char* impl = getenv("NPUCONF_NARROW_FP32_IMPL");
  const int64_t fp32_c0 = fp32 ? atoi(impl ? impl : reading) : 0;
  const int64_t elem = int8 ? 1 : fp32 ? 4 : 2;
  const int64_t c0 = c0_param ? c0_param->i : int8 ? 32 : fp32 ? fp32_c0 : 16;
  /* [k] is one row (§2.5); batch dims flatten. */
  const uint64_t rank = shape->n_ints;
  const int64_t k = shape->ints[rank - 1], n = rank >= 2 ? shape->ints[rank - 2] : 1;
  int64_t batch = 1;
  for (uint64_t i = 0; i + 2 < rank; ++i) batch *= shape->ints[i];
  const int64_t n1 = ceil_div(n, 16), c1 = ceil_div(k, c0);
  const int bug = getenv("NPUCONF_NARROW_BUG") != NULL && int8 && n > 64;
  const uint8_t* in = (const uint8_t*)c->inputs[0].data;
  npuconf_tensor* out = &c->outputs[0];
  uint8_t* dst = (uint8_t*)out->data;
  const int64_t nz_bytes = batch * c1 * n1 * 16 * c0 * elem;
  const int int8_padding = int8 && getenv("NPUCONF_NARROW_INT8_PADDING") != NULL;
  const char* fp16_batches = getenv("NPUCONF_NARROW_FP16_BATCHES");
  const int fp16_bug = to_nz && !int8 && !fp32 && batch > 1 && fp16_batches != NULL;
  if (fp16_bug && strcmp(fp16_batches, "segv") == 0) raise(SIGSEGV);
  if (to_nz) memset(dst, int8_padding ? 0x5A : 0, (size_t)nz_bytes);
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t r = 0; r < n; ++r) {
      const int64_t row = bug && r >= 16 && r < 31 ? r + 1 : r;
      for (int64_t col = 0; col < k; ++col) {
        const int64_t nd = (b * n + r) * k + col;
        const int64_t nz = nz_offset(b, row, col, n, k, c0);
        if (to_nz)
          memcpy(dst + nz * elem, in + nd * elem, (size_t)elem);
        else
          memcpy(dst + nd * elem, in + nz * elem, (size_t)elem);
      }
    }
  }
  if (fp16_bug && strcmp(fp16_batches, "zero") == 0) {
    const int64_t batch_bytes = c1 * n1 * 16 * c0 * elem;
    memset(dst + batch_bytes, 0, (size_t)(nz_bytes - batch_bytes));
  }
  if (to_nz) {
    int32_t d = 0;
    for (uint64_t i = 0; i + 2 < rank; ++i) out->dims[d++] = shape->ints[i];
    out->dims[d++] = c1;
    out->dims[d++] = n1;
    out->dims[d++] = 16;
    out->dims[d++] = c0;
    out->rank = d;
  } else {
    for (uint64_t i = 0; i < rank; ++i) out->dims[i] = shape->ints[i];
    out->rank = (int32_t)rank;
  }
  *vendor_status = 0;
  return NPUCONF_CALL_ANSWERED;
}

static const char* const g_claims[] = {
    "cann.nd_to_nz:*:dtype=FLOAT16|INT8,rank(shape)<=3",
    "cann.nz_to_nd:*:dtype=FLOAT16|INT8,rank(shape)<=3",
    NULL,
};

static const char* g_fp32_claims[] = {
    "cann.nd_to_nz:*:dtype=FLOAT16|INT8|FLOAT,rank(shape)<=3",
    "cann.nz_to_nd:*:dtype=FLOAT16|INT8|FLOAT,rank(shape)<=3",
    NULL,
    NULL,
};

static npuconf_port g_port = {NPUCONF_PORT_ABI_VERSION, "narrow", "1", g_claims, call};

__attribute__((visibility("default"))) const npuconf_port* npuconf_port_entry(
    uint32_t abi_version) {
  const char* reading = getenv("NPUCONF_NARROW_FP32_C0");
  if (reading) {
    g_fp32_claims[2] =
        strcmp(reading, "16") == 0 ? "choice:cann.nz.fp32_c0=16" : "choice:cann.nz.fp32_c0=8";
    g_port.claims = g_fp32_claims;
  }
  return abi_version == NPUCONF_PORT_ABI_VERSION ? &g_port : NULL;
}
