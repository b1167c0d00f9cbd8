// Mutants: deliberate bugs, one per abort-on-doubt guard or extension of the reconcile cases,
// compiled only into a build configured with -DRLC_MUTANTS=ON and selected at run time there
// (docs/decisions.md#mutants). The harness shows it catches each: the explorer must report an
// oracle violation, or `rlc prove` must refute an obligation.
//
// Concern: the switch only. A site reads `if (RLC_MUTANT("name")) ...`; in any other build the
// macro is the constant false and the site compiles to nothing, so production code carries no
// mutant. The list of mutants, with what each breaks, is the case catalogue's: a mutant belongs
// to the case it breaks (impl/conflict/case_catalogue.h), and a test holds every site's name to
// the catalogue and every catalogued mutant to a site. Selection: Select(), or the environment
// variable RLC_MUTANT=<name> read at the first query.
//
// Thread-safety: Select before starting threads; queries after that only read.
#ifndef RLC_IMPL_BASE_MUTANTS_H_
#define RLC_IMPL_BASE_MUTANTS_H_

#include <string_view>

namespace rlc::mutants {

// Whether this build carries the mutants (configured with -DRLC_MUTANTS=ON).
bool Compiled();
// Selects the mutant named `name` (at most kMaxNameLength characters; longer names select
// none); "" selects none.
void Select(std::string_view name);
// The selected mutant's name, "" for none.
std::string_view Selected();
bool IsSelected(std::string_view name);

inline constexpr size_t kMaxNameLength = 63;

}  // namespace rlc::mutants

#if defined(RLC_MUTANTS)
#define RLC_MUTANT(name) (::rlc::mutants::IsSelected(name))
#else
#define RLC_MUTANT(name) false
#endif

#endif  // RLC_IMPL_BASE_MUTANTS_H_
