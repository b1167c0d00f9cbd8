// The counterexample printer: a Z3 model shown in the kernels' terms (sets of rows, integers,
// booleans), inputs first and then what the kernel computed from them, as Alive2 prints
// "Example:" followed by the source's and the target's values.
//
// Concern: decoding and rendering only. Which values an obligation shows is data (ShownValue),
// chosen by the obligation builder; the prover decides when to print. The decoded model is data
// too (DecodedCounterexample), so a test can replay it against the concrete kernel.
// Format, one line each:
//   inputs:  base = {1, 3}, winner = {1, 3, 5}, loser = {}
//   kernel:  resolved = true, merged = {1, 3, 5}
// A set lists its members in ascending order; an Int prints in decimal; a Bool as true/false.
// An unbounded set (an array) is shown over the rows 0..window-1 its obligation names: the rows
// where the kernel's positions fall in any counterexample small enough to read.
// Values the model leaves open are completed (any value would do), so the text is always total.
//
// Thread-safety: stateless functions; the model's context must be used from one thread.
#ifndef RLC_PROOFS_COUNTEREXAMPLE_H_
#define RLC_PROOFS_COUNTEREXAMPLE_H_

#include <z3++.h>

#include <cstdint>
#include <string>
#include <vector>

#include "proofs/z3_domain.h"

namespace rlc::proofs {

enum class ShownKind { kSet, kInt, kBool };

struct ShownValue {
  std::string name;
  ShownKind kind;
  std::vector<z3::expr> terms;  // a set's membership terms (element j at index j), or one term
};

// REQUIRES: window > 0 when the set is unbounded.
ShownValue ShowSet(const std::string& name, const Z3Domain::Set& set, int window = 0);
ShownValue ShowInt(const std::string& name, const z3::expr& value);
ShownValue ShowBool(const std::string& name, const z3::expr& value);

// One value under the model, decoded: the data a report prints and a test replays against the
// concrete kernel (proofs/mutant_replay_test.cc).
struct DecodedValue {
  std::string name;
  ShownKind kind = ShownKind::kBool;
  std::vector<int64_t> members;  // kSet: the members, ascending
  std::string decimal;   // kInt: the value in decimal (unbounded integers may exceed 64 bits)
  bool boolean = false;  // kBool
};

struct DecodedCounterexample {
  std::vector<DecodedValue> inputs;
  std::vector<DecodedValue> kernel_values;
  // REQUIRES: a value of that name and kind exists (RLC_ASSERT).
  const DecodedValue& Input(const std::string& name) const;
};

DecodedValue DecodeValue(const z3::model& model, const ShownValue& value);
DecodedCounterexample DecodeCounterexample(const z3::model& model,
                                           const std::vector<ShownValue>& inputs,
                                           const std::vector<ShownValue>& kernel_values);

// One value, e.g. "base = {1, 3}".
std::string PrintValue(const DecodedValue& value);

// The two lines above; a line with no values is left out.
std::string PrintCounterexample(const DecodedCounterexample& counterexample);

}  // namespace rlc::proofs

#endif  // RLC_PROOFS_COUNTEREXAMPLE_H_
