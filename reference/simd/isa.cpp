#include "reference/simd/isa.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace npuconf::simd {
namespace {

bool ForcedByEnvironment() {
  const char* value = std::getenv("NPUCONF_FORCE_PORTABLE");
  return value && *value && std::strcmp(value, "0") != 0;
}

std::atomic<bool>& Forced() {
  static std::atomic<bool> forced{ForcedByEnvironment()};
  return forced;
}

}  // namespace

Isa DetectedIsa() {
#if NPUCONF_HAVE_AVX512_KERNELS
  // libgcc's and compiler-rt's cpu model check XCR0 too, so a kernel that
  // does not save the zmm state reports no AVX-512.
  static const bool avx512 = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
  }();
  return avx512 ? Isa::kAvx512 : Isa::kPortable;
#else
  return Isa::kPortable;
#endif
}

Isa ActiveIsa() {
  return Forced().load(std::memory_order_relaxed) ? Isa::kPortable : DetectedIsa();
}

void SetForcePortable(bool force) { Forced().store(force, std::memory_order_relaxed); }

const char* IsaName(Isa isa) { return isa == Isa::kAvx512 ? "avx512" : "portable"; }

ScopedForcePortable::ScopedForcePortable(bool force)
    : previous_(Forced().load(std::memory_order_relaxed)) {
  SetForcePortable(force);
}

ScopedForcePortable::~ScopedForcePortable() { SetForcePortable(previous_); }

}  // namespace npuconf::simd
