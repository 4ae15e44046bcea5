// Catching a port that answers the same case two ways. Two checks, both for
// every routine without a line in any property:
//  - a failing case is answered a second time (ConfirmFailure): when the
//    verdicts differ, the failure says "non-deterministic" up front, so its
//    reproducer is not trusted to replay;
//  - AskTwicePort answers a sample of cases twice (those whose case text hashes
//    to 0 mod `every`, so `npuconf check` on the same case samples it again) and
//    compares call result, vendor status, reported dims and output bytes; a
//    difference is a fault of the call, which fails the case.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "conformance/harness/property.h"
#include "conformance/ports/port.h"
#include "core/digest.h"

namespace npuconf {

inline constexpr uint64_t kDefaultDeterminismEvery = 10;

// `first` is a failure of `check` on some case; asks again. Returns `first`,
// or, when the second verdict is a pass or another failure, `first` with a
// message starting "non-deterministic: ..." and *non_deterministic set.
Verdict ConfirmFailure(const std::function<Verdict()>& check, Verdict first,
                       bool* non_deterministic);

// Empty when the two answers to one invocation are the same; else what differs
// ("vendor status 0, then 161002", "output 'nz' byte 17: 0x03, then 0x00").
std::string CompareAnswers(const Answer& first, const Answer& second);

// Answers whose outputs hold more bytes than this are asked twice without
// keeping both: the first answer's outputs are kept as chunk digests
// (core/digest.h), the second answer is the one returned, and a difference is
// located to a 64 KiB chunk rather than a byte.
inline constexpr uint64_t kCompareWholeBytes = uint64_t{64} << 20;

// Empty when `second`'s outputs match the digests of a first answer's; else
// "output 'nz' bytes [65536, 131072) differ".
std::string CompareOutputDigests(const std::vector<ChunkDigests>& first, const Answer& second);

// The port under test, asking a sample of cases twice.
class AskTwicePort : public Port {
 public:
  // every == 0: never asks twice; 1: every case.
  AskTwicePort(const Port& inner, uint64_t every);
  Answer Call(const Invocation& invocation) const override;
  bool Restart() const override { return inner_.Restart(); }
  // Whether case `c` is asked twice: a hash of its text, so sampling is
  // reproducible from the case alone.
  static bool Sampled(const Case& c, uint64_t every);

 private:
  const Port& inner_;
  uint64_t every_;
};

}  // namespace npuconf
