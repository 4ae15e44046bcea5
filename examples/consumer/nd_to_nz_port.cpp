// A port of one routine, cann.nd_to_nz (ND [..., n, k] → FRACTAL_NZ
// [..., C1, N1, 16, C0], padding 0; spec cann.md §2.5, INT4 nibbles §4.4), on the
// ascend910b profile: what a project re-implementing the NZ weight layout gates
// with npuconf_add_port_test (CMakeLists.txt beside this file).
//
// Built with -DNZ_PORT_PLANTED_BUG=ON it leaves the padding as it found it,
// as a port that assumes a zeroed output buffer would: npuconf must catch it.
#include <npuconf/port.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <vector>

namespace {

constexpr int64_t kH0 = 16;          // §2.5: n is split by 16 rows
constexpr int64_t kBlockBytes = 32;  // §2.5: C0 = 32 bytes / element size
constexpr int64_t kAclnnSuccess = 0;
constexpr int64_t kAclnnErrParamInvalid = 161002;

int ElementBits(int32_t dtype) {
  switch (dtype) {
    case NPUCONF_DT_INT4:
      return 4;
    case NPUCONF_DT_INT8:
    case NPUCONF_DT_UINT8:
    case NPUCONF_DT_FLOAT8_E4M3FN:
    case NPUCONF_DT_HIFLOAT8:
      return 8;
    case NPUCONF_DT_FLOAT16:
    case NPUCONF_DT_BF16:
    case NPUCONF_DT_INT16:
      return 16;
    case NPUCONF_DT_FLOAT:
    case NPUCONF_DT_INT32:
      return 32;
    default:
      return 0;
  }
}

const npuconf_param* FindParam(const npuconf_case& c, const char* key) {
  for (uint64_t i = 0; i < c.n_params; ++i) {
    if (std::strcmp(c.params[i].key, key) == 0) return &c.params[i];
  }
  return nullptr;
}

// The NZ geometry of an ND shape, sizes checked against int64 overflow.
struct Geometry {
  int64_t batch = 1, n = 1, k = 0, c0 = 0, n1 = 0, c1 = 0;
  int bits = 0;
  std::vector<int64_t> storage_dims;  // [batch dims..., C1, N1, 16, C0]
  uint64_t nd_bytes = 0, nz_bytes = 0;
};

std::optional<int64_t> Mul(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

std::optional<Geometry> GeometryFor(const int64_t* dims, uint64_t rank, int bits, int64_t c0) {
  if (rank == 0 || bits == 0 || c0 <= 0 || (bits == 4 && c0 % 2 != 0)) return std::nullopt;
  Geometry g;
  g.bits = bits;
  g.c0 = c0;
  g.k = dims[rank - 1];
  g.n = rank >= 2 ? dims[rank - 2] : 1;  // §2.5: a 1-D [k] is one row
  std::optional<int64_t> elems = 1;
  for (uint64_t i = 0; i < rank; ++i) {
    if (dims[i] < 0) return std::nullopt;
    if (i + 2 < rank) {
      g.batch *= dims[i];
      g.storage_dims.push_back(dims[i]);
    }
    if (elems) elems = Mul(*elems, dims[i]);
  }
  g.n1 = (g.n + kH0 - 1) / kH0;
  g.c1 = g.k / c0 + (g.k % c0 != 0);
  g.storage_dims.insert(g.storage_dims.end(), {g.c1, g.n1, kH0, c0});
  std::optional<int64_t> nz_elems = 1;
  for (int64_t d : g.storage_dims) {
    if (nz_elems) nz_elems = Mul(*nz_elems, d);
  }
  if (!elems || !nz_elems) return std::nullopt;
  const std::optional<int64_t> nd_bits = Mul(*elems, bits), nz_bits = Mul(*nz_elems, bits);
  if (!nd_bits || !nz_bits || g.storage_dims.size() > NPUCONF_MAX_RANK) return std::nullopt;
  g.nd_bytes = static_cast<uint64_t>((*nd_bits + 7) / 8);
  g.nz_bytes = static_cast<uint64_t>((*nz_bits + 7) / 8);
  return g;
}

uint8_t Nibble(const uint8_t* data, int64_t i) { return (data[i / 2] >> (i % 2 * 4)) & 0xF; }

void SetNibble(uint8_t* data, int64_t i, uint8_t v) {
  const int shift = i % 2 * 4;
  data[i / 2] = static_cast<uint8_t>((data[i / 2] & ~(0xF << shift)) | (v << shift));
}

// Element (b, r, c) of ND goes to NZ b·C1·N1·16·C0 + (c / C0)·N1·16·C0 + r·C0 + c mod C0.
void Pack(const uint8_t* nd, uint8_t* nz, const Geometry& g) {
#ifndef NZ_PORT_PLANTED_BUG
  std::memset(nz, 0, g.nz_bytes);  // the padding holds 0
#endif
  const int64_t block_elems = g.n1 * kH0 * g.c0;  // one C1 column block
  for (int64_t b = 0; b < g.batch; ++b) {
    for (int64_t r = 0; r < g.n; ++r) {
      const int64_t src_row = (b * g.n + r) * g.k;
      const int64_t dst_row = b * g.c1 * block_elems + r * g.c0;
      for (int64_t j = 0; j < g.c1; ++j) {
        const int64_t first = j * g.c0;
        const int64_t count = g.k - first < g.c0 ? g.k - first : g.c0;
        const int64_t src = src_row + first, dst = dst_row + j * block_elems;
        if (g.bits == 4) {
          for (int64_t e = 0; e < count; ++e) SetNibble(nz, dst + e, Nibble(nd, src + e));
        } else {
          const int64_t bytes = g.bits / 8;
          std::memcpy(nz + dst * bytes, nd + src * bytes, count * bytes);
        }
      }
    }
  }
}

int32_t Call(const npuconf_case* c, int64_t* vendor_status, char* message, uint64_t message_bytes) {
  if (std::strcmp(c->routine, "cann.nd_to_nz") != 0 || std::strcmp(c->profile, "ascend910b") != 0)
    return NPUCONF_CALL_UNCLAIMED;
  const npuconf_param* shape = FindParam(*c, "shape");
  if (shape == nullptr || shape->kind != NPUCONF_PARAM_INT_LIST || c->n_inputs != 1 ||
      c->n_outputs != 1) {
    if (message != nullptr) {
      std::snprintf(message, message_bytes, "needs an int-list 'shape', input nd and output nz");
    }
    return NPUCONF_CALL_BAD_CASE;
  }
  const npuconf_tensor& in = c->inputs[0];
  npuconf_tensor& out = c->outputs[0];
  const int bits = ElementBits(in.dtype);
  int64_t c0 = bits == 0 ? 0 : kBlockBytes * 8 / bits;
  if (const npuconf_param* explicit_c0 = FindParam(*c, "c0");
      explicit_c0 != nullptr && explicit_c0->kind == NPUCONF_PARAM_INT) {
    c0 = explicit_c0->i;
  }
  const std::optional<Geometry> g = GeometryFor(shape->ints, shape->n_ints, bits, c0);
  if (!g || in.bytes < g->nd_bytes || out.bytes < g->nz_bytes || (g->nz_bytes && !out.data) ||
      (g->nd_bytes && !in.data)) {
    *vendor_status = kAclnnErrParamInvalid;
    return NPUCONF_CALL_ANSWERED;
  }
  if (g->nz_bytes) Pack(static_cast<const uint8_t*>(in.data), static_cast<uint8_t*>(out.data), *g);
  out.rank = static_cast<int32_t>(g->storage_dims.size());
  for (size_t i = 0; i < g->storage_dims.size(); ++i) out.dims[i] = g->storage_dims[i];
  *vendor_status = kAclnnSuccess;
  return NPUCONF_CALL_ANSWERED;
}

const char* const kClaims[] = {"cann.nd_to_nz:ascend910b", nullptr};

const npuconf_port kPort = {
    .abi_version = NPUCONF_PORT_ABI_VERSION,
    .name = "consumer-nd-to-nz",
    .version = "1.0.0",
    .claims = kClaims,
    .call = Call,
};

}  // namespace

extern "C" __attribute__((visibility("default"))) const npuconf_port* npuconf_port_entry(
    uint32_t abi_version) {
  return abi_version == NPUCONF_PORT_ABI_VERSION ? &kPort : nullptr;
}
