#include "cli/families.h"

#include <cstring>
#include <map>

#include "conformance/cann/family.h"
#include "conformance/cann_convweight/family.h"
#include "conformance/cann_transdata/family.h"
#include "conformance/cann_transfer_shape/family.h"
#include "conformance/harness/runner.h"
#include "conformance/quant/family.h"
#include "conformance/rknn/family.h"
#include "conformance/rknn_native/family.h"
#include "mutants/cann_convweight_mutants.h"
#include "mutants/cann_transdata_mutants.h"
#include "mutants/cann_transfer_shape_mutants.h"
#include "reference/cann/cann_port.h"
#include "reference/cann_convweight/conv_weight_port.h"
#include "reference/cann_transdata/trans_data_port.h"
#include "reference/cann_transfer_shape/transfer_shape_port.h"
#include "reference/quant/quant_port.h"
#include "reference/rknn/rknn_port.h"
#include "reference/rknn_native/rknn_native_port.h"

namespace npuconf {

const std::vector<FamilyRegistration>& Families() {
  static const std::vector<FamilyRegistration> families = {
      {CannFamily, cann::CannReference, AddCannMutants},
      {RknnFamily, rknn::RknnReference, AddRknnMutants},
      {QuantFamily, quant::QuantReference, AddQuantMutants},
      {CannTransDataFamily, cann_transdata::CannTransDataReference, AddCannTransDataMutants},
      {RknnNativeFamily, rknn_native::RknnNativeReference, AddRknnNativeMutants},
      {CannConvWeightFamily, cann_convweight::CannConvWeightReference, AddCannConvWeightMutants},
      {CannTransferShapeFamily, cann_transfer_shape::CannTransferShapeReference,
       AddCannTransferShapeMutants},
  };
  return families;
}

const Suite& BuiltinSuite() {
  static const Suite suite = [] {
    std::vector<Family> families;
    for (const auto& f : Families()) families.push_back(f.conformance());
    return Suite(std::move(families));
  }();
  return suite;
}

namespace {

// Which family answers each routine id: exact ids, no prefixes.
const std::map<std::string, const ReferenceFamily*>& ReferenceByRoutine() {
  static const auto by_routine = [] {
    std::map<std::string, const ReferenceFamily*> out;
    for (const auto& f : Families()) {
      for (const auto& routine : f.reference().routines) out[routine.id] = &f.reference();
    }
    return out;
  }();
  return by_routine;
}

int32_t ReferenceCall(const npuconf_case* c, int64_t* status, char* message,
                      uint64_t message_bytes) {
  const auto& by_routine = ReferenceByRoutine();
  auto it = c && c->routine ? by_routine.find(c->routine) : by_routine.end();
  static const ReferenceFamily kNone;
  return AnswerWith(it == by_routine.end() ? kNone : *it->second, c, status, message,
                    message_bytes);
}

}  // namespace

std::vector<std::string> ReferenceClaims() {
  std::vector<std::string> claims;
  for (const auto& [id, family] : ReferenceByRoutine()) claims.push_back(id + ":*");
  // It honours every caller-supplied C0, sub-block, segment length and reading.
  claims.push_back("honours:*:*");
  for (const auto& f : Families()) {
    for (const auto& choice : f.reference().choice_claims) claims.push_back(choice);
  }
  return claims;
}

std::unique_ptr<Port> MakeReferencePort() { return MakeReferencePort(ReferenceClaims()); }

std::unique_ptr<Port> MakeReferencePort(std::vector<std::string> claims) {
  return std::make_unique<InProcessPort>("reference", NPUCONF_SUITE_VERSION, std::move(claims),
                                         ReferenceCall);
}

const std::vector<Mutant>& Mutants() {
  static const std::vector<Mutant> mutants = [] {
    std::vector<Mutant> out;
    for (const auto& f : Families()) f.add_mutants(&out);
    return out;
  }();
  return mutants;
}

const Mutant* FindMutant(const std::string& name) {
  for (const auto& mutant : Mutants()) {
    if (mutant.name == name) return &mutant;
  }
  return nullptr;
}

bool MutantChanges(const Mutant& mutant, const std::string& routine) {
  for (const std::string& glob : mutant.routines) {
    if (GlobMatch(glob, routine)) return true;
  }
  return false;
}

std::unique_ptr<Port> MakeMutantPort(const Mutant& mutant) {
  return MakeMutantPort(mutant, ReferenceClaims());
}

std::unique_ptr<Port> MakeMutantPort(const Mutant& mutant, std::vector<std::string> claims) {
  auto call = [&mutant](const npuconf_case* c, int64_t* status, char* message,
                        uint64_t message_bytes) {
    if (c && c->routine && MutantChanges(mutant, c->routine))
      return mutant.call(c, status, message, message_bytes);
    return ReferenceCall(c, status, message, message_bytes);
  };
  return std::make_unique<InProcessPort>("mutant:" + mutant.name,
                                         std::string(NPUCONF_SUITE_VERSION) + "-mutant",
                                         std::move(claims), call);
}

}  // namespace npuconf
