#include "model/semantics/operation.h"

namespace rlc::model {
namespace {

std::string Values(const std::vector<Value>& values) {
  std::string s = "(";
  for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + ToString(values[i]);
  return s + ")";
}

std::string Rows(const std::vector<std::vector<Value>>& rows) {
  std::string s;
  for (size_t i = 0; i < rows.size(); ++i) s += (i ? ", " : "") + Values(rows[i]);
  return s;
}

std::string Set(const std::vector<Assignment>& set) {
  std::string s;
  for (size_t i = 0; i < set.size(); ++i)
    s += (i ? ", " : "") + set[i].column + " = " + ToString(set[i].value);
  return s;
}

std::string Where(const Predicate& p) {
  return p.kind == Predicate::Kind::kTrue ? "" : " WHERE " + ToString(p);
}

std::string And(const Predicate& p) {
  return p.kind == Predicate::Kind::kTrue ? "" : " AND " + ToString(p);
}

struct Describer {
  std::string operator()(const BlindInsert& op) { return "INSERT VALUES " + Rows(op.rows); }
  std::string operator()(const InsertSelect& op) {
    return "INSERT SELECT" + (op.overrides.empty() ? "" : " (" + Set(op.overrides) + ")") +
           Where(op.source);
  }
  std::string operator()(const Delete& op) { return "DELETE" + Where(op.where); }
  std::string operator()(const Update& op) { return "UPDATE SET " + Set(op.set) + Where(op.where); }
  std::string operator()(const Merge& op) {
    std::string s = "MERGE USING " + Rows(op.source_rows) + " ON " + op.key_column;
    for (const MergeClause& c : op.clauses) {
      switch (c.kind) {
        case MergeClause::Kind::kMatchedUpdate:
          s += " WHEN MATCHED" + And(c.condition) + " THEN UPDATE " +
               (c.set_from_source ? std::string("SET *") : "SET " + Set(c.set));
          break;
        case MergeClause::Kind::kMatchedDelete:
          s += " WHEN MATCHED" + And(c.condition) + " THEN DELETE";
          break;
        case MergeClause::Kind::kNotMatchedInsert:
          s += " WHEN NOT MATCHED" + And(c.condition) + " THEN INSERT";
          break;
        case MergeClause::Kind::kNotMatchedBySourceDelete:
          s += " WHEN NOT MATCHED BY SOURCE" + And(c.condition) + " THEN DELETE";
          break;
      }
    }
    return s;
  }
  std::string operator()(const Optimize& op) {
    if (op.zorder_by.empty()) return "OPTIMIZE";
    std::string s = "OPTIMIZE ZORDER BY (";
    for (size_t i = 0; i < op.zorder_by.size(); ++i) s += (i ? ", " : "") + op.zorder_by[i];
    return s + ")";
  }
  std::string operator()(const MetadataChange& op) {
    return "SET TBLPROPERTIES (" + op.key + " = '" + op.value + "')";
  }
  std::string operator()(const ProtocolChange& op) { return "ADD FEATURE " + op.add_feature; }
  std::string operator()(const IdempotentWrite& op) {
    return (*this)(op.insert) + " [txn " + op.app_id + " v" + std::to_string(op.version) + "]";
  }
  std::string operator()(const RowDelta& op) {
    return "a foreign commit removing " + std::to_string(op.removed.size()) +
           " row(s) and adding " + std::to_string(op.added.size()) + ", as its file actions say";
  }
};

struct Namer {
  std::string operator()(const BlindInsert&) { return "WRITE"; }
  std::string operator()(const InsertSelect&) { return "WRITE"; }
  std::string operator()(const Delete&) { return "DELETE"; }
  std::string operator()(const Update&) { return "UPDATE"; }
  std::string operator()(const Merge&) { return "MERGE"; }
  std::string operator()(const Optimize&) { return "OPTIMIZE"; }
  std::string operator()(const MetadataChange&) { return "SET TBLPROPERTIES"; }
  std::string operator()(const ProtocolChange&) { return "UPGRADE PROTOCOL"; }
  std::string operator()(const IdempotentWrite&) { return "WRITE"; }
  std::string operator()(const RowDelta&) { return "WRITE"; }
};

// MERGE's clauses as Spark SQL takes them: WHEN MATCHED ones, then WHEN NOT MATCHED, then WHEN
// NOT MATCHED BY SOURCE, each kind in the order written, and none after a clause of its kind
// without a condition (Spark allows only the last one to omit it). The meaning is the model's:
// clauses of different kinds never compete for a row, and within a kind the first whose condition
// holds wins, so nothing after an unconditional clause ever applies.
std::vector<MergeClause> SqlClauseOrder(const std::vector<MergeClause>& clauses) {
  using Kind = MergeClause::Kind;
  auto group = [](Kind k) {
    return k == Kind::kNotMatchedInsert ? 1 : k == Kind::kNotMatchedBySourceDelete ? 2 : 0;
  };
  std::vector<MergeClause> ordered;
  for (int g = 0; g < 3; ++g) {
    for (const MergeClause& c : clauses) {
      if (group(c.kind) != g) continue;
      ordered.push_back(c);
      if (c.condition.kind == Predicate::Kind::kTrue) break;
    }
  }
  return ordered;
}

const char* SqlType(ColumnType type) {
  switch (type) {
    case ColumnType::kLong:
      return "BIGINT";
    case ColumnType::kTimestamp:
      return "TIMESTAMP";
    case ColumnType::kTimestampNtz:
      return "TIMESTAMP_NTZ";
    case ColumnType::kDate:
      return "DATE";
    case ColumnType::kDouble:
      return "DOUBLE";
    case ColumnType::kFloat:
      return "FLOAT";
    case ColumnType::kBoolean:
      return "BOOLEAN";
    case ColumnType::kByte:
      return "TINYINT";
    case ColumnType::kShort:
      return "SMALLINT";
    case ColumnType::kInteger:
      return "INT";
    case ColumnType::kDecimal:
      return "DECIMAL(10,2)";
    case ColumnType::kBinary:
      return "BINARY";
    case ColumnType::kString:
      break;
  }
  return "STRING";
}

// Spark SQL text; conditions of a MERGE name their side (t: the target, s: the source), since
// both have every column.
struct SparkSqlWriter {
  const std::vector<Column>& schema;

