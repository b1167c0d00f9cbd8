// Delta Spark's side of bench/engines_bench.py, timed inside this JVM after warm-up runs.
//
//   DeltaSparkBench check DIR RUNS
//     DIR as `rlc_engines_side check-fixture` writes it. A transaction is started on version 0 and
//     registers the loser's read (filterFiles with its predicate, resolved and constant-folded as a
//     DML's); the winner is put in place as version 1; then each run times Delta's own conflict
//     checker (ConflictChecker.checkConflicts, what a commit that lost its race runs) on the
//     transaction as its commit would describe it (CurrentTransactionInfo, the loser's actions)
//     against the winner's commit file: reading and parsing the 100,000-action winner, then every
//     check. It must let the loser commit.
//   DeltaSparkBench snapshot TABLE RUNS
//     Each run: the log cache cleared, the table's latest snapshot built and its active files
//     counted (Delta's state reconstruction from the checkpoint and the commits after it).
// Output: one JSON object with the medians in milliseconds, on standard output.
package rlc.engines;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.delta.ConflictChecker;
import org.apache.spark.sql.delta.CurrentTransactionInfo;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.DeltaOperations;
import org.apache.spark.sql.delta.OptimisticTransaction;
import org.apache.spark.sql.delta.WriteSerializable$;
import org.apache.spark.sql.delta.actions.Action;
import org.apache.spark.sql.delta.actions.Action$;
import org.apache.spark.sql.delta.actions.AddFile;
import org.apache.spark.sql.delta.actions.DomainMetadata;
import scala.jdk.javaapi.CollectionConverters;

public final class DeltaSparkBench {
  private static final int WARMUP = 2;

  private DeltaSparkBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 3 || !(args[0].equals("check") || args[0].equals("snapshot"))) {
      System.err.println("usage: DeltaSparkBench check|snapshot DIR RUNS");
      System.exit(2);
    }
    SparkSession spark = LocalDeltaSession.create("rlc-delta-spark-bench", 2, null);
    int runs = Integer.parseInt(args[2]);
    if (args[0].equals("check")) {
      check(spark, Path.of(args[1]), runs);
    } else {
      snapshot(spark, args[1], runs);
    }
    spark.stop();
  }

  private static void check(SparkSession spark, Path dir, int runs) throws Exception {
    Path log = dir.resolve("table").resolve("_delta_log");
    List<Action> actions = new ArrayList<>();
    for (String line : Files.readAllLines(dir.resolve("loser.json"), StandardCharsets.UTF_8)) {
      if (!line.isBlank() && !line.startsWith("{\"commitInfo\"")) {
        actions.add(Action$.MODULE$.fromJson(line));
      }
    }
    String predicate = Files.readString(dir.resolve("loser-read.txt")).trim();
    resetToVersionZero(log);
    DeltaLog.clearCache();
    DeltaLog deltaLog = DeltaLog.forTable(spark, dir.resolve("table").toString());
    OptimisticTransaction txn =
        deltaLog.startTransaction(scala.Option.empty(), scala.Option.empty());
    txn.filterFiles(CollectionConverters.asScala(
            DeltaSparkJudge.resolvedConjuncts(spark, dir.resolve("table").toString(), predicate))
        .toSeq(), false);
    Path winner = log.resolve(String.format("%020d.json", 1));
    Files.copy(dir.resolve("winner.json"), winner);
    CurrentTransactionInfo info =
        new CurrentTransactionInfo(
            txn.txnId(),
            CollectionConverters.asScala(new ArrayList<>(txn.readPredicates())).toSeq(),
            txn.readFiles().<AddFile>toSet(),
            txn.readTheWholeTable(),
            CollectionConverters.asScala(new java.util.HashSet<String>()).toSet(),
            txn.metadata(),
            txn.protocol(),
            CollectionConverters.asScala(actions).toSeq(),
            txn.snapshot(),
            scala.Option.empty(),
            -1L,
            scala.Option.empty(),
            CollectionConverters.asScala(new ArrayList<DomainMetadata>()).toSeq(),
            new DeltaOperations.Truncate());
    FileStatus status =
        FileSystem.getLocal(new Configuration())
            .getFileStatus(new org.apache.hadoop.fs.Path(winner.toString()));
    List<Double> times = new ArrayList<>();
    for (int i = 0; i < WARMUP + runs; ++i) {
      long start = System.nanoTime();
      new ConflictChecker(spark, info, status, WriteSerializable$.MODULE$).checkConflicts();
      double ms = (System.nanoTime() - start) / 1e6;
      if (i >= WARMUP) times.add(ms);
    }
    System.out.printf(
        "{\"checkMs\": %.1f, \"readFiles\": %d, \"runs\": %d}%n",
        median(times), txn.readFiles().size(), runs);
  }

  private static void resetToVersionZero(Path log) throws IOException {
    try (var files = Files.list(log)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        String name = p.getFileName().toString();
        boolean first = name.equals(String.format("%020d.json", 0));
        if (!first && !Files.isDirectory(p)) Files.delete(p);
      }
    }
  }

  private static void snapshot(SparkSession spark, String table, int runs) {
    List<Double> times = new ArrayList<>();
    long files = -1;
    for (int i = 0; i < WARMUP + runs; ++i) {
      DeltaLog.clearCache();
      long start = System.nanoTime();
      DeltaLog log = DeltaLog.forTable(spark, table);
      files = log.update(false, scala.Option.empty(), scala.Option.empty()).allFiles().count();
      double ms = (System.nanoTime() - start) / 1e6;
      if (i >= WARMUP) times.add(ms);
    }
    System.out.printf(
        "{\"snapshotMs\": %.1f, \"files\": %d, \"runs\": %d}%n", median(times), files, runs);
  }

  private static double median(List<Double> xs) {
    List<Double> sorted = new ArrayList<>(xs);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
