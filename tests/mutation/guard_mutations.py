#!/usr/bin/env python3
"""Guard mutations: each entry removes one guard of the reconcile cases; the unit tests must fail
for every one (a test per guard that fails when the guard is removed). The guards are those of
docs/cases.md ("4b H1" is docs/cases.md#h1).

Usage: python3 tests/mutation/guard_mutations.py [NAME ...]   (no name: all)
Copies the tree to a scratch directory, builds rlc_impl_tests there once per mutation (-j1), and
prints, per guard, the tests that caught it or NOT CAUGHT. Exit 1 when a mutation is not caught or
no longer applies (the guard's text moved: update the entry). About two minutes per mutation.
"""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

M=[
 ("impl/conflict/no_data_change.cc", "&&\n        removed_since_read.count(delta::Snapshot::LogicalKey(path, add.deletion_vector)) == 0", "", "Case3 removed since read"),
 ("impl/conflict/no_data_change.cc", "const bool same_dv = active.has_value() == dv.has_value() && (!dv.has_value() || active->UniqueId() == dv->UniqueId());", "const bool same_dv = true; (void)dv;", "Case3 same DV"),
 ("impl/kernel/relocation.h", "    sane = d.And(sane, d.And(d.Le(d.Const(0), f.deleted_rows), d.Le(f.deleted_rows, *f.physical_rows)));\n", "", "Case3 sane counts"),
 ("impl/kernel/relocation.h", "  conserved = d.And(conserved, d.Eq(removed_live, added_live));", "(void)added_live;", "Case3 equal counts"),
 ("impl/kernel/relocation.h", "    some = d.Or(some, is_min ? d.ValueLe(it->second, added) : d.ValueLe(added, it->second));", "some = d.True(); (void)added;", "Case3 bounds"),
 ("impl/conflict/no_data_change.cc", "out.removes_left_out = has_relocation_removes && IsAppendOnly(loser);", "out.removes_left_out = has_relocation_removes;", "Case3 append-only"),
 ("impl/conflict/no_data_change.cc", "  out.conserved = kernel::RelocationConservesRows(ConcreteDomain{}, removed, added);\n  if (!out.conserved) return out;", "  out.conserved = kernel::RelocationConservesRows(ConcreteDomain{}, removed, added);\n  out.removes_left_out = has_relocation_removes && IsAppendOnly(loser);\n  if (!out.conserved) return out;", "Case3 removes need conservation"),
 ("impl/conflict/data_skipping.cc", "g.whole_table_read = in.loser.read_whole_table;", "g.whole_table_read = false;", "Case1 whole table"),
 ("impl/conflict/data_skipping.cc", "g.has_read_predicates = !in.loser.read_predicates.empty() && in.matcher.size() > 0;", "g.has_read_predicates = true;", "Case1 no predicates"),
 ("impl/conflict/data_skipping.cc", "    if (total > max_bytes) return survivors;\n", "", "Exact byte budget"),
 ("impl/conflict/data_skipping.cc", "  if (scan.stopped || !stats.has_value()) return true;", "  return true;", "Exact row count"),
 ("impl/conflict/data_skipping.cc", "  if (!bitmap.ok()) return std::nullopt;", "  if (!bitmap.ok()) return dv::RowBitmap();", "DV load failure"),
 ("impl/conflict/partition_filter.cc", "if (!truth.ok() || *truth == predicate::Truth::kTrue) return true;", "if (truth.ok() && *truth == predicate::Truth::kTrue) return true;", "Row evaluation error"),
 ("impl/conflict/data_skipping.cc", "  if (partitioned && !remove.partition_values.has_value()) return true;", "  (void)partitioned;", "1b null partition values"),
 ("impl/kernel/removed_rows.h", "  return d.Or(revives, d.Not(d.IsEmpty(d.Intersect(newly_deleted, matching))));", "  (void)revives; return d.Not(d.IsEmpty(d.Intersect(newly_deleted, matching)));", "1b revive"),
 ("impl/conflict/data_skipping.cc", "  return f.data_skipping && f.value_exact && !g.whole_table_read", "  return f.data_skipping && !g.whole_table_read", "1b needs exact flag"),
 ("impl/conflict/checker.cc", "if (flags.data_skipping && flags.value_exact) re_adds", "if (flags.data_skipping) re_adds", "1b re-add needs both flags"),
 ("impl/conflict/data_skipping.cc", "if (in.loser.flags.value_exact && !survivors.empty())", "if (!survivors.empty())", "Exact needs flag"),
 ("impl/kernel/removed_rows.h", "  return d.And(d.IsSubset(read_dv, post_dv), d.IsSubset(pre_dv, post_dv));", "  (void)pre_dv; return d.IsSubset(read_dv, post_dv);", "1b re-add superset"),
 ("impl/conflict/data_skipping.cc", "    if (seen == in.read_files.end()) continue;", "    if (seen == in.read_files.end()) { out[i] = true; continue; }", "1b re-add of a path the loser never saw"),
 ("impl/kernel/removed_rows.h", "  return d.And(d.IsSubset(read_dv, post_dv), d.IsSubset(pre_dv, post_dv));", "  (void)read_dv; return d.IsSubset(pre_dv, post_dv);", "1b re-add against the read DV"),
 ("impl/conflict/checker.cc", "    if (!delta_own.commits()) {", "    if (false) {", "WriteSerializable passed blind appends"),
 ("impl/conflict/checker.cc", "    if (!winner.is_blind_append && ChangesData(winner)) {", "    if (false) {", "WriteSerializable appends followed by a winner"),
 ("impl/conflict/data_skipping.cc", "  if (!StatisticsKeep(in, pre_stats, remove.partition_values.has_value() ? *remove.partition_values : kNoPartitionValues)) {\n    return false;\n  }", "", "1b stats shortcut (a capability: test must notice its absence)"),
]
M += [
 ("impl/conflict/row_level_concurrency.cc", "    if (!SameDv(winner_removes.at(path)->deletion_vector, loser_remove.deletion_vector)) continue;\n", "", "Case2 same pre-image"),
 ("impl/kernel/dv_merge.h", "  const typename D::Bool resolved = d.UnionTestingMeet(winner, loser, base, merged);", "  d.UnionTestingMeet(winner, loser, base, merged); const typename D::Bool resolved = d.IsSubset(d.Intersect(winner, loser), base);", "Case2 only added"),
 ("impl/kernel/dv_merge.h", "  const typename D::Bool resolved = d.UnionTestingMeet(winner, loser, base, merged);", "  d.UnionTestingMeet(winner, loser, base, merged); const typename D::Bool resolved = d.And(d.IsSubset(base, winner), d.IsSubset(base, loser));", "Case2 overlap"),
 ("impl/conflict/optimize_reconciliation.cc", "        !kernel::RunsTileOutput(Domain{}, runs, Int128(*rows))) {", "        false) {", "Case4 tiling"),
 ("impl/conflict/optimize_reconciliation.cc", "    if (!output_rows || !SameDv(winner_removes.at(path)->deletion_vector, tombstone.deletion_vector)) return;", "    if (!output_rows) return;", "4a same pre-image"),
 ("impl/kernel/remap.h", "  ok = d.And(ok, d.Le(d.Add(run.start, run.live), output_rows));\n", "", "Remap run within output"),
 ("impl/kernel/remap.h", "  ok = d.And(ok, d.IsSubset(compacted, before));\n", "", "Remap compacted within before"),
 ("impl/kernel/remap.h", "  ok = d.And(ok, d.DifferenceTestingSubset(after, before, newly_deleted));", "  d.DifferenceTestingSubset(after, before, newly_deleted);", "Remap no revival"),
 ("impl/kernel/remap.h", "    const typename D::Bool lands = d.And(d.Le(d.Const(0), rank), d.Lt(rank, run.live));", "    const typename D::Bool lands = d.Le(d.Const(0), rank);", "Remap rank within run"),
 ("impl/kernel/remap.h", "  return d.And(same_read, RemapOntoOutput(", "  (void)same_read; return d.And(d.True(), RemapOntoOutput(", "4b same read"),
 ("impl/conflict/optimize_reconciliation.cc", "  if (!kernel::EveryTouchedSourceRemapped(Domain{}, touched_numbers, remapped_numbers)) return;\n", "", "4b H1"),
 ("impl/conflict/optimize_reconciliation.cc", "    if (a.data_change) return;\n", "", "4b pure compaction"),
 ("impl/conflict/optimize_reconciliation.cc", "  if (referenced.size() != outputs.size()) return;\n", "", "4b every add an output"),
 ("impl/kernel/capture.h", "    ok = d.And(ok, d.And(d.Lt(d.Const(0), r.rows), d.Eq(r.rows, *source.live_rows)));", "    ok = d.And(ok, d.Lt(d.Const(0), r.rows));", "Capture run length"),
 ("impl/kernel/capture.h", "  if (bin.empty() || runs.size() != bin.size()) return tags;", "  if (bin.empty()) return tags;", "Capture one run per source"),
 ("impl/kernel/capture.h", "  if (shape.outputs != 1 || shape.tasks != 1 || shape.multi_dimensional) return tags;", "  if (shape.outputs != 1) return tags;", "Capture one task, no clustering"),
 ("impl/conflict/no_data_change.cc", "  if (!source_read) return;\n", "  return;\n", "Case3 reads follow relocation"),
]


