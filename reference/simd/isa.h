// Which instruction set the reference's fast kernels use, chosen once at run
// time: AVX-512 (F, BW, VL, DQ) where the CPU and OS have it, else portable C++.
// Both paths give identical bytes; tests force each in turn (SetForcePortable).
#pragma once

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
// Functions marked NPUCONF_AVX512 may use AVX-512 intrinsics; call them only
// when ActiveIsa() == Isa::kAvx512.
#define NPUCONF_HAVE_AVX512_KERNELS 1
#define NPUCONF_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx2,bmi2")))
#else
#define NPUCONF_HAVE_AVX512_KERNELS 0
#define NPUCONF_AVX512
#endif

namespace npuconf::simd {

enum class Isa { kPortable, kAvx512 };

// The layout kernels stream (non-temporal stores) outputs of at least this
// many bytes: they leave the caches anyway, and streaming whole lines skips
// the read-for-ownership of each. Below it the output stays cached for the
// caller, as memcpy's does. NZ pack and unpack, int8/fp16 k 4096, streamed vs
// cached, × memcpy in the same process: 4 MiB 1.35-1.41 vs 1.23-1.33,
// 16 MiB 0.80-0.98 vs 1.38-1.49, 32 MiB 0.92-1.07 vs 1.25-1.58.
inline constexpr unsigned long long kStreamMinBytes = 8ull << 20;

// What this CPU and OS support.
Isa DetectedIsa();

// What the kernels use now: DetectedIsa(), or kPortable when forced — by
// SetForcePortable(true) or by NPUCONF_FORCE_PORTABLE=1 in the environment at
// start-up (so a benchmark or a CLI run can measure the fallback).
Isa ActiveIsa();

// Thread-safe; takes effect for calls that start afterwards.
void SetForcePortable(bool force);

const char* IsaName(Isa isa);

// For tests: forces the portable path for its lifetime, then restores.
class ScopedForcePortable {
 public:
  explicit ScopedForcePortable(bool force);
  ~ScopedForcePortable();
  ScopedForcePortable(const ScopedForcePortable&) = delete;
  ScopedForcePortable& operator=(const ScopedForcePortable&) = delete;

 private:
  bool previous_;
};

}  // namespace npuconf::simd
