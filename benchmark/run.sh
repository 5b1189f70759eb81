#!/usr/bin/env bash
# DeltaFunnel side-by-side benchmark. Builds the module (no tests) and runs every path in ONE JVM, with the same
# JVM settings for every path. Arguments go to io.deltafunnel.benchmark.Benchmark, e.g.
#   benchmark/run.sh --rows 2000000 --shape LINEITEM
#   benchmark/run.sh --rows 2000000 --shape NARROW
# Set SKIP_BUILD=1 to reuse the last build. JAVA_OPTS_EXTRA is appended to the JVM options (profile.sh uses it).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  mvn -B -q -pl benchmark -am package -DskipTests
fi
CP="benchmark/target/classes:$(cat benchmark/target/classpath.txt)"
JVM_OPTS=(-Xms4g -Xmx4g -XX:+AlwaysPreTouch --add-opens=java.base/java.nio=ALL-UNNAMED)
# shellcheck disable=SC2086
exec java "${JVM_OPTS[@]}" ${JAVA_OPTS_EXTRA:-} -cp "$CP" io.deltafunnel.benchmark.Benchmark "$@"
