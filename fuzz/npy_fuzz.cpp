// A .npy side file of a vector (`npuconf vectors verify DIR` reads each with
// ReadNpy, which hands the file's bytes to ParseNpy): bounded by
// kMaxNpyHeaderBytes, refused with a message, never an exception. What it
// accepts is a header of the form it documents and every byte after it.
#include "core/npy.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace npuconf;
  NpyArray array;
  const std::string error = ParseNpy({data, size}, &array);
  if (!error.empty()) return 0;
  fuzz::Require(size >= 10, "an accepted .npy has its 10 bytes of preamble");
  const size_t header = data[8] | (static_cast<size_t>(data[9]) << 8);
  fuzz::Require(header <= kMaxNpyHeaderBytes, "an accepted header is within kMaxNpyHeaderBytes",
                std::to_string(header));
  fuzz::Require(array.data.size() == size - 10 - header,
                "an accepted .npy's data is every byte after its header",
                std::to_string(array.data.size()) + " of " + std::to_string(size - 10 - header));
  for (const int64_t dim : array.shape) {
    fuzz::Require(dim >= 0 && dim < (int64_t{1} << 62),
                  "every dim of an accepted shape is in [0, 2^62)", std::to_string(dim));
  }
  // What `vectors verify` does with it next: name it in a message.
  (void)ToString(array.shape);
  return 0;
}
