#include "impl/predicate/schema.h"

#include <gtest/gtest.h>

#include "impl/predicate/bind.h"
#include "impl/predicate/parser.h"

namespace rlc::predicate {
namespace {

// Copied by hand from the log of the shared table delta__dv-with-columnmapping, version 0
// (metaData.schemaString; partitionColumns ["part"]; mode "name").
constexpr const char* kDvWithColumnMapping =
    R"({"type":"struct","fields":[{"name":"part","type":"integer","nullable":true,"metadata":{"delta.columnMapping.id":1,"delta.columnMapping.physicalName":"col-60c949ca-b8bc-4330-b931-b73fb4c60037"}},{"name":"col1","type":"integer","nullable":true,"metadata":{"delta.columnMapping.id":2,"delta.columnMapping.physicalName":"col-9f0743fd-a52e-44a7-92e0-72a3d34231b1"}},{"name":"col2","type":"string","nullable":true,"metadata":{"delta.columnMapping.id":3,"delta.columnMapping.physicalName":"col-ae46e8ed-607b-4b7c-8a13-44991fe0a2e4"}}]})";

// Copied by hand from the log of the shared table delta__table-with-dv-small, version 0
// (no partition columns; mode "name").
constexpr const char* kTableWithDvSmall =
    R"({"type":"struct","fields":[{"name":"value","type":"integer","nullable":true,"metadata":{"delta.columnMapping.id":1,"delta.columnMapping.physicalName":"col-4f064e48-f371-433a-b851-9e73c78fa9fc"}}]})";

constexpr const char* kNested =
    R"json({"type":"struct","fields":[
      {"name":"id","type":"long","nullable":false,"metadata":{}},
      {"name":"addr","type":{"type":"struct","fields":[
        {"name":"City","type":"string","nullable":true,"metadata":{"delta.columnMapping.physicalName":"c-city"}},
        {"name":"zip","type":"decimal(10,2)","nullable":true,"metadata":{"comment":{"x":[1,2]}}}]},
       "nullable":true,"metadata":{"delta.columnMapping.physicalName":"c-addr"}},
      {"name":"tags","type":{"type":"array","elementType":"string","containsNull":true},"nullable":true,"metadata":{}},
      {"name":"ts","type":"timestamp_ntz","nullable":true,"metadata":{}}]})json";

TEST(Schema, ColumnMappingByNameResolvesPhysicalNames) {
  delta::Metadata metadata;
  metadata.schema_string = kDvWithColumnMapping;
  metadata.partition_columns = {"part"};
  metadata.configuration = {{"delta.columnMapping.mode", "name"},
                            {"delta.enableDeletionVectors", "true"},
                            {"delta.columnMapping.maxColumnId", "3"}};
  Result<TableSchema> schema = TableSchema::FromMetadata(metadata);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  EXPECT_EQ(schema->mapping_mode(), ColumnMappingMode::kName);
  ASSERT_EQ(schema->fields().size(), 3u);

  Result<ResolvedColumn> col2 = schema->Resolve({"col2"});
  ASSERT_TRUE(col2.ok());
  EXPECT_EQ(col2->type, ColumnType::kString);
  EXPECT_EQ(col2->physical_path, ColumnPath{"col-ae46e8ed-607b-4b7c-8a13-44991fe0a2e4"});
  EXPECT_FALSE(col2->is_partition);

  Result<ResolvedColumn> part = schema->Resolve({"PART"});  // Spark resolves ignoring case
  ASSERT_TRUE(part.ok());
  EXPECT_EQ(part->logical_path, ColumnPath{"part"});
  EXPECT_EQ(part->type, ColumnType::kInteger);
  EXPECT_TRUE(part->is_partition);
  EXPECT_EQ(part->physical_path, ColumnPath{"col-60c949ca-b8bc-4330-b931-b73fb4c60037"});
}

TEST(Schema, SecondRealSchema) {
  Result<TableSchema> schema = TableSchema::Parse(kTableWithDvSmall, ColumnMappingMode::kName, {});
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  Result<ResolvedColumn> value = schema->Resolve({"value"});
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(value->type, ColumnType::kInteger);
  EXPECT_EQ(value->physical_path, ColumnPath{"col-4f064e48-f371-433a-b851-9e73c78fa9fc"});
  // In mode none the same schema's physical names differ from the logical ones: unresolved.
  Result<TableSchema> none = TableSchema::Parse(kTableWithDvSmall, ColumnMappingMode::kNone, {});
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->Resolve({"value"})->physical_path.has_value());
}

