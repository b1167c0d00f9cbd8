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
// One JVM and one Spark session judge every case: start-up costs are paid once.
//
// Usage: DeltaSparkJudge CASES.jsonl OUT.jsonl
package rlc.engines;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Expression;
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
  private static final ObjectMapper JSON = new ObjectMapper();

  private DeltaSparkJudge() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("usage: DeltaSparkJudge CASES.jsonl OUT.jsonl");
      System.exit(2);
    }
    SparkSession spark =
        SparkSession.builder()
            .master("local[1]")
            .appName("rlc-delta-spark-judge")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "1")
            .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
            .config(
                "spark.sql.catalog.spark_catalog",
                "org.apache.spark.sql.delta.catalog.DeltaCatalog")
            .getOrCreate();
    spark.sparkContext().setLogLevel("ERROR");
    List<String> lines = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
    try (BufferedWriter out = Files.newBufferedWriter(Path.of(args[1]), StandardCharsets.UTF_8)) {
      for (String line : lines) {
        if (line.isBlank()) continue;
        JsonNode c = JSON.readTree(line);
        ObjectNode verdict = JSON.createObjectNode();
        verdict.put("id", c.path("id").asText());
        try {
          judge(spark, c, verdict);
        } catch (Exception e) {
          verdict.put("outcome", "error");
          verdict.put("message", String.valueOf(e));
        }
        out.write(JSON.writeValueAsString(verdict));
        out.newLine();
        out.flush();
      }
    }
    spark.stop();
  }

  // One case: the loser's transaction on a copy of its table, then the winners, then its commit.
  private static void judge(SparkSession spark, JsonNode c, ObjectNode verdict) throws Exception {
    Path table = Path.of(c.get("table").asText());
    long readVersion = c.get("readVersion").asLong();
    Path copy = Files.createTempDirectory("rlc-delta-spark-");
    try {
      copyTableAt(table, copy, readVersion);
      DeltaLog.clearCache();
      DeltaLog log = DeltaLog.forTable(spark, copy.toString());
      OptimisticTransaction txn = log.startTransaction(scala.Option.empty(), scala.Option.empty());
      if (txn.snapshot().version() != readVersion) {
        throw new IllegalStateException(
            "the copy reads version " + txn.snapshot().version() + ", not " + readVersion);
      }
      registerReads(spark, c, txn);
      for (JsonNode w : c.path("winners")) {
        String name = String.format("%020d.json", w.asLong());
        Files.copy(
            table.resolve("_delta_log").resolve(name), copy.resolve("_delta_log").resolve(name));
      }
      List<Action> actions = new ArrayList<>();
      boolean changesData = false;
      for (JsonNode a : c.path("actions")) {
        if (a.has("commitInfo")) continue;  // Delta writes its own
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

  // The loser's reads, registered as Delta's own operations register theirs.
  private static void registerReads(SparkSession spark, JsonNode c, OptimisticTransaction txn)
      throws Exception {
    if (c.path("readWholeTable").asBoolean(false)) txn.readWholeTable();
    boolean predicates = false;
    for (JsonNode p : c.path("readPredicates")) {
      // Delta's DML commands split their condition into conjuncts before filterFiles, so that
      // the partition-only ones are recognised as partition predicates.
      List<Expression> conjuncts = new ArrayList<>();
      splitConjuncts(spark.sessionState().sqlParser().parseExpression(p.asText()), conjuncts);
      txn.filterFiles(CollectionConverters.asScala(conjuncts).toSeq(), false);
      predicates = true;
    }
    if (!predicates && c.path("readFiles").size() > 0) {
      // No predicate, yet files read: an OPTIMIZE's compacted files (trackFilesRead).
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
    for (JsonNode a : c.path("actions")) {
      if (a.has("commitInfo")) {
        return a.get("commitInfo").path("operation").asText().equals("OPTIMIZE");
      }
    }
    return false;
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

  private static void splitConjuncts(Expression e, List<Expression> out) {
    if (e instanceof And and) {
      splitConjuncts(and.left(), out);
      splitConjuncts(and.right(), out);
    } else {
      out.add(e);
    }
  }

  // The table as it was at `version`: data and DV files, and the log up to that version.
  private static void copyTableAt(Path from, Path to, long version) throws IOException {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        Path rel = from.relativize(p);
        if (rel.toString().startsWith("_rlc")) continue;
        if (rel.getNameCount() == 2 && rel.getName(0).toString().equals("_delta_log")) {
          String name = rel.getFileName().toString();
          if (name.length() < 20 || !name.substring(0, 20).matches("[0-9]{20}")) continue;
          if (Long.parseLong(name.substring(0, 20)) > version || !name.endsWith(".json")) continue;
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
