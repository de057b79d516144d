#!/usr/bin/env bash
# The spark suite (issue #22): SparkSync on local[2] against single-machine PathSyncer, in one
# process with samples interleaved (spark's SparkSyncBenchmark), on T1 (10,000 files of 0-8 KiB in
# 100 directories) and 10^5 files in 1,000 directories; first sync and no-op resync, local to
# local; with the job's overhead and the shards' task times. Trees are made once under
# spark/target/spark-bench and kept.
#   benchmarks/run --suite spark [--samples N] [--master local[N]] [--trees t1,100k]
set -euo pipefail
cd "$(dirname "$0")/../.."
JAVA_HOME=$(bin/find-jdk25)
export JAVA_HOME
# The module's test classes hold the benchmark (Spark is `provided`: the test class path has it).
if [ ! -f spark/target/test-classes/dev/remotepath/spark/SparkSyncBenchmark.class ] \
    || [ -n "$(find api local syncer spark/src -newer spark/target/test-classes/dev/remotepath/spark/SparkSyncBenchmark.class -name '*.java' -print -quit)" ]; then
  ./mvnw -q -B install -DskipTests -pl spark -am >&2
  ./mvnw -q -B test-compile -pl spark >&2
fi
cp=spark/target/test.classpath
if [ ! -s "$cp" ] || [ spark/pom.xml -nt "$cp" ]; then
  ./mvnw -q -B dependency:build-classpath -pl spark -Dmdep.includeScope=test -Dmdep.outputFile="$PWD/$cp" >&2
fi
# The JVM flags Spark's own launcher adds on Java 25 (the module's pom.xml has the same for its tests).
opens=""
for p in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util java.util.concurrent \
    java.util.concurrent.atomic jdk.internal.ref sun.nio.ch sun.nio.cs sun.util.calendar; do
  opens="$opens --add-opens=java.base/$p=ALL-UNNAMED"
done
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -Xms2g -Xmx2g $opens \
  -Djdk.reflect.useDirectMethodHandle=false -Dio.netty.tryReflectionSetAccessible=true \
  -cp "spark/target/classes:spark/target/test-classes:$(cat "$cp")" dev.remotepath.spark.SparkSyncBenchmark \
  --work spark/target/spark-bench "$@"
