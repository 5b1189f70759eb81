#!/usr/bin/env bash
# DeltaFunnel sharded loads (io.deltafunnel.benchmark.ShardBench, issue #17): 1, 2 and 4 shards of one load as N
# routes in this JVM, both encoders, against the mssql-emulator's executable jar in sink mode as a separate process;
# rows/s and the loader's client CPU per row. e.g.
#   benchmark/shards.sh --rows 1000000                              # LINEITEM and NARROW, shards 1,2,4, driver+direct
#   benchmark/shards.sh --rows 500000 --shapes NARROW --shards 1,2 --encoders direct --runs 1
# Set SKIP_BUILD=1 to reuse the last build. JAVA_OPTS_EXTRA is appended to the JVM options.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  # -am packages mssql-emulator too, which builds the shaded -all jar the benchmark starts as the server.
  mvn -B -q -pl benchmark -am package -DskipTests
fi
CP="benchmark/target/classes:$(cat benchmark/target/classpath.txt)"
JVM_OPTS=(-Xms2g -Xmx2g -XX:+AlwaysPreTouch --add-opens=java.base/java.nio=ALL-UNNAMED)
# shellcheck disable=SC2086
exec java "${JVM_OPTS[@]}" ${JAVA_OPTS_EXTRA:-} -cp "$CP" io.deltafunnel.benchmark.ShardBench "$@"