def main():
    only = set(sys.argv[1:])
    mutations = [m for m in M if not only or m[3] in only]
    scratch = tempfile.mkdtemp(prefix="rlc-mutation-")
    work, build = os.path.join(scratch, "tree"), os.path.join(scratch, "build")
    shutil.copytree(ROOT, work, ignore=shutil.ignore_patterns("build*", ".git", "out"))
    # The real tables are found beside the tree, as in CI.
    shared = os.path.join(ROOT, "..", "shared")
    if os.path.isdir(shared):
        os.symlink(os.path.abspath(shared), os.path.join(scratch, "shared"))
    subprocess.run(["cmake", "-S", work, "-B", build, "-G", "Ninja", "-DRLC_BENCH=OFF", "-DRLC_WERROR=OFF"],
                   check=True, capture_output=True)
    failures = 0
    for path, old, new, name in mutations:
        target = os.path.join(work, path)
        original = open(target).read()
        if old not in original:
            print(f"{name}: MUTATION NO LONGER APPLIES ({path})", flush=True)
            failures += 1
            continue
        open(target, "w").write(original.replace(old, new, 1))
        try:
            built = subprocess.run(["cmake", "--build", build, "-j1", "--target", "rlc_impl_tests"],
                                   capture_output=True, text=True)
            if built.returncode != 0:
                print(f"{name}: the mutant does not build\n{built.stdout[-1500:]}", flush=True)
                failures += 1
                continue
            run = subprocess.run([os.path.join(build, "impl", "rlc_impl_tests"), "--gtest_brief=1"],
                                 capture_output=True, text=True)
            caught = [l.split()[3] for l in run.stdout.splitlines() if l.startswith("[  FAILED  ]") and "." in l]
            if run.returncode == 0:
                print(f"{name}: NOT CAUGHT", flush=True)
                failures += 1
            else:
                print(f"{name}: caught by {', '.join(caught[:4])}", flush=True)
        finally:
            open(target, "w").write(original)
    shutil.rmtree(scratch, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
