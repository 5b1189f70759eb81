#!/usr/bin/env bash
# DeltaFunnel replace, the final step (io.deltafunnel.benchmark.ReplaceBench, issue #26): replaceStrategy=switch vs
# copy at 100,000 and 5,000,000 rows, against the mssql-emulator's executable jar as a separate process in its storing
# mode; the final step's time and the longest wait of a concurrent reader. e.g.
#   benchmark/replace.sh                                   # 100000 and 5000000 rows, switch and copy, one run each
#   benchmark/replace.sh --rows 100000 --runs 3 --emulator-xmx 4g
# Set SKIP_BUILD=1 to reuse the last build. JAVA_OPTS_EXTRA is appended to the JVM options.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  # -am packages mssql-emulator too, which builds the shaded -all jar the benchmark starts as the server.
  mvn -B -q -pl benchmark -am package -DskipTests
fi
CP="benchmark/target/classes:$(cat benchmark/target/classpath.txt)"
JVM_OPTS=(-Xms2g -Xmx2g --add-opens=java.base/java.nio=ALL-UNNAMED)
# shellcheck disable=SC2086
exec java "${JVM_OPTS[@]}" ${JAVA_OPTS_EXTRA:-} -cp "$CP" io.deltafunnel.benchmark.ReplaceBench "$@"