TEST(Schema, NestedFieldsMapEveryLevel) {
  Result<TableSchema> schema = TableSchema::Parse(kNested, ColumnMappingMode::kId, {});
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  Result<ResolvedColumn> city = schema->Resolve({"addr", "city"});
  ASSERT_TRUE(city.ok()) << city.status().ToString();
  EXPECT_EQ(city->logical_path, (ColumnPath{"addr", "City"}));
  EXPECT_EQ(city->physical_path, (ColumnPath{"c-addr", "c-city"}));
  EXPECT_EQ(schema->Resolve({"addr", "zip"})->type, ColumnType::kDecimal);
  // A level without a physical name in mode id: its statistics cannot be located.
  EXPECT_FALSE(schema->Resolve({"addr", "zip"})->physical_path.has_value());
  EXPECT_FALSE(schema->Resolve({"id"})->physical_path.has_value());
  EXPECT_EQ(schema->Resolve({"tags"})->type, ColumnType::kArray);
  EXPECT_EQ(schema->Resolve({"ts"})->type, ColumnType::kTimestampNtz);
  EXPECT_FALSE(schema->Resolve({"id"})->nullable);
}

TEST(Schema, NoMappingUsesLogicalNames) {
  Result<TableSchema> schema = TableSchema::Parse(kNested, ColumnMappingMode::kNone, {"id"});
  ASSERT_TRUE(schema.ok());
  EXPECT_EQ(schema->Resolve({"id"})->physical_path, ColumnPath{"id"});
  EXPECT_TRUE(schema->Resolve({"id"})->is_partition);
  // addr carries a physical name different from its name: ambiguous in mode none, so unused.
  EXPECT_FALSE(schema->Resolve({"addr", "zip"})->physical_path.has_value());
}

TEST(Schema, ResolutionErrorsNameTheColumn) {
  Result<TableSchema> schema = TableSchema::Parse(kNested, ColumnMappingMode::kNone, {});
  ASSERT_TRUE(schema.ok());
  Result<ResolvedColumn> missing = schema->Resolve({"addr", "street"});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "column addr.street does not exist in the table schema");
  Result<ResolvedColumn> not_struct = schema->Resolve({"id", "x"});
  ASSERT_FALSE(not_struct.ok());
  EXPECT_EQ(not_struct.status().message(), "column id.x: id is a long, not a struct");

  Result<TableSchema> twins = TableSchema::Parse(
      R"({"type":"struct","fields":[{"name":"a","type":"long"},{"name":"A","type":"long"}]})",
      ColumnMappingMode::kNone, {});
  ASSERT_TRUE(twins.ok());
  EXPECT_TRUE(twins->Resolve({"A"}).ok());  // exact match wins
  EXPECT_EQ(twins->Resolve({"a"})->logical_path, ColumnPath{"a"});
  EXPECT_FALSE(twins->Resolve({"b"}).ok());
}

TEST(Schema, AmbiguousNameIgnoringCaseIsRefused) {
  Result<TableSchema> twins = TableSchema::Parse(
      R"({"type":"struct","fields":[{"name":"ab","type":"long"},{"name":"AB","type":"long"}]})",
      ColumnMappingMode::kNone, {});
  ASSERT_TRUE(twins.ok());
  Result<ResolvedColumn> r = twins->Resolve({"Ab"});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("matches several fields"), std::string::npos);
}

