// The explorer's generator: random concurrent histories, as scenarios (fuzz/scenario/scenario.h),
// built from rapidcheck generators so that a failing history shrinks to a small one.
//
// Concern: what a history may contain. A starting table (1-3 files of up to 10 rows, sometimes
// partitioned, sometimes with NULLs, sometimes under column mapping, with partition values a path
// must escape; statistics, DVs and merge-on-read or copy-on-write drawn),
// 0-2 setup commits, then 2 to `max_writers` transactions, each one of the model's operations with
// a random predicate: DELETE, UPDATE, blind INSERT, INSERT ... SELECT, MERGE (matched update or
// delete, sometimes with net-new inserts or not-matched-by-source deletes), OPTIMIZE (bin-packing,
// interleaved, split or repartitioned writes, capture on or off, sometimes ZORDER), a property
// change, an idempotent write. In about three histories in ten every writer has every allowed
// reconcile flag on (the documented matrix's "with RLC" cells need both writers of a pair so);
// otherwise each transaction draws each allowed flag on or off on its own (swarm testing). The
// interleaving orders every start before its commit; transactions
// started after another committed read a later version. The isolation level is drawn too.
// One history in five is aimed: T1, the loser, starts first and commits last, past a carrier (an
// OPTIMIZE or a DML some case may reconcile against it), sometimes a witness (a blind append, a
// table change, a DML, often moving a file to another partition) and a follower; the classes a
// guard of the cases answers need those roles together, which free draws rarely cast.
//
// This header includes rapidcheck: keep it out of widely included files.
//
// Thread-safety: a generator is immutable; draw from it on any thread with its own rc::Random.
#ifndef RLC_FUZZ_EXPLORER_HISTORY_GENERATOR_H_
#define RLC_FUZZ_EXPLORER_HISTORY_GENERATOR_H_

#include <rapidcheck.h>

#include "fuzz/explorer/explore_options.h"
#include "fuzz/scenario/scenario.h"

namespace rlc::explorer {

rc::Gen<scenario::Scenario> GenHistory(const GeneratorOptions& options);

}  // namespace rlc::explorer

#endif  // RLC_FUZZ_EXPLORER_HISTORY_GENERATOR_H_
