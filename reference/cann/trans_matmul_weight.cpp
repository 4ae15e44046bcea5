#include "reference/cann/trans_matmul_weight.h"

#include <sys/mman.h>

#include <cstring>
#include <memory>

#include "core/status.h"
#include "reference/cann/fractal_nz.h"

namespace npuconf::cann {
namespace {

// A private copy of `bytes` bytes. Large copies live in fresh anonymous memory
// asked for in 2 MiB pages: the page faults of 4 KiB pages, one per 4 KiB of
// a new buffer, made the in-place conversion of 64–256 MiB 4.0–6.3× memcpy
// (bench/nz_pack_bench BM_TransMatmulWeight), 2.5–2.8× with 2 MiB pages;
// MAP_POPULATE instead measured 5.7× at 256 MiB. The kernel may compact memory
// to find 2 MiB pages: one bench run right after a suite run took 24–38× at
// 256 MiB, the runs after it 2.5× again.
class ScratchCopy {
 public:
  ScratchCopy(const uint8_t* from, uint64_t bytes) : bytes_(bytes) {
    if (bytes >= kHugeScratchBytes) {
      void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p != MAP_FAILED) {
        mapped_ = static_cast<uint8_t*>(p);
        madvise(mapped_, bytes, MADV_HUGEPAGE);  // a hint: 4 KiB pages where refused
      }
    }
    // Default-initialised: value-initialising (vector::resize) wrote every
    // byte once more before the copy, a third pass over the weight
    // (in cache 4.0× the vector copy, see bench/run_benchmarks.sh).
    if (!mapped_) small_.reset(new uint8_t[bytes]);
    std::memcpy(data(), from, bytes);
  }
  ~ScratchCopy() {
    if (mapped_) munmap(mapped_, bytes_);
  }
  ScratchCopy(const ScratchCopy&) = delete;
  ScratchCopy& operator=(const ScratchCopy&) = delete;
  uint8_t* data() { return mapped_ ? mapped_ : small_.get(); }
  const uint8_t* data() const { return mapped_ ? mapped_ : small_.get(); }

 private:
  // glibc's malloc reuses freed heap memory below 32 MiB (its largest
  // dynamic mmap threshold), without new faults: the fresh-memory path starts there.
  static constexpr uint64_t kHugeScratchBytes = uint64_t{32} << 20;
  uint64_t bytes_;
  uint8_t* mapped_ = nullptr;
  std::unique_ptr<uint8_t[]> small_;
};

}  // namespace

int64_t TransMatmulWeight(const CannFacts& facts, const TransMatmulWeightArgs& args,
                          Shape* storage_shape) {
  if (args.null_tensor) return kAclnnErrParamNullptr;
  if (!facts.TransSupports(args.dtype)) return kAclnnErrParamInvalid;
  if (args.format != "ND") return kAclnnErrParamInvalid;
  const Shape& shape = args.view_shape;
  if (static_cast<int>(shape.size()) > facts.trans_max_view_rank) return kAclnnErrParamInvalid;
  for (int64_t dim : shape) {
    if (dim < 0) return kAclnnErrParamInvalid;
  }
  for (int64_t dim : shape) {
    if (dim == 0) {
      *storage_shape = shape;  // untouched: still ND with its view shape
      return kAclnnSuccess;
    }
  }
  const RankRange& rank_rule =
      args.dtype == DType::kInt8 ? facts.trans_rank_int8 : facts.trans_rank_other;
  if (!rank_rule.Contains(shape.size())) return kAclnnErrParamInvalid;

  auto c0 = facts.nz_c0.find(args.dtype);
  if (c0 == facts.nz_c0.end()) return kAclnnErrParamInvalid;
  auto geometry = NzGeometryFor(shape, args.dtype, c0->second);
  if (!geometry || args.data == nullptr || geometry->nd_bytes > args.capacity_bytes ||
      geometry->storage_bytes > args.capacity_bytes) {
    return kAclnnErrParamInvalid;
  }
  // The ND copy is the "contiguous" input of the l0 TransData; the NZ result
  // is then moved into the caller's buffer (§2.2 step 7).
  const ScratchCopy nd(args.data, geometry->nd_bytes);
  PackNdToNz(nd.data(), args.data, *geometry);
  *storage_shape = geometry->storage_shape;
  return kAclnnSuccess;
}

}  // namespace npuconf::cann