TEST(Schema, MalformedSchemaStringsAreCorruptAndNameTheField) {
  const std::pair<const char*, const char*> cases[] = {
      {"[1]", "schemaString: expected an object with \"type\":\"struct\""},
      {"{", "schemaString: not a JSON document"},
      {R"({"type":"struct"})", "schemaString.fields: expected an array"},
      {R"({"type":"struct","fields":[{"type":"long"}]})",
       "schemaString.fields[0].name: expected a string"},
      {R"({"type":"struct","fields":[{"name":"a","type":"long"},{"name":"b","type":5}]})",
       "schemaString.fields[1].type: expected a type name or an object with a \"type\""},
      {R"({"type":"struct","fields":[{"name":"a","type":"long","nullable":"yes"}]})",
       "schemaString.fields[0].nullable: expected a boolean"},
      {R"({"type":"struct","fields":[{"name":"a","type":"long","metadata":{"delta.columnMapping.physicalName":7}}]})",
       "schemaString.fields[0].metadata.delta.columnMapping.physicalName: expected a non-empty "
       "string"},
      {R"({"type":"struct","fields":[{"name":"a","type":{"type":"struct","fields":[{"name":"b"}]}}]})",
       "schemaString.fields[0].type.fields[0].type: expected a type"},
  };
  for (const auto& [json, message] : cases) {
    Result<TableSchema> s = TableSchema::Parse(json, ColumnMappingMode::kNone, {});
    ASSERT_FALSE(s.ok()) << json;
    EXPECT_EQ(s.status().code(), StatusCode::kCorrupt) << json;
    EXPECT_EQ(s.status().message(), message) << json;
  }
}

// delta.typeChanges (type widening): each change's fromType, oldest first; a float widened to a
// double keeps a float's statistics in its old files; an unknown earlier type, none at all.
TEST(Schema, TypeChangesGiveTheTypeOfTheOldestStatistics) {
  auto resolve = [](const std::string& type, const std::string& changes) {
    const std::string text = R"({"type":"struct","fields":[{"name":"c","type":")" + type +
                             R"(","nullable":true,"metadata":{"delta.typeChanges":)" + changes +
                             "}}]}";
    Result<TableSchema> schema = TableSchema::Parse(text, ColumnMappingMode::kNone, {});
    EXPECT_TRUE(schema.ok()) << schema.status().ToString();
    return *schema->Resolve({"c"});
  };
  const ResolvedColumn widened = resolve("double", R"([{"fromType":"float","toType":"double"}])");
  EXPECT_EQ(widened.type, ColumnType::kDouble);
  EXPECT_EQ(widened.stats_type, ColumnType::kFloat);
  EXPECT_EQ(resolve("long", R"([{"fromType":"integer","toType":"long"}])").stats_type,
            ColumnType::kLong);
  EXPECT_EQ(resolve("double", R"([{"fromType":"byte","toType":"integer"},)"
                              R"({"fromType":"integer","toType":"double"}])")
                .stats_type,
            ColumnType::kDouble);
  EXPECT_EQ(resolve("long", R"j([{"fromType":"varchar(3)","toType":"long"}])j").stats_type,
            ColumnType::kOther);
  // A change of an array's element is not the field's own.
  EXPECT_EQ(resolve("double", R"([{"fromType":"float","toType":"double","fieldPath":"element"}])")
                .stats_type,
            ColumnType::kDouble);
  Result<TableSchema> bad = TableSchema::Parse(
      R"({"type":"struct","fields":[{"name":"c","type":"long","metadata":{"delta.typeChanges":[{"toType":"long"}]}}]})",
      ColumnMappingMode::kNone, {});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(bad.status().message().find("fields[0].metadata.delta.typeChanges[0].fromType"),
            std::string::npos)
      << bad.status().message();
}

