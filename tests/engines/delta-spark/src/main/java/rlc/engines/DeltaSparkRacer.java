// Delta Spark as one racer of `rlc race --engine delta-spark`: it runs SQL statements on the
// table the race shares with rlc's processes, each as Delta Spark runs it (its own reads, writes,
// conflict checker and retries), and journals what happened, in the race's journal format.
//
//   DeltaSparkRacer race TABLE RACE_DIR PROC
//     Reads RACE_DIR/plan-PROC.jsonl ({"txnId", "op", "sql"} per line: the operation in rlc's
//     scenario language, for the oracle, and as Spark SQL with {table} for the table), starts its
//     Spark session, writes RACE_DIR/engine/ready-PROC and waits for RACE_DIR/engine/start (the
//     deadline, epoch milliseconds). Then, statement by statement until the deadline: an intent
//     line {"txnId", "proc", "op", "engine"} in RACE_DIR/journal-PROC.jsonl, the file
//     RACE_DIR/engine/go-PROC (replaced atomically: the statement's number and how long the last
//     one took, milliseconds; rlc's processes pace their read and commit windows by it), the
//     statement (commitInfo.userMetadata carries the txnId, so the log says which statement each
//     version is), then an outcome line: {"txnId", "committed", "version", "nothing", "millis"}
//     or, when
//     Delta's conflict checker aborted it, {"txnId", "committed": false, "abort": {"kind":
//     exception class, "winnerOperation", "winnerTxnId", "message"}} (the winner as Delta's
//     message names it); any other failure is {"txnId", "error": message}.
//   DeltaSparkRacer read TABLE OUT [EVERY]
//     Every version the log holds, 0 to the latest (with EVERY, the multiples of it and the
//     latest: each version costs Delta Spark a snapshot of its own), as Delta Spark reads it (DVs
//     applied): {"version", "rows", "digest"} per line, the digest being the sum of
//     crc32("<id>:<value>") over the live rows (value "\0" when null), so that rlc's oracle can
//     compare its own read of the same version without either side printing a million rows.
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
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

public final class DeltaSparkRacer {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern WINNER_OPERATION = Pattern.compile("\"operation\":\"([A-Za-z _]+)\"");
  // Delta's message prints the winner's commitInfo, which names its transaction: rlc's as txnId,
  // Delta Spark's as userMetadata.
  private static final Pattern WINNER_TXN =
      Pattern.compile("\"(?:txnId|userMetadata)\":\"([^\"]+)\"");

