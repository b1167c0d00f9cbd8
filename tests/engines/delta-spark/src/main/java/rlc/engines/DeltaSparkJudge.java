// The Delta Spark judge: OSS Delta Spark's own transaction API decides, for each case, whether a
// loser commits after its winners or aborts, and with which exception.
//
// Input: a file of cases, one JSON object per line, each a transaction rlc's simulator ran
// (fuzz/scenario's _rlc/transactions.jsonl) with where to find its table:
//   {"id": "...", "table": "/exported/table", "readVersion": 3,
//    "readPredicates": ["id = 2"], "readWholeTable": false, "readFiles": ["part-1.parquet"],
//    "readAppIds": [], "actions": [{"add": {...}}, ...], "winners": [4, 5]}
// For each case the table is copied as it was at readVersion (later commits, checkpoints and
// _last_checkpoint left out), a transaction starts on it, registers the loser's reads as Delta's
// own operations do (filterFiles with each predicate, which applies Delta's partition pruning and
// data skipping; readWholeTable; the files an OPTIMIZE compacts; txnVersion per application),
// then the winners' commit files are put in place, byte for byte, and the loser's actions are
// committed (its commitInfo left to Delta). Output, one JSON object per case and line:
//   {"id": "...", "outcome": "commit", "version": 5}
//   {"id": "...", "outcome": "abort", "exception": "ConcurrentAppendException", "message": "..."}
//   {"id": "...", "outcome": "error", "message": "..."}   (the case could not be judged)
// A line may instead ask Delta Spark to read a table, as any Spark job reads it (DVs applied):
//   {"kind": "read", "id": "...", "table": "/exported/table", "version": 3,
//    "columns": ["id", "value"]}
// answered with the live rows at that version, each a list in the order of `columns`:
//   {"id": "...", "outcome": "rows", "rows": [[1, "a"], [2, null]]}
// Or to run an operation itself, as SQL, on a copy of the table at a version:
//   {"kind": "operate", "id": "...", "table": "/exported/table", "readVersion": 3,
//    "sql": "DELETE FROM {table} WHERE id = 2", "readPredicates": ["id = 2"],
//    "readWholeTable": false, "extraReads": false, "copyOnWrite": false,
//    "columns": ["id", "value"], "wantRows": true}
// (copyOnWrite: Delta's DELETE, UPDATE and MERGE write no DVs), answered with the actions of the
// commit the statement wrote (none when it wrote nothing), what the statement's own transaction
// registered as read (null when it committed nothing or had no active transaction, as OPTIMIZE),
// the rows after (unless wantRows is false), and, when there are no statement reads or the request has extraReads (reads
// beyond the statement's), the files Delta's scan of the given read predicates reads:
//   {"id": "...", "outcome": "operated", "actions": [...] | null,
//    "statementReads": {"files": [...], "predicates": [...], "wholeTable": false} | null,
//    "rows": [...], "scanFiles": [...]}
// One JVM and one Spark session answer every line: start-up costs are paid once.
//
// Usage: DeltaSparkJudge CASES.jsonl OUT.jsonl
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
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.optimizer.ConstantFolding$;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.DeltaOperations;
import org.apache.spark.sql.delta.OptimisticTransaction;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.delta.actions.Action;
import org.apache.spark.sql.delta.actions.Action$;
import org.apache.spark.sql.delta.actions.AddFile;
import org.apache.spark.sql.delta.actions.DeletionVectorDescriptor;
import org.apache.spark.sql.delta.actions.RemoveFile;
import scala.jdk.javaapi.CollectionConverters;

public final class DeltaSparkJudge {
  // Delta's operations whose changesData is true (DeltaOperations), by commitInfo name.
  private static final java.util.Set<String> DATA_CHANGING_OPERATIONS =
      java.util.Set.of(
          "WRITE", "STREAMING UPDATE", "DELETE", "TRUNCATE", "CONVERT", "MERGE", "UPDATE",
          "CREATE TABLE AS SELECT", "REPLACE TABLE", "REPLACE TABLE AS SELECT",
          "CREATE OR REPLACE TABLE", "CREATE OR REPLACE TABLE AS SELECT", "RESTORE", "CLONE");

