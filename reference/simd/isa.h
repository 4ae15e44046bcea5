// Which instruction set the reference's fast kernels use, chosen once at run
// time: the best path this build has kernels for and this CPU and OS run, or
// the one NPUCONF_ISA names. Every path gives identical bytes; tests run each.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
// Functions marked NPUCONF_AVX512 may use AVX-512 intrinsics; call them only
// when ActiveIsa() == Isa::kAvx512. NPUCONF_AVX2 likewise for Isa::kAvx2
// (AVX2 with BMI2, no FMA: no kernel may fuse a rounding away).
#define NPUCONF_HAVE_AVX512_KERNELS 1
#define NPUCONF_HAVE_AVX2_KERNELS 1
#define NPUCONF_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx2,bmi2")))
#define NPUCONF_AVX2 __attribute__((target("avx2,bmi2")))
#else
#define NPUCONF_HAVE_AVX512_KERNELS 0
#define NPUCONF_HAVE_AVX2_KERNELS 0
#define NPUCONF_AVX512
#define NPUCONF_AVX2
#endif

#if defined(__aarch64__) && defined(__ARM_NEON)
// Advanced SIMD is part of the AArch64 base architecture: no attribute, but
// still dispatched, so NPUCONF_ISA=portable measures and tests the fallback.
#define NPUCONF_HAVE_NEON_KERNELS 1
#else
#define NPUCONF_HAVE_NEON_KERNELS 0
#endif

namespace npuconf::simd {

enum class Isa { kPortable, kAvx2, kAvx512, kNeon };

// The layout kernels stream (non-temporal stores) outputs of at least this
// many bytes: they leave the caches anyway, and streaming whole lines skips
// the read-for-ownership of each. Below it the output stays cached for the
// caller, as memcpy's does. NZ pack and unpack, int8/fp16 k 4096, streamed vs
// cached, × memcpy in the same process: 4 MiB 1.35-1.41 vs 1.23-1.33,
// 16 MiB 0.80-0.98 vs 1.38-1.49, 32 MiB 0.92-1.07 vs 1.25-1.58.
inline constexpr unsigned long long kStreamMinBytes = 8ull << 20;

// "portable", "avx2", "avx512", "neon": the names NPUCONF_ISA takes.
const char* IsaName(Isa isa);
std::optional<Isa> IsaFromName(std::string_view name);

// The paths this build has kernels for and this CPU and OS can run, portable
// first, best last (x86-64: AVX2 needs AVX2 + BMI2, AVX-512 needs F, BW, VL
// and DQ too; the OS must save the registers).
std::vector<Isa> SupportedIsas();
bool IsSupported(Isa isa);
// The best of SupportedIsas().
Isa DetectedIsa();
// "portable, avx2, avx512": SupportedIsas() as text, for messages.
std::string SupportedIsaNames();

// What NPUCONF_ISA asks for (NPUCONF_FORCE_PORTABLE=1, the older spelling,
// asks for portable): "" when unset or a supported path, else the message
// that refuses it, naming the value and what this CPU has. The CLI and the
// benchmarks check it first and exit 2; a program that does not and reaches a
// kernel with a refused value gets the message on stderr and exit 2, never a
// silent fallback.
std::string IsaEnvironmentError();

// What the kernels use now: NPUCONF_ISA's path at start-up, else
// DetectedIsa(); SetIsa() changes it.
Isa ActiveIsa();

// Thread-safe; takes effect for calls that start afterwards. Returns false,
// and changes nothing, for a path the CPU lacks.
bool SetIsa(Isa isa);

// For tests: runs the kernels on `isa` for its lifetime, then restores the
// previous path. `isa` must be supported (check IsSupported first).
class ScopedIsa {
 public:
  explicit ScopedIsa(Isa isa);
  ~ScopedIsa();
  ScopedIsa(const ScopedIsa&) = delete;
  ScopedIsa& operator=(const ScopedIsa&) = delete;

 private:
  Isa previous_;
};

}  // namespace npuconf::simd