// Under UTF8_LCASE 'ABC' = 'abc' holds; compared byte by byte, statistics min = max = 'ABC' would
// clear a file for `s = 'abc'` whose row the engine's predicate selects. A string under a
// collation other than UTF8_BINARY is a type rlc cannot compare: a comparison does not bind
// (the conflict check then treats every file as read), IS NULL still does.
TEST(Schema, AStringUnderACollationRlcDoesNotImplementCannotBeCompared) {
  auto schema = [](const std::string& collation) {
    return *TableSchema::Parse(
        R"({"type":"struct","fields":[{"name":"s","type":"string","nullable":true,)"
        R"("metadata":{"__COLLATIONS":{"s":")" +
            collation + R"("}}},{"name":"t","type":"string","nullable":true,"metadata":{}}]})",
        ColumnMappingMode::kNone, {});
  };
  const TableSchema lcase = schema("spark.UTF8_LCASE");
  EXPECT_EQ(lcase.Resolve({"s"})->type, ColumnType::kOther);
  EXPECT_EQ(lcase.fields()[0].type_text, "string collate spark.UTF8_LCASE");
  EXPECT_EQ(lcase.Resolve({"t"})->type, ColumnType::kString);
  EXPECT_FALSE(Bind(*ParsePredicate("s = 'abc'"), lcase).ok());
  EXPECT_TRUE(Bind(*ParsePredicate("s IS NULL"), lcase).ok());
  EXPECT_EQ(schema("icu.de_DE.75.1").Resolve({"s"})->type, ColumnType::kOther);
  EXPECT_EQ(schema("spark.UTF8_BINARY").Resolve({"s"})->type, ColumnType::kString);
  Result<TableSchema> bad = TableSchema::Parse(
      R"({"type":"struct","fields":[{"name":"s","type":"string","metadata":{"__COLLATIONS":{"s":1}}}]})",
      ColumnMappingMode::kNone, {});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("fields[0].metadata.__COLLATIONS.s"), std::string::npos)
      << bad.status().message();
}

TEST(Schema, DeepNestingIsRefused) {
  std::string json = R"({"type":"struct","fields":[)";
  for (int i = 0; i < 80; ++i) json += R"({"name":"a","type":{"type":"struct","fields":[)";
  json += R"({"name":"leaf","type":"long"})";
  for (int i = 0; i < 80; ++i) json += "]}}";
  json += "]}";
  Result<TableSchema> s = TableSchema::Parse(json, ColumnMappingMode::kNone, {});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("less nesting"), std::string::npos) << s.status().message();
}

TEST(Schema, MappingModes) {
  EXPECT_EQ(*ParseColumnMappingMode(std::nullopt), ColumnMappingMode::kNone);
  EXPECT_EQ(*ParseColumnMappingMode("none"), ColumnMappingMode::kNone);
  EXPECT_EQ(*ParseColumnMappingMode("Name"), ColumnMappingMode::kName);
  EXPECT_EQ(*ParseColumnMappingMode("id"), ColumnMappingMode::kId);
  Result<ColumnMappingMode> bad = ParseColumnMappingMode("physical");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kUnsupported);
}

// FromMetadata remembers the last schema read on the thread: each input it depends on (schema
// string, mapping mode, partition columns) must still change the answer.
TEST(Schema, FromMetadataAnswersEachMetadataForItself) {
  delta::Metadata mapped;
  mapped.schema_string = kDvWithColumnMapping;
  mapped.partition_columns = {"part"};
  mapped.configuration = {{"delta.columnMapping.mode", "name"}};
  delta::Metadata plain = mapped;
  plain.configuration.clear();
  delta::Metadata unpartitioned = mapped;
  unpartitioned.partition_columns.clear();
  delta::Metadata small = mapped;
  small.schema_string = kTableWithDvSmall;
  delta::Metadata broken = mapped;
  broken.schema_string = "{";
  for (int round = 0; round < 2; ++round) {
    Result<TableSchema> a = TableSchema::FromMetadata(mapped);
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->Resolve({"col2"})->physical_path,
              ColumnPath{"col-ae46e8ed-607b-4b7c-8a13-44991fe0a2e4"});
    EXPECT_TRUE(a->Resolve({"part"})->is_partition);
    Result<TableSchema> b = TableSchema::FromMetadata(plain);
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(b->mapping_mode(), ColumnMappingMode::kNone);
    // Without mapping, a physical name that differs from the name leaves the path unknown.
    EXPECT_FALSE(b->Resolve({"col2"})->physical_path.has_value());
    Result<TableSchema> c = TableSchema::FromMetadata(unpartitioned);
    ASSERT_TRUE(c.ok());
    EXPECT_FALSE(c->Resolve({"part"})->is_partition);
    Result<TableSchema> d = TableSchema::FromMetadata(small);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->fields().size(), 1u);
    EXPECT_FALSE(TableSchema::FromMetadata(broken).ok());
    EXPECT_FALSE(TableSchema::FromMetadata(broken).ok());  // a refusal is remembered as a refusal
  }
}

}  // namespace
}  // namespace rlc::predicate
