#include "core/profile.h"

#include <algorithm>
#include <stdexcept>

#include "core/embedded.h"
#include "core/profile_json.h"

namespace npuconf {
namespace {

RankRange ParseRank(const nlohmann::json& value, const std::string& where) {
  if (!value.is_array() || value.size() != 2) {
    throw std::runtime_error(where + ": rank range must be [min, max]");
  }
  return RankRange{value[0].get<int>(), value[1].get<int>()};
}

CannFacts ParseCann(const nlohmann::json& doc, const std::string& where) {
  CannFacts facts;
  facts.soc_version = ProfileFact(doc, "soc_version", where).get<std::string>();
  facts.npu_arch = ProfileFact(doc, "npu_arch", where).get<std::string>();
  facts.is_regbase = ProfileFact(doc, "is_regbase", where).get<bool>();
  const auto& legacy = doc.at("calculate_matmul_weight_size");
  facts.legacy_size_rank = ParseRank(ProfileFact(legacy, "rank", where + ".legacy"), where);
  const auto& v2 = doc.at("calculate_matmul_weight_size_v2");
  facts.v2_size_supported = ProfileFact(v2, "soc_supported", where + ".v2").get<bool>();
  facts.v2_size_rank = ParseRank(ProfileFact(v2, "rank", where + ".v2"), where);
  if (const auto& validated = ProfileFact(v2, "validated_dtypes", where + ".v2");
      !validated.is_null()) {
    facts.v2_validated_dtypes.emplace();
    for (const auto& d : validated)
      facts.v2_validated_dtypes->push_back(ProfileDType(d.get<std::string>(), where + ".v2"));
  }
  const auto& trans = doc.at("trans_matmul_weight");
  for (const auto& name : ProfileFact(trans, "dtypes", where + ".trans")) {
    facts.trans_dtypes.push_back(ProfileDType(name.get<std::string>(), where));
  }
  facts.trans_max_view_rank = ProfileFact(trans, "max_view_rank", where + ".trans").get<int>();
  facts.trans_rank_int8 = ParseRank(ProfileFact(trans, "rank_int8", where + ".trans"), where);
  facts.trans_rank_other = ParseRank(ProfileFact(trans, "rank_other", where + ".trans"), where);
  facts.trans_empty_tensor =
      ProfileFact(trans, "empty_tensor", where + ".trans").get<std::string>();
  if (facts.trans_empty_tensor != "success_untouched" &&
      facts.trans_empty_tensor != "param_invalid") {
    throw std::runtime_error(where + ".trans.empty_tensor: '" + facts.trans_empty_tensor +
                             "' is neither success_untouched nor param_invalid");
  }
  const auto& wqbmm = doc.at("weight_quant_batch_matmul_v2");
  facts.antiquant_supported =
      ProfileFact(wqbmm, "soc_supported", where + ".weight_quant_batch_matmul_v2").get<bool>();
  facts.antiquant_kn_max =
      ProfileFact(wqbmm, "kn_max", where + ".weight_quant_batch_matmul_v2").get<int64_t>();
  const auto& nz = doc.at("fractal_nz");
  for (const auto& [name, c0] : ProfileFact(nz, "c0", where + ".fractal_nz").items()) {
    facts.nz_c0[ProfileDType(name, where)] = c0.get<int>();
  }
  return facts;
}

// Writes the facts the chosen reading of every choice implies into `doc`
// ("implies": {READING: {"section.fact": VALUE}}: an object VALUE is merged
// into the fact's value, anything else replaces it). A reading is data: the
// fact values it implies, applied here once, whether the reading is the
// profile's default or one a port claims (conformance/ports/claims.h).
void ApplyImpliedFacts(nlohmann::json* doc, const std::string& where) {
  for (const auto& c : doc->value("choices", nlohmann::json::array())) {
    if (!c.contains("implies")) continue;
    const std::string name = c.at("name").get<std::string>();
    const auto& implies = c.at("implies");
    for (const auto& r : c.at("readings")) {
      const std::string reading = r.is_string() ? r.get<std::string>() : r.dump();
      if (!implies.contains(reading)) {
        throw std::runtime_error(where + ".choices." + name + ".implies: no entry for reading '" +
                                 reading + "'");
      }
    }
    const std::string value =
        c.at("value").is_string() ? c.at("value").get<std::string>() : c.at("value").dump();
    if (!implies.contains(value)) {
      throw std::runtime_error(where + ".choices." + name + ": value '" + value +
                               "' is not a listed reading");
    }
    for (const auto& [path, implied] : implies.at(value).items()) {
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
  nlohmann::json doc = file;
  ApplyImpliedFacts(&doc, name);
  Profile profile;
  profile.name = name;
  profile.raw = doc;
  profile.family = doc.at("family").get<std::string>();
  profile.title = doc.value("title", name);
  profile.verified = doc.value("verified", true);
  for (const auto& c : doc.value("choices", nlohmann::json::array())) {
    Choice choice;
    choice.name = c.at("name").get<std::string>();
    choice.value =
        c.at("value").is_string() ? c.at("value").get<std::string>() : c.at("value").dump();
    for (const auto& r : c.at("readings")) {
      choice.readings.push_back(r.is_string() ? r.get<std::string>() : r.dump());
    }
    choice.source = c.at("source").get<std::string>();
    choice.note = c.value("note", "");
    for (const char* key : {"cannot_check", "contradicted"}) {
      const nlohmann::json notes = c.value(key, nlohmann::json::object());
      for (const auto& [reading, why] : notes.items()) {
        if (std::find(choice.readings.begin(), choice.readings.end(), reading) ==
            choice.readings.end()) {
          throw std::runtime_error(name + ".choices." + choice.name + "." + key + ": '" + reading +
                                   "' is not a listed reading");
        }
        (std::string(key) == "cannot_check" ? choice.cannot_check : choice.contradicted)[reading] =
            why.get<std::string>();
      }
    }
    for (const auto& d : c.value("applies_to", nlohmann::json::array())) {
      ProfileDType(d.get<std::string>(), name + ".choices." + choice.name + ".applies_to");
      choice.applies_to.push_back(d.get<std::string>());
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
    return j.is_object() && j.contains("value") && j.contains("source");
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
