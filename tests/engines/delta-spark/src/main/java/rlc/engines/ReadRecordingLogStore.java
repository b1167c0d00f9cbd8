// The judge's log store: Delta's own for local files, which also notes what the transaction
// writing a commit registered as read, the moment it writes the commit file.
//
// A statement (DELETE, UPDATE, MERGE, INSERT) runs its transaction as the thread's active one and
// writes its commit file from that thread, so the active transaction seen here is the statement's:
// its read predicates, the files its scans read and whether it read the whole table are what
// Delta's conflict checker would hold a later winner against. The operate requests of
// DeltaSparkJudge compare them with the simulator's reads. A commit written with no active
// transaction (the judge's own, OPTIMIZE's) notes nothing.
package rlc.engines;

import io.delta.storage.HDFSLogStore;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.delta.OptimisticTransaction;
import org.apache.spark.sql.delta.actions.AddFile;
import scala.jdk.javaapi.CollectionConverters;

public final class ReadRecordingLogStore extends HDFSLogStore {
  // What the transaction of the last commit written with an active transaction read.
  public record Reads(TreeSet<String> files, List<String> predicates, boolean wholeTable) {}

  private static volatile Reads last;

  public ReadRecordingLogStore(Configuration conf) {
    super(conf);
  }

  // Forgets the last commit's reads: the caller's next statement notes its own, or none.
  public static void forget() {
    last = null;
  }

  public static Reads last() {
    return last;
  }

  @Override
  public void write(Path path, Iterator<String> actions, Boolean overwrite, Configuration conf)
      throws IOException {
    scala.Option<OptimisticTransaction> active = OptimisticTransaction.getActive();
    if (active.isDefined()) {
      OptimisticTransaction txn = active.get();
      TreeSet<String> files = new TreeSet<>();
      for (AddFile a : CollectionConverters.asJava(txn.readFiles())) files.add(a.path());
      List<String> predicates =
          txn.readPredicates().stream().map(String::valueOf).collect(Collectors.toList());
      last = new Reads(files, predicates, txn.readTheWholeTable());
    }
    super.write(path, actions, overwrite, conf);
  }
}
