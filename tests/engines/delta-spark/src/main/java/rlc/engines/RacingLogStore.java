// The racer's log store: Delta's own for local files, except that a commit file is put in place
// with an atomic put-if-absent, and the version of the last commit file this JVM wrote is noted.
//
// Delta's log store for local files checks that the commit file is absent and then renames its
// temporary file onto it: two processes racing for one version can both pass the check, and the
// later rename replaces the earlier commit. Delta documents that store as safe for one writer
// process only. rlc's local storage puts a commit file in place with link(2), which fails when the
// name exists, so exactly one writer wins each version. Racing Delta Spark against rlc needs the
// same primitive on both sides: the temporary file is hard-linked to the commit file's name
// (Files.createLink fails atomically when it exists) and the loser gets the
// java.nio.file.FileAlreadyExistsException Delta's commit loop expects, which sends it to its
// conflict checker. Files written with overwrite (checkpoints, _last_checkpoint) take Delta's path.
package rlc.engines;

import io.delta.storage.HDFSLogStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Iterator;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

public final class RacingLogStore extends HDFSLogStore {
  private static volatile long lastCommitted = -1;

  public RacingLogStore(Configuration conf) {
    super(conf);
  }

  // The version of the last commit file this JVM put in place (-1: none since forget()).
  public static long lastCommitted() {
    return lastCommitted;
  }

  public static void forget() {
    lastCommitted = -1;
  }

  @Override
  public void write(Path path, Iterator<String> actions, Boolean overwrite, Configuration conf)
      throws IOException {
    if (overwrite || !"file".equals(path.toUri().getScheme())) {
      super.write(path, actions, overwrite, conf);
      return;
    }
    java.nio.file.Path target = Paths.get(path.toUri());
    java.nio.file.Path temp =
        target.resolveSibling("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    try {
      try (var out = Files.newBufferedWriter(temp, StandardCharsets.UTF_8)) {
        while (actions.hasNext()) {
          out.write(actions.next());
          out.write('\n');
        }
      }
      Files.createLink(target, temp);
    } catch (FileAlreadyExistsException e) {
      throw new FileAlreadyExistsException(path.toString());
    } finally {
      Files.deleteIfExists(temp);
    }
    String name = target.getFileName().toString();
    if (name.endsWith(".json")) {
      lastCommitted = Long.parseLong(name.substring(0, name.length() - ".json".length()));
    }
  }
}
