#include "fuzz/race/race_ops.h"

#include <algorithm>
#include <string>

namespace rlc::race {
namespace {

using model::Predicate;

constexpr int64_t kSmallTableRows = 64;
constexpr int64_t kRowsPerFile = 10000;
// Half of the first file: two writers' DML meet in one file often (Cases 2 and 4), and the model
// the oracle replays holds these rows only (race.h).
constexpr int64_t kHotIds = 5000;

struct Picker {
  const RaceShape& shape;
  std::mt19937_64& rng;
  std::string tag;  // what an UPDATE or MERGE writes, naming its writer

  int64_t Id() { return static_cast<int64_t>(rng() % static_cast<uint64_t>(shape.hot_ids)) + 1; }
  Predicate ById() { return Predicate::Compare("id", Predicate::Op::kEq, Id()); }
  model::Operation Update() { return model::Update{ById(), {{"value", "u" + tag}}}; }
  model::Operation Delete() { return model::Delete{ById()}; }
  // An INSERT ... SELECT copies one original row under an id of the copies' range; now and then
  // the copies are deleted. (Copying rows under their own id would double them at every copy: a
  // long race would outgrow memory.)
  model::Operation Copy() {
    return model::InsertSelect{
        ById(),
        {{"id", shape.copy_base + static_cast<int64_t>(rng() % static_cast<uint64_t>(shape.rows))},
         {"value", std::string("copy")}}};
  }
  model::Operation DropCopies() {
    return model::Delete{Predicate::Compare("id", Predicate::Op::kGe, shape.copy_base)};
  }
  // MERGE on two ids: the first matched row deleted, the other updated (both matched clauses).
  model::Operation Merge() {
    const int64_t deleted = Id(), updated = Id();
    model::Merge m;
    m.key_column = "id";
    m.source_rows = {{deleted, std::string("m" + tag)}, {updated, std::string("m" + tag)}};
    m.clauses.push_back({model::MergeClause::Kind::kMatchedDelete,
                         Predicate::Compare("id", Predicate::Op::kEq, deleted),
                         {},
                         false});
    m.clauses.push_back({model::MergeClause::Kind::kMatchedUpdate,
                         Predicate::True(),
                         {{"value", std::string("m" + tag)}},
                         false});
    return m;
  }
};

}  // namespace

RaceShape ShapeOf(const RaceOptions& o) {
  RaceShape s;
  s.rows = o.rows;
  if (o.rows <= kSmallTableRows) {
    s.files = o.race_case == "2" ? 4 : 16;
    s.hot_ids = o.rows;
    return s;
  }
  s.files = static_cast<int>(std::max<int64_t>(2, (o.rows + kRowsPerFile - 1) / kRowsPerFile));
  s.hot_ids = std::min(o.rows, kHotIds);
  s.copy_base = o.rows * 10;
  s.insert_base = o.rows * 1000;
  // Two files' rows: an OPTIMIZE then compacts the hot first file (whose DVs the DML keeps
  // adding) with the next one or with the one-row files updates write, and so races the DML that
  // touches it (Case 4a); a bin of one file is left alone.
  s.optimize_target_rows = 2 * kRowsPerFile;
  return s;
}

model::LogicalTable StartingTable(const RaceOptions& o, const RaceShape& shape) {
  return TableOfIds(o, shape.rows);
}

model::LogicalTable ModelTable(const RaceOptions& o, const RaceShape& shape) {
  return TableOfIds(o, std::min(shape.rows, shape.hot_ids));
}

bool Reachable(const RaceShape& shape, int64_t id) {
  return id <= shape.hot_ids || id >= shape.copy_base;
}

model::LogicalTable TableOfIds(const RaceOptions& o, int64_t rows) {
  model::LogicalTable t = model::MakeTable(false);
  // Serializable by default: the oracle then has one order to replay. Under WriteSerializable the
  // commit order is tried first and explains a sound race; only if it does not are the orders in
  // which blind appends move enumerated (bounded: too many make the check "unknown", a problem).
  t.properties.isolation_level = o.isolation;
  for (int64_t id = 1; id <= rows; ++id) t.Insert({id, "v" + std::to_string(id)});
  return t;
}

model::Operation RlcOpFor(const RaceOptions& o, const RaceShape& shape, int proc, int64_t seq,
                          std::mt19937_64& rng) {
  Picker pick{shape, rng, std::to_string(proc) + "-" + std::to_string(seq)};
  const bool engine = !o.engine.empty();
  // UPDATEs: each deletes the old image by DV and keeps the row as a new image, so a long race
  // never runs dry; now and then process 0 compacts the one-row images back into shared files,
  // where two UPDATEs can meet again.
  if (o.race_case == "2")
    return proc == 0 && seq % 8 == 7 ? model::Operation{model::Optimize{}} : pick.Update();
  if (o.race_case == "3") {
    // Against another engine, its OPTIMIZE is the one the copies race.
    if (proc == 0 && !engine) return model::Optimize{};
    return rng() % 4 == 0 ? pick.DropCopies() : pick.Copy();
  }
  if (o.race_case == "1") {
    if (proc == 0)
      return model::BlindInsert{{{shape.insert_base + seq * o.procs + proc, std::string("new")}}};
    return pick.Update();
  }
  // Against another engine its DML is the winner, and rlc's processes all compact: rlc's own DML
  // would add files, which abort every DML of Delta's on an unpartitioned table.
  if (o.race_case == "4a")
    return proc == 0 || engine ? model::Operation{model::Optimize{}} : pick.Update();
  if (o.race_case == "4b") {
    // Against another engine, its OPTIMIZE wins and rlc's DML loses to it.
    if (!engine) return proc == 0 ? model::Operation{model::Optimize{}} : pick.Update();
    return rng() % 3 == 0 ? pick.Delete() : pick.Update();
  }
  switch (rng() % 7) {  // mixed
    case 0:
      return rng() % 3 == 0 ? pick.Delete() : pick.Update();
    case 1:
      return pick.Update();
    case 2:
      return model::BlindInsert{
          {{shape.copy_base + static_cast<int64_t>(rng() % static_cast<uint64_t>(shape.rows)),
            std::string("new")}}};
    case 3:
      return pick.Copy();
    case 4:
      return pick.DropCopies();
    default:
      return proc == 0 || rng() % 3 == 0 ? model::Operation{model::Optimize{}} : pick.Delete();
  }
}

model::Operation EngineOpFor(const RaceOptions& o, const RaceShape& shape, int engine_proc,
                             int64_t seq, std::mt19937_64& rng) {
  Picker pick{shape, rng, "s" + std::to_string(engine_proc) + "-" + std::to_string(seq)};
  auto dml = [&]() -> model::Operation {
    switch (seq % 3) {
      case 0:
        return pick.Delete();
      case 1:
        return pick.Update();
      default:
        return pick.Merge();
    }
  };
  if (o.race_case == "2" || o.race_case == "4a") return dml();  // winners of Cases 2 and 4a
  // Case 3's winner is an OPTIMIZE alone: rlc's copies give it one-row files to compact. (Its DML
  // besides would re-add the compacted file, which holds the rows every copy reads, with a new
  // DV: 1b keeps such a file, and the copies would abort on the DML, not meet the OPTIMIZE.)
  if (o.race_case == "3") return model::Optimize{};
  if (o.race_case == "4b") return seq % 4 == 3 ? dml() : model::Operation{model::Optimize{}};
  if (o.race_case == "1") {
    return model::BlindInsert{
        {{shape.insert_base * 2 + seq * o.engine_procs + engine_proc, std::string("spark")}}};
  }
  switch (seq % 5) {  // mixed
    case 0:
      return pick.Delete();
    case 1:
      return pick.Update();
    case 2:
      return pick.Merge();
    case 3:
      return model::Optimize{};
    default:
      return pick.Copy();
  }
}

}  // namespace rlc::race
