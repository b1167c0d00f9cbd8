// Delta Spark's answers to predicates over rows: the other half of the predicate-semantics
// differential (tests/engines/predicate_semantics.py), against `rlc predicates`.
//
// Input: the cases `rlc predicates` reads, one JSON object per line, with the session time zone
// the engine evaluates them in:
//   {"id": "...", "schema": "<a Delta schemaString>", "zone": "America/Los_Angeles",
//    "rows": [["1", "2024-01-31T10:00:00Z", null], ...], "predicates": ["c0 > 1", ...]}
// The schema is read as Spark reads a Delta table's (DataType.fromJson); each cell is the value's
// text in its column's type, converted here as a reader of that type would hold it (a timestamp's
// text carries its zone, a timestamp_ntz's none). Every predicate is evaluated on every row as the
// WHERE clause of a Spark SQL query over those rows, once with ANSI mode on (Spark 4's default)
// and once off (older defaults), in the case's session zone. Output, one line per case:
//   {"id": "...", "ansi": [["TRUE", "FALSE", "UNKNOWN"] per predicate, or "ERROR: ..."],
//    "legacy": [...]}
//
// Usage: DeltaSparkPredicates CASES.jsonl OUT.jsonl
package rlc.engines;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

public final class DeltaSparkPredicates {
  private static final ObjectMapper JSON = new ObjectMapper();

  private DeltaSparkPredicates() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("usage: DeltaSparkPredicates CASES.jsonl OUT.jsonl");
      System.exit(2);
    }
    SparkSession spark = LocalDeltaSession.create("rlc-delta-spark-predicates", 1, null);
    // Instants, dates and wall clocks as java.time values, as the cells give them.
    spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
    List<String> lines = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
    try (BufferedWriter out = Files.newBufferedWriter(Path.of(args[1]), StandardCharsets.UTF_8)) {
      for (String line : lines) {
        if (line.isBlank()) continue;
        JsonNode c = JSON.readTree(line);
        ObjectNode answer = JSON.createObjectNode();
        answer.put("id", c.path("id").asText());
        spark.conf().set("spark.sql.session.timeZone", c.path("zone").asText("UTC"));
        StructType schema = (StructType) DataType.fromJson(c.path("schema").asText());
        Dataset<Row> rows = rowsOf(spark, schema, c.path("rows"));
        for (String mode : new String[] {"ansi", "legacy"}) {
          spark.conf().set("spark.sql.ansi.enabled", mode.equals("ansi") ? "true" : "false");
          ArrayNode answers = answer.putArray(mode);
          for (JsonNode predicate : c.path("predicates")) {
            answers.add(evaluate(rows, predicate.asText()));
          }
        }
        out.write(JSON.writeValueAsString(answer));
        out.newLine();
      }
    }
    spark.stop();
  }

  // The rows as a one-partition DataFrame, each with its index in __i (answers keep row order).
  private static Dataset<Row> rowsOf(SparkSession spark, StructType schema, JsonNode cells) {
    List<Row> rows = new ArrayList<>();
    for (int r = 0; r < cells.size(); ++r) {
      Object[] values = new Object[schema.fields().length + 1];
      values[0] = (long) r;
      for (int i = 0; i < schema.fields().length; ++i) {
        values[i + 1] = cell(schema.fields()[i].dataType(), cells.get(r).get(i));
      }
      rows.add(RowFactory.create(values));
    }
    StructType indexed = new StructType().add("__i", DataTypes.LongType, false);
    for (StructField f : schema.fields()) indexed = indexed.add(f);
    return spark.createDataFrame(rows, indexed).coalesce(1);
  }

  // A cell's text as Spark's external type for `type` holds it.
  private static Object cell(DataType type, JsonNode cell) {
    if (cell == null || cell.isNull()) return null;
    String text = cell.asText();
    if (type.equals(DataTypes.ByteType)) return Byte.valueOf(text);
    if (type.equals(DataTypes.ShortType)) return Short.valueOf(text);
    if (type.equals(DataTypes.IntegerType)) return Integer.valueOf(text);
    if (type.equals(DataTypes.LongType)) return Long.valueOf(text);
    if (type.equals(DataTypes.FloatType)) return Float.valueOf(text);
    if (type.equals(DataTypes.DoubleType)) return Double.valueOf(text);
    if (type.equals(DataTypes.BooleanType)) return Boolean.valueOf(text);
    if (type.equals(DataTypes.DateType)) return LocalDate.parse(text);
    if (type.equals(DataTypes.TimestampType)) return OffsetDateTime.parse(text).toInstant();
    if (type.equals(DataTypes.TimestampNTZType)) return LocalDateTime.parse(text);
    if (type.equals(DataTypes.StringType)) return text;
    throw new IllegalArgumentException("no cell of type " + type.simpleString());
  }

  // One predicate's answer per row, in row order, or the error Spark gave.
  private static JsonNode evaluate(Dataset<Row> rows, String predicate) {
    String truth =
        "CASE WHEN (" + predicate + ") IS NULL THEN 'UNKNOWN' WHEN (" + predicate
            + ") THEN 'TRUE' ELSE 'FALSE' END";
    try {
      List<Row> answered = rows.selectExpr("__i", truth).orderBy("__i").collectAsList();
      ArrayNode out = JSON.createArrayNode();
      for (Row r : answered) out.add(r.getString(1));
      return out;
    } catch (Exception e) {
      String message = String.valueOf(e.getMessage());
      int newline = message.indexOf('\n');
      return JSON.getNodeFactory()
          .textNode("ERROR: " + (newline < 0 ? message : message.substring(0, newline)));
    }
  }
}
