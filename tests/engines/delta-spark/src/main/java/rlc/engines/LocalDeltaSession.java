package rlc.engines;

import org.apache.spark.sql.SparkSession;

/**
 * The one way every harness here starts Spark: local mode on a few cores, Delta's SQL extension
 * and catalog, no UI, no adaptive execution, and the settings that size Spark's own work to small
 * tables on a two-core machine. None of them changes what a statement reads or writes, nor what
 * Delta's conflict checker decides.
 */
final class LocalDeltaSession {
  private LocalDeltaSession() {}

  /**
   * A session of {@code cores} local cores named {@code appName}. {@code logStore}, when not null,
   * is the class Delta uses for the log of local tables (a recording or a racing store).
   */
  static SparkSession create(String appName, int cores, Class<?> logStore) {
    String partitions = Integer.toString(cores);
    SparkSession.Builder builder =
        SparkSession.builder()
            .master("local[" + cores + "]")
            .appName(appName)
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", partitions)
            // As many partitions for Delta's log replay as cores (50 by default), and no checksum
            // file after each commit (a Spark job of its own).
            .config("spark.databricks.delta.snapshotPartitions", partitions)
            .config("spark.databricks.delta.writeChecksumFile.enabled", "false")
            .config("spark.sql.adaptive.enabled", "false")
            .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
            .config(
                "spark.sql.catalog.spark_catalog",
                "org.apache.spark.sql.delta.catalog.DeltaCatalog");
    if (logStore != null) {
      builder = builder.config("spark.delta.logStore.file.impl", logStore.getName());
    }
    SparkSession spark = builder.getOrCreate();
    spark.sparkContext().setLogLevel("ERROR");
    return spark;
  }
}
