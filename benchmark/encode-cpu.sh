#!/usr/bin/env bash
# The direct writer's own CPU per row on LINEITEM (io.deltafunnel.benchmark.EncodeCpu): one Java-built Arrow batch
# written again and again with DirectBulkWriter into the emulator's jar in sink mode (a separate process); the writing
# thread's CPU time per row. Arguments: [batches per round, 60] [rounds, 7] [rows per batch, 65536], e.g.
#   benchmark/encode-cpu.sh 20 5
# Set SKIP_BUILD=1 to reuse the last build. JAVA_OPTS_EXTRA is appended to the JVM options. encode-ab.sh runs
# EncodeAb through this script (ENCODE_MAIN).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  mvn -B -q -pl benchmark -am package -DskipTests
fi
CP="benchmark/target/classes:$(cat benchmark/target/classpath.txt)"
# shellcheck disable=SC2086
exec java -Xms1g -Xmx1g --add-opens=java.base/java.nio=ALL-UNNAMED ${JAVA_OPTS_EXTRA:-} -cp "$CP" \
  "${ENCODE_MAIN:-io.deltafunnel.benchmark.EncodeCpu}" "$@"
