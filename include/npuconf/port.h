/* npuconf port ABI: the plain C contract between the conformance runner and an
 * implementation under test (a "port"). One entry function, one versioned table.
 *
 * Life cycle
 *   A port exports `const npuconf_port* npuconf_port_entry(uint32_t abi_version)`.
 *   The runner passes NPUCONF_PORT_ABI_VERSION; a port that cannot speak that
 *   version returns NULL. The table and every string it points to stay valid
 *   until the port library is unloaded.
 *
 * Ownership and units
 *   The RUNNER allocates every buffer: inputs and outputs. A port never
 *   allocates memory the runner must free and never keeps a pointer after
 *   `call` returns. Tensor sizes are in BYTES (`bytes`); shapes (`dims`) are in
 *   ELEMENTS. Sub-byte dtypes (INT4) pack two elements per byte; how they are
 *   packed is the routine's business (see the routine catalogue in README.md).
 *   An output's `bytes` is the capacity the runner allocated; writing past it is
 *   a conformance failure (the runner surrounds every output with guard bytes).
 *   An output whose `data` is NULL models a caller passing a null pointer.
 *
 * Statuses
 *   `call` returns an npuconf_call_result: whether the port answered at all.
 *   The VENDOR status of the routine (e.g. CANN 161002 ACLNN_ERR_PARAM_INVALID,
 *   RKNN -5 RKNN_ERR_PARAM_INVALID) goes into `*vendor_status`.
 *
 * Thread safety
 *   The runner calls `call` from one thread at a time. A port that keeps state
 *   must not rely on calls being ordered.
 *
 * Isolation
 *   The runner calls `call` in a child process (a long-lived worker that has
 *   loaded the library; `npuconf --in-process` opts out). Every input ends at
 *   a page boundary with an inaccessible guard behind it (as large as the
 *   buffer, 1 MiB to 64 MiB), and so does every output's capacity (`bytes`)
 *   and the `message` buffer: reading past an input or writing past an output
 *   faults, and a write into the padding between buffers fails the case too.
 *   Data pointers are therefore
 *   aligned only to the element size (a byte for INT4), not to 16 or 64 bytes.
 *   A crash, an exit() or _exit(), a C++ exception escaping `call`, or
 *   running longer than the per-case limit (default 10 s) fails that case,
 *   naming the fault; the worker is then restarted, so the port is loaded
 *   again (npuconf_port_entry runs again). Inputs are read-only; a port that
 *   writes to them does not change the case checked.
 */
#ifndef NPUCONF_PORT_H_
#define NPUCONF_PORT_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NPUCONF_PORT_ABI_VERSION 1u
#define NPUCONF_MAX_RANK 16

/* Element types. Names follow the vendors' (CANN aclDataType / RKNN
 * rknn_tensor_type); the numeric values are npuconf's own. */
typedef enum npuconf_dtype {
  NPUCONF_DT_INVALID = 0,
  NPUCONF_DT_FLOAT16 = 1,
  NPUCONF_DT_BF16 = 2,
  NPUCONF_DT_FLOAT = 3,
  NPUCONF_DT_INT8 = 4,
  NPUCONF_DT_UINT8 = 5,
  NPUCONF_DT_INT32 = 6,
  NPUCONF_DT_FLOAT8_E4M3FN = 7,
  NPUCONF_DT_HIFLOAT8 = 8,
  NPUCONF_DT_INT4 = 9,
  NPUCONF_DT_INT16 = 10,
  NPUCONF_DT_INT64 = 11,
  NPUCONF_DT_UINT64 = 12
} npuconf_dtype;

typedef enum npuconf_param_kind {
  NPUCONF_PARAM_NULL = 0, /* an explicit null pointer (e.g. tensorShape == nullptr) */
  NPUCONF_PARAM_INT = 1,
  NPUCONF_PARAM_FLOAT = 2,
  NPUCONF_PARAM_STRING = 3,
  NPUCONF_PARAM_INT_LIST = 4
} npuconf_param_kind;

/* One typed key/value parameter of a case. Only the member named by `kind` is
 * meaningful. */
typedef struct npuconf_param {
  const char* key;
  int32_t kind; /* npuconf_param_kind */
  int64_t i;
  double f;
  const char* s;
  const int64_t* ints; /* INT_LIST: `n_ints` values */
  uint64_t n_ints;
} npuconf_param;

/* A tensor descriptor. For inputs every field is set by the runner and is
 * read-only, `data` included: a port that writes to an input's bytes fails the
 * case. For outputs the runner sets name, data, bytes and dtype; the port
 * writes `rank` and `dims[0..rank)` (the storage shape it produced) into the
 * runner-owned `dims` array of NPUCONF_MAX_RANK entries. */
typedef struct npuconf_tensor {
  const char* name;
  void* data;     /* NULL models a null pointer from the caller */
  uint64_t bytes; /* inputs: bytes of data; outputs: capacity in bytes */
  int32_t dtype;  /* npuconf_dtype */
  int32_t rank;
  int64_t* dims; /* elements per axis, outermost first */
} npuconf_tensor;

