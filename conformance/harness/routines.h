// The routine catalogue: every routine id a case may name, its params, and how
// a case becomes concrete buffers (inputs from the case's seed; outputs sized
// from the oracle's layout, so a port cannot widen its own capacity).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "conformance/ports/port_client.h"
#include "core/profile.h"

namespace npuconf {

struct RoutineInfo {
  std::string id;           // "cann.nd_to_nz"
  std::string family;       // "cann"
  std::string vendor_name;  // "aclnnCalculateMatmulWeightSizeV2", or "" for a layout
  std::string params;       // one line: the case params and their meaning
  std::string outputs;      // one line: outputs and their units
};

const std::vector<RoutineInfo>& Routines();
const RoutineInfo* FindRoutine(const std::string& id);

// A case that cannot be made concrete: unknown routine or profile, a missing or
// mistyped param, a shape too large to allocate. The CLI exits 2 on it.
class CaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Largest tensor (bytes) a case may ask the runner to allocate.
inline constexpr uint64_t kMaxCaseBytes = uint64_t{4} << 30;

// Throws CaseError.
Invocation Materialize(const Case& c, const Profile& profile);

// A family of routines ("cann.", "rknn.", …): registered in routines.cpp.
struct RoutineFamily {
  const char* prefix;
  void (*add_routines)(std::vector<RoutineInfo>* out);
  Invocation (*materialize)(const Case& c, const Profile& profile);
};
const std::vector<RoutineFamily>& RoutineFamilies();

// Helpers for the families' materializers; each throws CaseError naming the
// offending param or value.
Shape RequireShape(const Case& c, const char* key);
DType RequireDType(const Case& c, const char* key);
uint64_t Seed(const Case& c);                       // the `seed` param, 0 if absent
Bytes RandomBytes(uint64_t seed, uint64_t count);   // SplitMix64(seed) bytes
uint64_t ElemBytes(DType dtype, int64_t elems, const Shape& shape);  // checked, ≤ kMaxCaseBytes
bool OutputIsNull(const Case& c, const std::string& name);  // `name=null` in the case

// ---- CANN (conformance/cann_routines.cpp) ----
void AddCannRoutines(std::vector<RoutineInfo>* out);
Invocation MaterializeCann(const Case& c, const Profile& profile);
// The C0 a cann layout case uses: its `c0` param, else the profile's C0 for the dtype.
int64_t CaseC0(const Case& c, const Profile& profile);

// ---- dequant (conformance/quant_routines.cpp) ----
void AddCannAntiquantRoutines(std::vector<RoutineInfo>* out);
void AddCannGatherRoutines(std::vector<RoutineInfo>* out);
void AddRknnDequantRoutines(std::vector<RoutineInfo>* out);
Invocation MaterializeQuant(const Case& c, const Profile& profile);

// ---- RKNN (conformance/rknn_routines.cpp) ----
void AddRknnRoutines(std::vector<RoutineInfo>* out);
Invocation MaterializeRknn(const Case& c, const Profile& profile);

}  // namespace npuconf
