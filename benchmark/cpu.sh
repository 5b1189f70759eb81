#!/usr/bin/env bash
# DeltaFunnel client CPU per row (io.deltafunnel.benchmark.ClientCpu): the loading JVM's process CPU time per row,
# with the mssql-emulator's executable jar in sink mode as a separate process. Both shapes, one run, e.g.
#   benchmark/cpu.sh --rows 2000000                       # source / adapter / direct / driver, LINEITEM and NARROW
#   benchmark/cpu.sh --rows 1000000 --paths src,direct --jfr benchmark/target/cpu-jfr
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
exec java "${JVM_OPTS[@]}" ${JAVA_OPTS_EXTRA:-} -cp "$CP" io.deltafunnel.benchmark.ClientCpu "$@"