  std::string operator()(const BlindInsert& op) {
    return "INSERT INTO {table} VALUES " + Rows(op.rows);
  }
  std::string operator()(const InsertSelect& op) {
    std::string columns;
    for (const Column& c : schema) {
      std::string value = c.name;
      for (const Assignment& a : op.overrides) {
        if (a.column == c.name)
          value = "CAST(" + ToString(a.value) + " AS " + SqlType(c.type) + ") AS " + c.name;
      }
      columns += (columns.empty() ? "" : ", ") + value;
    }
    return "INSERT INTO {table} SELECT " + columns + " FROM {table}" + Where(op.source);
  }
  std::string operator()(const Delete& op) { return "DELETE FROM {table}" + Where(op.where); }
  std::string operator()(const Update& op) {
    return "UPDATE {table} SET " + Set(op.set) + Where(op.where);
  }
  std::string operator()(const Merge& op) {
    std::string casts, names;
    for (size_t i = 0; i < schema.size(); ++i) {
      casts += std::string(i ? ", " : "") + "CAST(c" + std::to_string(i) + " AS " +
               SqlType(schema[i].type) + ") AS " + schema[i].name;
      names += std::string(i ? ", " : "") + "c" + std::to_string(i);
    }
    std::string s = "MERGE INTO {table} AS t USING (SELECT " + casts + " FROM VALUES " +
                    Rows(op.source_rows) + " AS v(" + names + ")) AS s ON t." + op.key_column +
                    " = s." + op.key_column;
    auto when = [](const Predicate& p, const char* side) {
      return p.kind == Predicate::Kind::kTrue ? std::string() : " AND " + ToString(p, side);
    };
    for (const MergeClause& c : SqlClauseOrder(op.clauses)) {
      switch (c.kind) {
        case MergeClause::Kind::kMatchedUpdate: {
          std::string set;
          for (const Assignment& a : c.set)
            set += (set.empty() ? "" : ", ") + ("t." + a.column) + " = " + ToString(a.value);
          s += " WHEN MATCHED" + when(c.condition, "t") + " THEN UPDATE " +
               (c.set_from_source ? std::string("SET *") : "SET " + set);
          break;
        }
        case MergeClause::Kind::kMatchedDelete:
          s += " WHEN MATCHED" + when(c.condition, "t") + " THEN DELETE";
          break;
        case MergeClause::Kind::kNotMatchedInsert:
          s += " WHEN NOT MATCHED" + when(c.condition, "s") + " THEN INSERT *";
          break;
        case MergeClause::Kind::kNotMatchedBySourceDelete:
          s += " WHEN NOT MATCHED BY SOURCE" + when(c.condition, "t") + " THEN DELETE";
          break;
      }
    }
    return s;
  }
  std::string operator()(const Optimize& op) {
    std::string s = "OPTIMIZE {table}";
    if (op.zorder_by.empty()) return s;
    s += " ZORDER BY (";
    for (size_t i = 0; i < op.zorder_by.size(); ++i) s += (i ? ", " : "") + op.zorder_by[i];
    return s + ")";
  }
  std::string operator()(const MetadataChange& op) {
    return "ALTER TABLE {table} SET TBLPROPERTIES ('" + op.key + "' = '" + op.value + "')";
  }
  std::string operator()(const ProtocolChange& op) {
    return "ALTER TABLE {table} SET TBLPROPERTIES ('delta.feature." + op.add_feature +
           "' = 'supported')";
  }
  std::string operator()(const IdempotentWrite&) { return ""; }
  std::string operator()(const RowDelta&) { return ""; }  // file actions, not a statement
};

}  // namespace

std::string Describe(const Operation& op) { return std::visit(Describer{}, op); }
std::string SparkSql(const Operation& op, const std::vector<Column>& schema) {
  return std::visit(SparkSqlWriter{schema}, op);
}
std::string OperationName(const Operation& op) { return std::visit(Namer{}, op); }

}  // namespace rlc::model
