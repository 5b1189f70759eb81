#!/usr/bin/env bash
# Per-stage CPU breakdown of one path (default: the DeltaFunnel route) with Java Flight Recorder.
#   benchmark/profile.sh [--rows 1000000] [--shape NARROW] ...      (extra args go to the Benchmark)
#   PATHS=prebuilt benchmark/profile.sh ...                          (profile another bulk path)
# The recording covers only the measured runs (not data generation or warm-up); it is aggregated by
# io.deltafunnel.benchmark.JfrStages (stage = first known frame from the leaf up; see its Javadoc).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-benchmark/target/profile}
mkdir -p "$OUT"
PATHS=${PATHS:-df}
JFR="$OUT/$PATHS.jfr"
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  mvn -B -q -pl benchmark -am package -DskipTests
fi
# DebugNonSafepoints: samples are attributed to the right inlined method.
SKIP_BUILD=1 JAVA_OPTS_EXTRA="-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints" \
  benchmark/run.sh --paths "$PATHS" --runs 3 --scale 0 --jfr "$JFR" "$@" | tee "$OUT/$PATHS-run.txt"
echo
echo "# raw samples: jfr print --events jdk.ExecutionSample $JFR | less"
jfr summary "$JFR" | grep -E "jdk.ExecutionSample|jdk.NativeMethodSample" || true
CP="benchmark/target/classes:$(cat benchmark/target/classpath.txt)"
java -cp "$CP" io.deltafunnel.benchmark.JfrStages "$JFR" | tee "$OUT/$PATHS-stages.md"
