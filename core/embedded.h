// Files compiled into the binary by cmake/embed_json.cmake: the profiles of
// profiles/ and the real model shapes of vectors/real/.
#pragma once

namespace npuconf {

struct EmbeddedFile {
  const char* path;  // relative to its folder
  const char* text;
};

extern const EmbeddedFile kEmbeddedProfiles[];
extern const int kEmbeddedProfilesCount;
extern const EmbeddedFile kEmbeddedRealShapes[];
extern const int kEmbeddedRealShapesCount;

}  // namespace npuconf
