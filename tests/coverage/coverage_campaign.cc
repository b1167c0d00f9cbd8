// The campaign scripts/coverage.sh measures the cases' branches under: the explorer's generated
// histories and an exhaustive slice, with a fixed seed, in one small program (the coverage build
// then compiles only the library, the model and the harness, not the rlc tool's proofs).
//
// Usage: rlc_coverage_campaign RUNS EXHAUSTIVE_RUNS SEED. Exit 0 when both campaigns hold (no
// counterexample, no re-run that differed), 1 otherwise, 2 on a usage or run error.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz/explorer/explorer.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s RUNS EXHAUSTIVE_RUNS SEED\n", argv[0]);
    return 2;
  }
  int status = 0;
  for (const bool exhaustive : {false, true}) {
    rlc::explorer::ExploreOptions o;
    o.runs = std::strtoll(argv[exhaustive ? 2 : 1], nullptr, 10);
    o.seed = std::strtoull(argv[3], nullptr, 10);
    o.jobs = 2;
    o.exhaustive = exhaustive;
    const rlc::Result<rlc::explorer::Summary> s = rlc::explorer::Explore(o);
    if (!s.ok()) {
      std::fprintf(stderr, "coverage campaign: %s\n", s.status().ToString().c_str());
      return 2;
    }
    std::printf("%s: %lld histories, %lld counterexample(s), %lld re-run(s) differed\n",
                exhaustive ? "exhaustive slice" : "generated", static_cast<long long>(s->histories),
                static_cast<long long>(s->oracle_violations),
                static_cast<long long>(s->determinism_mismatches));
    if (s->oracle_violations > 0 || s->determinism_mismatches > 0) status = 1;
  }
  return status;
}
