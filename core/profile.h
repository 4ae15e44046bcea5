// Profiles: one target (SoC / SDK version) as data, loaded from the JSON files
// of profiles/ that are embedded in the binary. Every value carries its source.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "core/rknn_facts.h"

namespace npuconf {

// A behaviour the vendor leaves undefined or documents two ways (spec "Uncertain /
// contradictory"). `value` is the reading this profile checks; `readings` lists
// every reading npuconf knows of. The report prints it next to dependent results.
struct Choice {
  std::string name;   // "cann.size.negative_dims"
  std::string value;  // "param_invalid"
  std::vector<std::string> readings;
  std::string source;
  std::string note;
  // Readings npuconf lists for the record but cannot check, each with why
  // (names the vendor never published, say): a port may not claim them.
  std::map<std::string, std::string> cannot_check;
  // Readings a device's behaviour contradicts, each with the evidence (a
  // device-observed row outranks a document: spec rknn.md §3.2a).
  std::map<std::string, std::string> contradicted;
  // The dtypes the reading decides, where it decides a per-dtype fact (C0 of
  // FLOAT/INT32, of INT4); empty otherwise.
  std::vector<std::string> applies_to;
  bool AppliesTo(std::string_view dtype) const {
    for (const auto& d : applies_to) {
      if (d == dtype) return true;
    }
    return false;
  }
};

struct RankRange {
  int min = 0;
  int max = 0;
  bool Contains(size_t rank) const {
    return static_cast<int64_t>(rank) >= min && static_cast<int64_t>(rank) <= max;
  }
};

// CANN facts of one SoC (spec cann.md §0–2).
struct CannFacts {
  std::string soc_version;         // "ASCEND910B"
  std::string npu_arch;            // "DAV_2201"
  bool is_regbase = false;         // §0.2 IsRegBase = {DAV_3510}
  RankRange legacy_size_rank;      // §1.3 step 3
  bool v2_size_supported = false;  // §1.4 step 1 (SoC gate)
  RankRange v2_size_rank;          // §1.4 step 4
  // §1.4 step 6, §5.1: the dtypes V2 accepts; nullopt: dataType is never
  // validated (as shipped; choice cann.v2.dtype_validation).
  std::optional<std::vector<DType>> v2_validated_dtypes;
  std::vector<DType> trans_dtypes;  // §2.3
  int trans_max_view_rank = 8;      // §2.2 step 4
  RankRange trans_rank_int8;        // §2.2 step 6
  RankRange trans_rank_other;       // §2.2 step 6
  // §2.2 step 5, §5.3: what an empty tensor gets, "success_untouched" (as
  // shipped) or "param_invalid" (as documented; choice cann.trans.empty_tensor).
  std::string trans_empty_tensor = "success_untouched";
  std::map<DType, int> nz_c0;        // §2.5 C0 table (with named choices applied)
  bool antiquant_supported = false;  // §4.1a step 1: the SoC has WeightQuantBatchMatmulV2
  int64_t antiquant_kn_max = 0;      // §4.3 "other limits": k, n <= this (INT64_MAX: none)
  bool TransSupports(DType dtype) const;
};

struct Profile {
  std::string name;    // file stem: "ascend910b"
  std::string family;  // "cann" or "rknn"
  std::string title;
  bool verified = true;  // false: tables not public; routines reported not covered
  std::vector<Choice> choices;
  std::optional<CannFacts> cann;
  std::optional<RknnFacts> rknn;
  nlohmann::json raw;  // the file as loaded, for reports

  const Choice* FindChoice(const std::string& name) const;
};

// One fact of a profile as `npuconf list facts` shows it: its path
// ("fractal_nz.c0", "k_segment"), value (the profile's readings applied) and
// the source it cites.
struct FactRow {
  std::string path;
  nlohmann::json value;
  std::string source;
};
// Every fact of the profile, in file order.
std::vector<FactRow> ListFacts(const Profile& profile);

// Parses one profile document; throws std::runtime_error naming the bad key.
// The facts each choice's reading implies ("implies") are written into the
// facts first, so a profile whose choice values are changed (a port's claimed
// readings) parses into the facts of those readings.
Profile ParseProfile(const std::string& name, const nlohmann::json& doc);

// The profiles compiled into the binary (profiles/**.json), sorted by name.
const std::vector<Profile>& BuiltinProfiles();
const Profile* FindProfile(const std::string& name);

}  // namespace npuconf