  private static final ObjectMapper JSON = new ObjectMapper();

  private DeltaSparkJudge() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("usage: DeltaSparkJudge CASES.jsonl OUT.jsonl");
      System.exit(2);
    }
    // One core: many small tables. Delta's own log store for local files, noting what each
    // statement registered as read when it commits (ReadRecordingLogStore).
    SparkSession spark =
        LocalDeltaSession.create("rlc-delta-spark-judge", 1, ReadRecordingLogStore.class);
    List<String> lines = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
    // Seconds and requests per kind, printed at the end: where a CI budget goes.
    java.util.TreeMap<String, long[]> spent = new java.util.TreeMap<>();
    try (BufferedWriter out = Files.newBufferedWriter(Path.of(args[1]), StandardCharsets.UTF_8)) {
      for (String line : lines) {
        if (line.isBlank()) continue;
        JsonNode c = JSON.readTree(line);
        ObjectNode verdict = JSON.createObjectNode();
        verdict.put("id", c.path("id").asText());
        String kind = c.path("kind").asText("judge");
        long started = System.nanoTime();
        try {
          if (kind.equals("read")) {
            read(spark, c, verdict);
          } else if (kind.equals("operate")) {
            operate(spark, c, verdict);
          } else {
            judge(spark, c, verdict);
          }
        } catch (Exception e) {
          verdict.put("outcome", "error");
          verdict.put("message", String.valueOf(e));
        }
        out.write(JSON.writeValueAsString(verdict));
        out.newLine();
        out.flush();
        long[] k = spent.computeIfAbsent(kind, x -> new long[2]);
        k[0] += System.nanoTime() - started;
        k[1] += 1;
      }
    }
    spent.forEach(
        (kind, k) ->
            System.err.printf("Delta Spark: %d %s requests in %.0f s%n", k[1], kind, k[0] / 1e9));
    spark.stop();
  }

  // One case: the loser's transaction on a copy of its table, then the winners, then its commit.
  private static void judge(SparkSession spark, JsonNode c, ObjectNode verdict) throws Exception {
    Path table = Path.of(c.get("table").asText());
    long readVersion = c.get("readVersion").asLong();
    Path copy = Files.createTempDirectory("rlc-delta-spark-");
    try {
      OptimisticTransaction txn = startOnCopyAt(spark, table, copy, readVersion);
      DeltaLog log = txn.deltaLog();
      registerReads(spark, c, txn, copy.toString());
      for (JsonNode w : c.path("winners")) {
        String name = String.format("%020d.json", w.asLong());
        Files.copy(
            table.resolve("_delta_log").resolve(name), copy.resolve("_delta_log").resolve(name));
      }
      List<Action> actions = new ArrayList<>();
      // Delta's operation for the commit: one that changes data when the loser's statement does
      // (its commitInfo names a data-changing operation) or a file action changes data. Under
      // WriteSerializable that keeps an empty DELETE at the table's level, as Delta's own DELETE.
      boolean changesData = false;
      for (JsonNode a : c.path("actions")) {
        if (a.has("commitInfo")) {
          changesData = changesData
              || DATA_CHANGING_OPERATIONS.contains(a.get("commitInfo").path("operation").asText());
          continue;  // Delta writes its own
        }
        if (a.has("add") || a.has("remove")) {
          JsonNode f = a.has("add") ? a.get("add") : a.get("remove");
          changesData = changesData || f.path("dataChange").asBoolean(true);
        }
        actions.add(Action$.MODULE$.fromJson(JSON.writeValueAsString(a)));
      }
      DeltaOperations.Operation op =
          changesData ? new DeltaOperations.Truncate() : DeltaOperations.ManualUpdate$.MODULE$;
      boolean optimize = isOptimize(c);
      for (int attempt = 0; ; ++attempt) {
        try {
          long version = txn.commit(CollectionConverters.asScala(actions).toSeq(), op);
          verdict.put("outcome", "commit");
          verdict.put("version", version);
          if (attempt > 0) verdict.put("optimizeRetries", attempt);
          return;
        } catch (Exception e) {
          Throwable t = e;
          while (t.getCause() != null
              && !t.getClass().getName().startsWith("io.delta.exceptions")) {
            t = t.getCause();
          }
          // OPTIMIZE's own retry (OptimizeExecutor.commitAndRetry): on a concurrent
          // modification it starts over on the latest version with the same actions while
          // every file it compacted is still active with the DV it read.
          if (optimize && attempt < 100 && isConcurrentModification(t)
              && compactedFilesStillActive(log, actions)) {
            txn = log.startTransaction(scala.Option.empty(), scala.Option.empty());
            continue;
          }
          verdict.put("outcome", "abort");
          verdict.put("exception", t.getClass().getSimpleName());
          verdict.put("message", String.valueOf(t.getMessage()));
          return;
        }
      }
    } finally {
      deleteTree(copy);
    }
  }

  // An operation run by Delta Spark itself on a copy of the table at the read version.
  private static void operate(SparkSession spark, JsonNode c, ObjectNode answer) throws Exception {
    Path table = Path.of(c.get("table").asText());
    long readVersion = c.get("readVersion").asLong();
    Path copy = Files.createTempDirectory("rlc-delta-spark-");
    try {
      // Pinned at the read version, never committed: its scan is the fallback below.
      OptimisticTransaction txn = startOnCopyAt(spark, table, copy, readVersion);
      // An engine that writes copy-on-write: Delta's DML without persistent DVs.
      String persistent = c.path("copyOnWrite").asBoolean(false) ? "false" : "true";
      for (String dml : new String[] {"delete", "update", "merge"}) {
        spark.conf().set("spark.databricks.delta." + dml + ".deletionVectors.persistent", persistent);
      }
      ReadRecordingLogStore.forget();
      spark.sql(c.get("sql").asText().replace("{table}", "delta.`" + copy + "`")).collect();
      Path commit = copy.resolve("_delta_log").resolve(String.format("%020d.json", readVersion + 1));
      ReadRecordingLogStore.Reads reads = null;
      if (Files.exists(commit)) {
        reads = ReadRecordingLogStore.last();
        ArrayNode actions = answer.putArray("actions");
        for (String line : Files.readAllLines(commit, StandardCharsets.UTF_8)) {
          if (!line.isBlank()) actions.add(JSON.readTree(line));
        }
        if (c.path("wantRows").asBoolean(true)) {  // a read of its own: only when compared
          answer.set("rows", rowsAt(spark, copy.toString(), readVersion + 1, c.path("columns")));
        }
      } else {
        answer.putNull("actions");
      }
      putStatementReads(answer, reads);
      // Where the statement's own reads cannot be compared (none noted, or the simulator's
      // transaction read beyond its statement): what Delta's scan of the given predicates reads.
      if (reads == null || c.path("extraReads").asBoolean(false)) {
        ArrayNode scan = answer.putArray("scanFiles");
        scanOf(spark, c, txn, copy).forEach(scan::add);
      }
      answer.put("outcome", "operated");
    } finally {
      deleteTree(copy);
    }
  }

  // The files a scan of the request's read predicates reads, as filterFiles registers them.
  private static TreeSet<String> scanOf(
      SparkSession spark, JsonNode c, OptimisticTransaction txn, Path copy) throws Exception {
    TreeSet<String> scanned = new TreeSet<>();
    if (c.path("readWholeTable").asBoolean(false)) {
      txn.snapshot().allFiles().collectAsList().forEach(a -> scanned.add(a.path()));
    }
    for (JsonNode p : c.path("readPredicates")) {
      List<Expression> conjuncts = resolvedConjuncts(spark, copy.toString(), p.asText());
      for (AddFile a :
          CollectionConverters.asJava(
              txn.filterFiles(CollectionConverters.asScala(conjuncts).toSeq(), false))) {
        scanned.add(a.path());
      }
    }
    return scanned;
  }

  // What the statement's own transaction registered as read (null: it committed with no active
  // transaction, as OPTIMIZE does).
  private static void putStatementReads(ObjectNode answer, ReadRecordingLogStore.Reads reads) {
    if (reads == null) {
      answer.putNull("statementReads");
      return;
    }
    ObjectNode out = answer.putObject("statementReads");
    reads.files().forEach(out.putArray("files")::add);
    reads.predicates().forEach(out.putArray("predicates")::add);
    out.put("wholeTable", reads.wholeTable());
  }

  // A table's live rows at a version, read by Delta Spark's own data source.
  private static void read(SparkSession spark, JsonNode c, ObjectNode answer) {
    answer.set(
        "rows",
        rowsAt(spark, c.get("table").asText(), c.get("version").asLong(), c.path("columns")));
    answer.put("outcome", "rows");
  }

  private static ArrayNode rowsAt(SparkSession spark, String table, long version, JsonNode names) {
    List<String> columns = new ArrayList<>();
    names.forEach(n -> columns.add(n.asText()));
    Dataset<Row> rows =
        spark.read().format("delta").option("versionAsOf", version).load(table);
    ArrayNode out = JSON.createArrayNode();
    for (Row row : rows.selectExpr(columns.toArray(new String[0])).collectAsList()) {
      ArrayNode values = out.addArray();
      for (int i = 0; i < row.length(); ++i) {
        Object v = row.get(i);
        if (v == null) {
          values.addNull();
        } else if (v instanceof Long l) {
          values.add(l);
        } else if (v instanceof Integer n) {
          values.add(n.longValue());
        } else {
          values.add(v.toString());
        }
      }
    }
    return out;
  }

  // A transaction on `copy`, the table as it was at `readVersion`.
  private static OptimisticTransaction startOnCopyAt(
      SparkSession spark, Path table, Path copy, long readVersion) throws IOException {
    copyTableAt(table, copy, readVersion);
    DeltaLog.clearCache();
    DeltaLog log = DeltaLog.forTable(spark, copy.toString());
    OptimisticTransaction txn = log.startTransaction(scala.Option.empty(), scala.Option.empty());
    if (txn.snapshot().version() != readVersion) {
      throw new IllegalStateException(
          "the copy reads version " + txn.snapshot().version() + ", not " + readVersion);
    }
    return txn;
  }

  // The loser's reads, registered as Delta's own operations register theirs.
  private static void registerReads(
      SparkSession spark, JsonNode c, OptimisticTransaction txn, String table) throws Exception {
    if (c.path("readWholeTable").asBoolean(false)) txn.readWholeTable();
    boolean predicates = false;
    for (JsonNode p : c.path("readPredicates")) {
      List<Expression> conjuncts = resolvedConjuncts(spark, table, p.asText());
      txn.filterFiles(CollectionConverters.asScala(conjuncts).toSeq(), false);
      predicates = true;
    }
    // A MERGE statement registers more files than a scan of its predicate here reads (its
    // predicate is one filter, which prunes no partition): its read files, which operation
    // fidelity holds to the files Delta's own MERGE statement registers, are tracked as read.
    boolean merge = "MERGE".equals(operationOf(c));
    if ((!predicates || merge) && c.path("readFiles").size() > 0) {
      // No predicate, yet files read (an OPTIMIZE's compacted files), or a MERGE's.
      List<String> paths = new ArrayList<>();
      c.path("readFiles").forEach(f -> paths.add(f.asText()));
      List<AddFile> read = new ArrayList<>();
      for (AddFile add : txn.snapshot().allFiles().collectAsList()) {
        if (paths.contains(add.path())) read.add(add);
      }
      txn.trackFilesRead(CollectionConverters.asScala(read).toSeq());
    }
    for (JsonNode app : c.path("readAppIds")) txn.txnVersion(app.asText());
  }

  private static boolean isOptimize(JsonNode c) {
    return "OPTIMIZE".equals(operationOf(c));
  }

  // The operation the loser's commitInfo names ("" when none).
  private static String operationOf(JsonNode c) {
    for (JsonNode a : c.path("actions")) {
      if (a.has("commitInfo")) return a.get("commitInfo").path("operation").asText();
    }
    return "";
  }

  private static boolean isConcurrentModification(Throwable t) {
    for (Class<?> k = t.getClass(); k != null; k = k.getSuperclass()) {
      if (k.getSimpleName().equals("ConcurrentModificationException")
          || k.getSimpleName().equals("DeltaConcurrentModificationException")) {
        return true;
      }
    }
    return false;
  }

  // Every file the actions remove is active in the latest snapshot, with the same DV.
  private static boolean compactedFilesStillActive(DeltaLog log, List<Action> actions) {
    List<String> active = new ArrayList<>();
    Snapshot latest = log.update(false, scala.Option.empty(), scala.Option.empty());
    for (AddFile add : latest.allFiles().collectAsList()) {
      active.add(add.path() + "|" + dvId(add.deletionVector()));
    }
    for (Action a : actions) {
      if (a instanceof RemoveFile r) {
        String key = r.path() + "|" + dvId(r.deletionVector());
        if (!active.contains(key)) return false;
      }
    }
    return true;
  }

  private static String dvId(DeletionVectorDescriptor dv) {
    return dv == null ? "" : dv.uniqueId();
  }

  // A read predicate as Delta's DML commands hand it to filterFiles: resolved against the table's
  // columns, its constants folded (data skipping recognises only resolved column references
  // compared with literals: `id >= cast(7 as bigint)` would read every file, where a real
  // `DELETE ... WHERE id >= 7` skips by statistics), and split into conjuncts (so that the
  // partition-only ones are recognised as partition predicates).
  static List<Expression> resolvedConjuncts(
      SparkSession spark, String table, String predicate) {
    org.apache.spark.sql.classic.Dataset<Row> filtered =
        (org.apache.spark.sql.classic.Dataset<Row>)
            spark.read().format("delta").load(table).where(predicate);
    LogicalPlan plan = ConstantFolding$.MODULE$.apply(filtered.queryExecution().analyzed());
    if (!(plan instanceof Filter filter)) {
      throw new IllegalStateException("`" + predicate + "` did not analyze to a filter: " + plan);
    }
    List<Expression> conjuncts = new ArrayList<>();
    splitConjuncts(filter.condition(), conjuncts);
    return conjuncts;
  }

  private static void splitConjuncts(Expression e, List<Expression> out) {
    if (e instanceof And and) {
      splitConjuncts(and.left(), out);
      splitConjuncts(and.right(), out);
    } else {
      out.add(e);
    }
  }

  // The table as it was at `version`: data and DV files, and the JSON log up to that version
  // (no checkpoint, nor what one names under _delta_log/_sidecars).
  private static void copyTableAt(Path from, Path to, long version) throws IOException {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        Path rel = from.relativize(p);
        if (rel.toString().startsWith("_rlc")) continue;
        if (rel.getNameCount() >= 2 && rel.getName(0).toString().equals("_delta_log")) {
          // A commit file only: a V2 checkpoint's top level is JSON too.
          String name = rel.getFileName().toString();
          if (rel.getNameCount() > 2 || !name.matches("[0-9]{20}\\.json")) continue;
          if (Long.parseLong(name.substring(0, 20)) > version) continue;
        }
        Path target = to.resolve(rel.toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> all = Files.walk(root)) {
      List<Path> paths = new ArrayList<>();
      all.forEach(paths::add);
      for (int i = paths.size() - 1; i >= 0; --i) Files.deleteIfExists(paths.get(i));
    }
  }
}
