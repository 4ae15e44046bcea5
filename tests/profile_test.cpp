// Profile documents are read by typed accessors (core/profile_json.h): a value
// of the wrong type or range is a std::runtime_error naming where it is, never
// nlohmann's type_error or out_of_range (which name no key) and never a number
// converted past its type. Found by fuzz/profile_fuzz.cpp.
#include "core/profile.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace npuconf {
namespace {

// The message ParseProfile refuses `doc` with ("" when it parses).
std::string Refusal(const nlohmann::json& doc) {
  try {
    (void)ParseProfile("p", doc);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

nlohmann::json Builtin(const std::string& name) {
  const Profile* profile = FindProfile(name);
  EXPECT_NE(profile, nullptr) << name;
  return profile ? profile->raw : nlohmann::json();
}

TEST(ProfileJson, EveryBuiltinProfileParsesAgainFromItsDocument) {
  ASSERT_FALSE(BuiltinProfiles().empty());
  for (const Profile& profile : BuiltinProfiles())
    EXPECT_EQ(Refusal(profile.raw), "") << profile.name;
}

TEST(ProfileJson, ADocumentThatIsNoObjectIsRefused) {
  EXPECT_EQ(Refusal(nlohmann::json::array()), "p: [] is not an object");
  EXPECT_EQ(Refusal({{"family", 7}}), "p.family: 7 is not a string");
}

TEST(ProfileJson, AMatmulTypeWithoutBNamesTheRowAndKey) {
  nlohmann::json doc = Builtin("rk3588");
  doc["matmul_types"]["value"][1].erase("b");
  EXPECT_EQ(Refusal(doc), "p.matmul_types[1]: missing key 'b'");
}

TEST(ProfileJson, AFloatWhereAnIntIsIsRefusedNotConverted) {
  nlohmann::json doc = Builtin("rk3588");
  doc["matmul_types"]["value"][0]["type"] = 1e300;
  EXPECT_EQ(Refusal(doc),
            "p.matmul_types[0].type: 1e+300 is not an integer in [-2147483648, "
            "2147483647]");
}

// Before, 4294967304 was read as the int 8 without a word.
TEST(ProfileJson, AnIntegerPastItsFieldIsRefusedNotWrapped) {
  nlohmann::json doc = Builtin("ascend910b");
  doc["trans_matmul_weight"]["max_view_rank"]["value"] = 4294967304;
  EXPECT_EQ(Refusal(doc),
            "p.trans_matmul_weight.max_view_rank: 4294967304 is not an integer in "
            "[-2147483648, 2147483647]");
  doc = Builtin("rk3588");
  doc["tensor_types"]["value"]["INT8"] = 4294967298;
  EXPECT_EQ(Refusal(doc), "p.tensor_types.INT8: 4294967298 is not an integer in [0, 2147483647]");
}

TEST(ProfileJson, AChoiceFieldOfTheWrongTypeNamesTheChoice) {
  nlohmann::json doc = Builtin("ascend910b");
  ASSERT_TRUE(doc["choices"].is_array() && !doc["choices"].empty());
  const std::string name = doc["choices"][0]["name"];
  doc["choices"][0]["note"] = 3;
  EXPECT_EQ(Refusal(doc), "p.choices." + name + ".note: 3 is not a string");
  doc["choices"][0] = "x";
  EXPECT_EQ(Refusal(doc), "p.choices[0]: \"x\" is not an object");
}

}  // namespace
}  // namespace npuconf