/* One call of one routine. */
typedef struct npuconf_case {
  const char* routine; /* e.g. "cann.calculate_matmul_weight_size_v2" */
  const char* profile; /* e.g. "ascend910b" */
  const npuconf_param* params;
  uint64_t n_params;
  const npuconf_tensor* inputs;
  uint64_t n_inputs;
  npuconf_tensor* outputs;
  uint64_t n_outputs;
} npuconf_case;

typedef enum npuconf_call_result {
  NPUCONF_CALL_ANSWERED = 0,  /* the routine ran; see *vendor_status */
  NPUCONF_CALL_UNCLAIMED = 1, /* the port does not implement this case */
  NPUCONF_CALL_BAD_CASE = 2   /* the case is malformed for the ABI (missing key, …) */
} npuconf_call_result;

typedef struct npuconf_port {
  uint32_t abi_version; /* NPUCONF_PORT_ABI_VERSION */
  const char* name;
  const char* version;
  /* Claims: NUL-terminated array of strings (NULL: no claims), each one of
   *
   *   ROUTINE:PROFILE                 "cann.nd_to_nz:*"; '*' as a whole field matches any
   *   ROUTINE:PROFILE:COND[,COND...]  narrowed to the cases where every COND holds:
   *       KEY=V1|V2|...   the param's value, as `npuconf case` writes it, is listed
   *                       ("cann.nd_to_nz:ascend910b:dtype=FLOAT16|INT8")
   *       KEY%M==0        an int param (every element of an int-list param) is a
   *                       multiple of M > 0
   *       KEY<=V, KEY>=V  an int param (every element of an int list) is at most / least V
   *                       ("rknn.matmul_create:rk3588:K%32==0,N%32==0,K<=8192")
   *       rank(KEY)=R1|R2, rank(KEY)<=R, rank(KEY)>=R
   *                       the length of int-list param KEY ("cann.nd_to_nz:*:rank(shape)=2")
   *       KEY[I]=V1|V2, KEY[I]<=V, KEY[I]>=V, KEY[I]%M==0
   *                       element I (from 0) of int-list param KEY; a shorter list meets
   *                       none ("rknn.nc1hwc2_int8_to_nchw_float:*:shape[0]<=1", a batch-1
   *                       client)
   *     Conditions are typed: numbers compare as numbers and have one spelling
   *     (`3`, not `03`; `[64]`, not `[064]`: another is refused, naming it). A
   *     condition sees a case's EFFECTIVE values: a param the case leaves out
   *     takes its literal default, or the value the profile (its claimed
   *     readings applied) gives it (`profile_default` in `npuconf list routines
   *     --json`: a dtype's C0, the platform's sub-blocks and segment length, a
   *     reading). So "cann.nd_to_nz:ascend910b:c0=16|32" admits an INT8 case
   *     without c0 (INT8's C0 is 32 there) and no FLOAT one (C0 8). Null
   *     satisfies no condition. Several claims on one routine: a case is inside
   *     when any of them holds. A dtype is written as the case writes it
   *     (INT8, FLOAT16). The params that pick a case's input data (seed,
   *     verbatim values, a value distribution: "data" in `npuconf list
   *     routines --json`) cannot be narrowed: a port accepts shapes and modes,
   *     not the data it is fed.
   *   honours:ROUTINE:KEY             the port honours a caller-supplied value of KEY, a
   *                                   param whose default the profile decides
   *                                   ("honours:cann.nd_to_nz:c0"; '*' matches any). A
   *                                   case that sets such a param to another value than
   *                                   the profile's (c0=8 where FLOAT's C0 is 16) is
   *                                   inside the claims only with this claim.
   *   choice:NAME=VALUE               the reading the port implements of a behaviour the
   *                                   vendor leaves undefined or documents two ways
   *                                   ("choice:cann.size.negative_dims=param_invalid");
   *                                   that reading is the one checked and reported,
   *                                   whatever the profile's default.
   *
   * The runner validates claims when it loads the port: an unknown routine,
   * profile, param, enum value, dtype or choice, a condition on a data param,
   * or a reading the profile does not list, is an error (exit 2). Cases
   * outside the claims are not checked and are reported "not claimed" (never
   * "pass"); a property whose random phase finds fewer than a tenth of
   * --cases inside the claims gives up (non-conformant); a run in which
   * nothing is claimed exits 4. A case INSIDE the claims that `call` answers with
   * NPUCONF_CALL_UNCLAIMED fails that case. */
  const char* const* claims;
  /* Answers one case. `message` (may be NULL) receives a NUL-terminated note
   * of at most `message_bytes` bytes when the result is not ANSWERED. */
  int32_t (*call)(const npuconf_case* c, int64_t* vendor_status, char* message,
                  uint64_t message_bytes);
} npuconf_port;

typedef const npuconf_port* (*npuconf_port_entry_fn)(uint32_t abi_version);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* NPUCONF_PORT_H_ */
