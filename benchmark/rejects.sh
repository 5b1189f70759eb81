#!/usr/bin/env bash
# DeltaFunnel rejected rows (io.deltafunnel.benchmark.RejectBench, issue #25): the cost of finding k = 1, 10, 100 bad
# rows in N against k = 0 in the same run: server-side (duplicate keys into a PRIMARY KEY target, found by bisection)
# and client-side (too-long values), both encoders, against the mssql-emulator's executable jar in storing mode as a
# separate process. e.g.
#   benchmark/rejects.sh --rows 1000000                             # k = 0,1,10,100, server+client, driver+direct
#   benchmark/rejects.sh --rows 100000 --bad 1,10 --kinds server --encoders direct --warmups 0
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
exec java "${JVM_OPTS[@]}" ${JAVA_OPTS_EXTRA:-} -cp "$CP" io.deltafunnel.benchmark.RejectBench "$@"