  private DeltaSparkRacer() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 4 && args[0].equals("race")) {
      race(Path.of(args[1]), Path.of(args[2]), Integer.parseInt(args[3]));
    } else if ((args.length == 3 || args.length == 4) && args[0].equals("read")) {
      read(Path.of(args[1]), Path.of(args[2]), args.length == 4 ? Long.parseLong(args[3]) : 1);
    } else {
      System.err.println(
          "usage: DeltaSparkRacer race TABLE RACE_DIR PROC | DeltaSparkRacer read TABLE OUT [EVERY]");
      System.exit(2);
    }
  }

  // Two cores: the racer shares the machine with rlc's processes. Delta's own log store, but for
  // a put-if-absent other processes see at once (RacingLogStore).
  private static SparkSession session() {
    return LocalDeltaSession.create("rlc-delta-spark-racer", 2, RacingLogStore.class);
  }

  private static void race(Path table, Path raceDir, int proc) throws Exception {
    List<String> plan =
        Files.readAllLines(raceDir.resolve("plan-" + proc + ".jsonl"), StandardCharsets.UTF_8);
    SparkSession spark = session();
    String tableName = "delta.`" + table.toAbsolutePath() + "`";
    Path engineDir = raceDir.resolve("engine");
    // Warm up before the race starts: the first scan of the table loads and compiles most of what
    // every statement runs (seconds of a cold JVM that would otherwise fall in the race).
    for (int i = 0; i < 3; ++i) spark.sql("SELECT count(*), max(value) FROM " + tableName).collect();
    Files.writeString(engineDir.resolve("ready-" + proc), "ready");
    long deadline = awaitStart(engineDir.resolve("start"));
    Path journalPath = raceDir.resolve("journal-" + proc + ".jsonl");
    long lastMillis = 500;
    try (BufferedWriter journal =
        Files.newBufferedWriter(
            journalPath,
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.APPEND)) {
      for (int seq = 0; seq < plan.size() && System.currentTimeMillis() < deadline; ++seq) {
        JsonNode step = JSON.readTree(plan.get(seq));
        String txnId = step.get("txnId").asText();
        ObjectNode intent = JSON.createObjectNode();
        intent.put("txnId", txnId);
        intent.put("proc", proc);
        intent.put("op", step.get("op").asText());
        intent.put("engine", "delta-spark");
        line(journal, intent);
        signalGo(engineDir, proc, seq, lastMillis);
        long started = System.currentTimeMillis();
        ObjectNode outcome = run(spark, step.get("sql").asText().replace("{table}", tableName), txnId);
        lastMillis = Math.max(1, System.currentTimeMillis() - started);
        outcome.put("millis", lastMillis);
        line(journal, outcome);
      }
    }
    spark.stop();
  }

  private static long awaitStart(Path start) throws Exception {
    long giveUp = System.currentTimeMillis() + 600_000;
    while (!Files.exists(start)) {
      if (System.currentTimeMillis() > giveUp) throw new IOException("no start file: " + start);
      Thread.sleep(20);
    }
    Thread.sleep(20);  // the start file is written whole by a rename; this only avoids a spin
    return Long.parseLong(Files.readString(start).trim());
  }

  private static void signalGo(Path engineDir, int proc, int seq, long lastMillis)
      throws IOException {
    Path temp = engineDir.resolve(".go-" + proc + ".tmp");
    Files.writeString(temp, seq + " " + lastMillis + "\n");
    Files.move(temp, engineDir.resolve("go-" + proc), StandardCopyOption.ATOMIC_MOVE);
  }

  private static void line(BufferedWriter journal, ObjectNode j) throws IOException {
    journal.write(JSON.writeValueAsString(j));
    journal.newLine();
    journal.flush();
  }

  // One statement, tagged with its transaction id; what became of it.
  private static ObjectNode run(SparkSession spark, String sql, String txnId) {
    ObjectNode outcome = JSON.createObjectNode();
    outcome.put("txnId", txnId);
    spark.conf().set("spark.databricks.delta.commitInfo.userMetadata", txnId);
    RacingLogStore.forget();
    try {
      spark.sql(sql).collect();
      long version = RacingLogStore.lastCommitted();
      outcome.put("committed", version >= 0);
      outcome.put("version", version);
      outcome.put("nothing", version < 0);
    } catch (Exception e) {
      Throwable t = e;
      while (t.getCause() != null && !t.getClass().getName().startsWith("io.delta.exceptions")) {
        t = t.getCause();
      }
      if (t.getClass().getName().startsWith("io.delta.exceptions")) {
        outcome.put("committed", false);
        ObjectNode abort = outcome.putObject("abort");
        abort.put("kind", t.getClass().getSimpleName());
        String message = String.valueOf(t.getMessage());
        Matcher m = WINNER_OPERATION.matcher(message);
        abort.put("winnerOperation", m.find() ? m.group(1) : "UNKNOWN");
        Matcher w = WINNER_TXN.matcher(message);
        if (w.find()) abort.put("winnerTxnId", w.group(1));
        abort.put("message", message.length() > 2000 ? message.substring(0, 2000) : message);
      } else {
        outcome.put("error", String.valueOf(e));
      }
    }
    return outcome;
  }

  private static void read(Path table, Path out, long every) throws Exception {
    SparkSession spark = session();
    String path = table.toAbsolutePath().toString();
    long latest = io.delta.tables.DeltaTable.forPath(spark, path).history(1).head().getLong(0);
    try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
      for (long v = 0; v <= latest; ++v) {
        if (v % every != 0 && v != latest) continue;
        Row r =
            spark
                .read()
                .format("delta")
                .option("versionAsOf", v)
                .load(path)
                .selectExpr(
                    "count(*)",
                    "coalesce(sum(crc32(concat(cast(id as string), ':',"
                        + " coalesce(value, char(0))))), 0)")
                .head();
        ObjectNode j = JSON.createObjectNode();
        j.put("version", v);
        j.put("rows", r.getLong(0));
        j.put("digest", Long.toUnsignedString(r.getLong(1)));
        line(w, j);
      }
    }
    spark.stop();
  }
}
