#include "reference/simd/isa.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace npuconf::simd {
namespace {

constexpr Isa kAllIsas[] = {Isa::kPortable, Isa::kAvx2, Isa::kAvx512, Isa::kNeon};

bool CpuRuns(Isa isa) {
  switch (isa) {
    case Isa::kPortable:
      return true;
    case Isa::kAvx2:
    case Isa::kAvx512: {
#if NPUCONF_HAVE_AVX512_KERNELS && NPUCONF_HAVE_AVX2_KERNELS
      // libgcc's and compiler-rt's cpu model check XCR0 too, so a kernel that
      // does not save the ymm / zmm state reports neither.
      static const bool avx2 = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
      }();
      static const bool avx512 = [] {
        __builtin_cpu_init();
        return avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
      }();
      return isa == Isa::kAvx2 ? avx2 : avx512;
#else
      return false;
#endif
    }
    case Isa::kNeon:
      return NPUCONF_HAVE_NEON_KERNELS != 0;
  }
  return false;
}

// What the environment asks for, decided once: the path, or why it is refused.
struct EnvironmentChoice {
  std::optional<Isa> isa;
  std::string error;
};

EnvironmentChoice ReadEnvironment() {
  EnvironmentChoice choice;
  const char* named = std::getenv("NPUCONF_ISA");
  const char* legacy = std::getenv("NPUCONF_FORCE_PORTABLE");
  const bool legacy_portable = legacy && *legacy && std::strcmp(legacy, "0") != 0;
  const std::string has = " (this CPU runs: " + SupportedIsaNames() + ")";
  if (!named || !*named) {
    if (legacy_portable) choice.isa = Isa::kPortable;
    return choice;
  }
  const std::optional<Isa> isa = IsaFromName(named);
  if (!isa) {
    choice.error = std::string("NPUCONF_ISA=") + named +
                   " names no kernel path; use portable, avx2, avx512 or neon" + has;
  } else if (!IsSupported(*isa)) {
    choice.error =
        std::string("NPUCONF_ISA=") + named + ": this CPU or build has no " + named + " path" + has;
  } else if (legacy_portable && *isa != Isa::kPortable) {
    choice.error = std::string("NPUCONF_ISA=") + named +
                   " contradicts NPUCONF_FORCE_PORTABLE=" + legacy +
                   " (its older spelling of NPUCONF_ISA=portable): unset one";
  } else {
    choice.isa = isa;
  }
  return choice;
}

const EnvironmentChoice& Environment() {
  static const EnvironmentChoice choice = ReadEnvironment();
  return choice;
}

std::atomic<Isa>& Active() {
  static std::atomic<Isa> active{[] {
    const EnvironmentChoice& env = Environment();
    if (!env.error.empty()) {
      std::fprintf(stderr, "npuconf: %s\n", env.error.c_str());
      std::exit(2);
    }
    return env.isa.value_or(DetectedIsa());
  }()};
  return active;
}

}  // namespace

const char* IsaName(Isa isa) {
  switch (isa) {
    case Isa::kPortable:
      return "portable";
    case Isa::kAvx2:
      return "avx2";
    case Isa::kAvx512:
      return "avx512";
    case Isa::kNeon:
      return "neon";
  }
  return "?";
}

std::optional<Isa> IsaFromName(std::string_view name) {
  for (Isa isa : kAllIsas) {
    if (name == IsaName(isa)) return isa;
  }
  return std::nullopt;
}

std::vector<Isa> SupportedIsas() {
  std::vector<Isa> isas;
  for (Isa isa : kAllIsas) {
    if (CpuRuns(isa)) isas.push_back(isa);
  }
  return isas;
}

bool IsSupported(Isa isa) { return CpuRuns(isa); }

Isa DetectedIsa() { return SupportedIsas().back(); }

std::string SupportedIsaNames() {
  std::string names;
  for (Isa isa : SupportedIsas()) names += (names.empty() ? "" : ", ") + std::string(IsaName(isa));
  return names;
}

std::string IsaEnvironmentError() { return Environment().error; }

Isa ActiveIsa() { return Active().load(std::memory_order_relaxed); }

bool SetIsa(Isa isa) {
  if (!IsSupported(isa)) return false;
  Active().store(isa, std::memory_order_relaxed);
  return true;
}

ScopedIsa::ScopedIsa(Isa isa) : previous_(ActiveIsa()) {
  if (!SetIsa(isa)) {
    std::fprintf(stderr, "npuconf: ScopedIsa(%s): this CPU runs only %s\n", IsaName(isa),
                 SupportedIsaNames().c_str());
    std::abort();
  }
}

ScopedIsa::~ScopedIsa() { SetIsa(previous_); }

}  // namespace npuconf::simd
