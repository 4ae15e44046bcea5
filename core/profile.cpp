#include "core/profile.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "core/embedded.h"
#include "core/profile_json.h"

namespace npuconf {
namespace {

int ProfileIntAsInt(const nlohmann::json& value, const std::string& where) {
  return static_cast<int>(
      ProfileInt(value, where, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}

RankRange ParseRank(const nlohmann::json& value, const std::string& where) {
  if (!value.is_array() || value.size() != 2) {
    throw std::runtime_error(where + ": rank range must be [min, max]");
  }
  return RankRange{ProfileIntAsInt(value[0], where + "[0]"),
                   ProfileIntAsInt(value[1], where + "[1]")};
}

CannFacts ParseCann(const nlohmann::json& doc, const std::string& where) {
  CannFacts facts;
  facts.soc_version = ProfileString(ProfileFact(doc, "soc_version", where), where + ".soc_version");
  facts.npu_arch = ProfileString(ProfileFact(doc, "npu_arch", where), where + ".npu_arch");
  facts.is_regbase = ProfileBool(ProfileFact(doc, "is_regbase", where), where + ".is_regbase");
  const std::string legacy_where = where + ".calculate_matmul_weight_size";
  const auto& legacy = ProfileMember(doc, "calculate_matmul_weight_size", where);
  facts.legacy_size_rank =
      ParseRank(ProfileFact(legacy, "rank", where + ".legacy"), legacy_where + ".rank");
  const std::string v2_where = where + ".calculate_matmul_weight_size_v2";
  const auto& v2 = ProfileMember(doc, "calculate_matmul_weight_size_v2", where);
  facts.v2_size_supported =
      ProfileBool(ProfileFact(v2, "soc_supported", where + ".v2"), v2_where + ".soc_supported");
  facts.v2_size_rank = ParseRank(ProfileFact(v2, "rank", where + ".v2"), v2_where + ".rank");
  if (const auto& validated = ProfileFact(v2, "validated_dtypes", where + ".v2");
      !validated.is_null()) {
    facts.v2_validated_dtypes.emplace();
    for (const auto& d : ProfileArray(validated, v2_where + ".validated_dtypes")) {
      facts.v2_validated_dtypes->push_back(
          ProfileDType(ProfileString(d, v2_where + ".validated_dtypes[]"), where + ".v2"));
    }
  }
  const std::string trans_where = where + ".trans_matmul_weight";
  const auto& trans = ProfileMember(doc, "trans_matmul_weight", where);
  for (const auto& name :
       ProfileArray(ProfileFact(trans, "dtypes", where + ".trans"), trans_where + ".dtypes")) {
    facts.trans_dtypes.push_back(
        ProfileDType(ProfileString(name, trans_where + ".dtypes[]"), where));
  }
  facts.trans_max_view_rank = ProfileIntAsInt(ProfileFact(trans, "max_view_rank", where + ".trans"),
                                              trans_where + ".max_view_rank");
  facts.trans_rank_int8 =
      ParseRank(ProfileFact(trans, "rank_int8", where + ".trans"), trans_where + ".rank_int8");
  facts.trans_rank_other =
      ParseRank(ProfileFact(trans, "rank_other", where + ".trans"), trans_where + ".rank_other");
  facts.trans_empty_tensor = ProfileString(ProfileFact(trans, "empty_tensor", where + ".trans"),
                                           trans_where + ".empty_tensor");
  if (facts.trans_empty_tensor != "success_untouched" &&
      facts.trans_empty_tensor != "param_invalid") {
    throw std::runtime_error(where + ".trans.empty_tensor: '" + facts.trans_empty_tensor +
                             "' is neither success_untouched nor param_invalid");
  }
  const std::string wqbmm_where = where + ".weight_quant_batch_matmul_v2";
  const auto& wqbmm = ProfileMember(doc, "weight_quant_batch_matmul_v2", where);
  facts.antiquant_supported =
      ProfileBool(ProfileFact(wqbmm, "soc_supported", wqbmm_where), wqbmm_where + ".soc_supported");
  facts.antiquant_kn_max =
      ProfileInt(ProfileFact(wqbmm, "kn_max", wqbmm_where), wqbmm_where + ".kn_max");
  const auto& nz = ProfileMember(doc, "fractal_nz", where);
  for (const auto& [name, c0] :
       ProfileObject(ProfileFact(nz, "c0", where + ".fractal_nz"), where + ".fractal_nz.c0")
           .items()) {
    facts.nz_c0[ProfileDType(name, where)] = ProfileIntAsInt(c0, where + ".fractal_nz.c0." + name);
  }
  return facts;
}

// The "choices" array of a profile document (none: an empty one).
const nlohmann::json& Choices(const nlohmann::json& doc, const std::string& where) {
  static const nlohmann::json kNone = nlohmann::json::array();
  const auto it = doc.find("choices");
  return it == doc.end() ? kNone : ProfileArray(*it, where + ".choices");
}

std::string ChoiceWhere(const std::string& where, size_t index) {
  return where + ".choices[" + std::to_string(index) + "]";
}

// Writes the facts the chosen reading of every choice implies into `doc`
// ("implies": {READING: {"section.fact": VALUE}}: an object VALUE is merged
// into the fact's value, anything else replaces it). A reading is data: the
// fact values it implies, applied here once, whether the reading is the
// profile's default or one a port claims (conformance/ports/claims.h).
void ApplyImpliedFacts(nlohmann::json* doc, const std::string& where) {
  const nlohmann::json& choices = Choices(*doc, where);
  for (size_t i = 0; i < choices.size(); ++i) {
    const auto& c = ProfileObject(choices[i], ChoiceWhere(where, i));
    if (!c.contains("implies")) continue;
    const std::string name = ProfileString(ProfileMember(c, "name", ChoiceWhere(where, i)),
                                           ChoiceWhere(where, i) + ".name");
    const auto& implies = ProfileObject(c.at("implies"), where + ".choices." + name + ".implies");
    for (const auto& r : ProfileArray(ProfileMember(c, "readings", where + ".choices." + name),
                                      where + ".choices." + name + ".readings")) {
      const std::string reading = r.is_string() ? r.get<std::string>() : r.dump();
      if (!implies.contains(reading)) {
        throw std::runtime_error(where + ".choices." + name + ".implies: no entry for reading '" +
                                 reading + "'");
      }
    }
    const auto& chosen = ProfileMember(c, "value", where + ".choices." + name);
    const std::string value = chosen.is_string() ? chosen.get<std::string>() : chosen.dump();
    if (!implies.contains(value)) {
      throw std::runtime_error(where + ".choices." + name + ": value '" + value +
                               "' is not a listed reading");
    }
    for (const auto& [path, implied] :
         ProfileObject(implies.at(value), where + ".choices." + name + ".implies." + value)
             .items()) {
      // "FACT" (top level) or "SECTION.FACT".
      const size_t dot = path.find('.');
      nlohmann::json* fact = nullptr;
      if (dot == std::string::npos && doc->contains(path)) {
        fact = &(*doc)[path];
      } else if (dot != std::string::npos && doc->contains(path.substr(0, dot)) &&
                 doc->at(path.substr(0, dot)).contains(path.substr(dot + 1))) {
        fact = &(*doc)[path.substr(0, dot)][path.substr(dot + 1)];
      }
      if (!fact || !fact->is_object() || !fact->contains("value")) {
        throw std::runtime_error(where + ".choices." + name + ".implies." + value + ": '" + path +
                                 "' names no fact (FACT or SECTION.FACT with a value)");
      }
      if (implied.is_object() && (*fact)["value"].is_object()) {
        (*fact)["value"].merge_patch(implied);
      } else {
        (*fact)["value"] = implied;
      }
    }
  }
}

}  // namespace

bool CannFacts::TransSupports(DType dtype) const {
  return std::find(trans_dtypes.begin(), trans_dtypes.end(), dtype) != trans_dtypes.end();
}

const Choice* Profile::FindChoice(const std::string& choice_name) const {
  for (const auto& choice : choices) {
    if (choice.name == choice_name) return &choice;
  }
  return nullptr;
}

Profile ParseProfile(const std::string& name, const nlohmann::json& file) {
  ProfileObject(file, name);
  nlohmann::json doc = file;
  ApplyImpliedFacts(&doc, name);
  Profile profile;
  profile.name = name;
  profile.raw = doc;
  profile.family = ProfileString(ProfileMember(doc, "family", name), name + ".family");
  if (doc.contains("title"))
    profile.title = ProfileString(doc.at("title"), name + ".title");
  else
    profile.title = name;
  if (doc.contains("verified"))
    profile.verified = ProfileBool(doc.at("verified"), name + ".verified");
  const nlohmann::json& choices = Choices(doc, name);
  for (size_t i = 0; i < choices.size(); ++i) {
    const auto& c = ProfileObject(choices[i], ChoiceWhere(name, i));
    Choice choice;
    choice.name = ProfileString(ProfileMember(c, "name", ChoiceWhere(name, i)),
                                ChoiceWhere(name, i) + ".name");
    const std::string where = name + ".choices." + choice.name;
    const auto& value = ProfileMember(c, "value", where);
    choice.value = value.is_string() ? value.get<std::string>() : value.dump();
    for (const auto& r : ProfileArray(ProfileMember(c, "readings", where), where + ".readings")) {
      choice.readings.push_back(r.is_string() ? r.get<std::string>() : r.dump());
    }
    choice.source = ProfileString(ProfileMember(c, "source", where), where + ".source");
    if (c.contains("note")) choice.note = ProfileString(c.at("note"), where + ".note");
    for (const char* key : {"cannot_check", "contradicted"}) {
      if (!c.contains(key)) continue;
      for (const auto& [reading, why] : ProfileObject(c.at(key), where + "." + key).items()) {
        if (std::find(choice.readings.begin(), choice.readings.end(), reading) ==
            choice.readings.end()) {
          throw std::runtime_error(name + ".choices." + choice.name + "." + key + ": '" + reading +
                                   "' is not a listed reading");
        }
        (std::string(key) == "cannot_check" ? choice.cannot_check : choice.contradicted)[reading] =
            ProfileString(why, where + "." + key + "." + reading);
      }
    }
    if (c.contains("applies_to")) {
      for (const auto& d : ProfileArray(c.at("applies_to"), where + ".applies_to")) {
        const std::string dtype = ProfileString(d, where + ".applies_to[]");
        ProfileDType(dtype, where + ".applies_to");
        choice.applies_to.push_back(dtype);
      }
    }
    profile.choices.push_back(std::move(choice));
  }
  if (profile.family == "cann") profile.cann = ParseCann(doc, name);
  if (profile.family == "rknn") {
    std::map<std::string, std::string> chosen;
    for (const auto& choice : profile.choices) chosen[choice.name] = choice.value;
    profile.rknn = ParseRknnFacts(doc, chosen, profile.verified, name);
  }
  return profile;
}

const std::vector<Profile>& BuiltinProfiles() {
  static const std::vector<Profile> profiles = [] {
    std::vector<Profile> out;
    for (int i = 0; i < kEmbeddedProfilesCount; ++i) {
      std::string path = kEmbeddedProfiles[i].path;
      std::string stem = path.substr(path.find_last_of('/') + 1);
      stem = stem.substr(0, stem.size() - std::string(".json").size());
      try {
        out.push_back(ParseProfile(stem, nlohmann::json::parse(kEmbeddedProfiles[i].text)));
      } catch (const std::exception& e) {
        throw std::runtime_error("profile " + path + ": " + e.what());
      }
    }
    std::sort(out.begin(), out.end(),
              [](const Profile& a, const Profile& b) { return a.name < b.name; });
    return out;
  }();
  return profiles;
}

std::vector<FactRow> ListFacts(const Profile& profile) {
  std::vector<FactRow> out;
  auto is_fact = [](const nlohmann::json& j) {
    return j.is_object() && j.contains("value") && j.contains("source") &&
           j.at("source").is_string();
  };
  for (const auto& [key, value] : profile.raw.items()) {
    if (key == "choices") continue;
    if (is_fact(value)) {
      out.push_back({key, value.at("value"), value.at("source").get<std::string>()});
    } else if (value.is_object()) {
      for (const auto& [sub, fact] : value.items()) {
        if (is_fact(fact))
          out.push_back({key + "." + sub, fact.at("value"), fact.at("source").get<std::string>()});
      }
    }
  }
  return out;
}

const Profile* FindProfile(const std::string& name) {
  for (const auto& profile : BuiltinProfiles()) {
    if (profile.name == name) return &profile;
  }
  return nullptr;
}

}  // namespace npuconf
