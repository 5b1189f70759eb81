# The DeltaFunnel application, built from this repository.
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
RUN mvn -B -q -pl routes -am package -DskipTests

# The runtime is Java 25 (the jar is built for Java 17 and runs on 17 and later): its ahead-of-time cache (JEP 483
# class loading and linking, JEP 515 method profiles) halves a fresh JVM's first run, measured in docs/performance.md
# "The first run".
FROM eclipse-temurin:25-jre
WORKDIR /app
# One runnable jar: every dependency is inside (docs/application.md, "The single artifact"), laid out for a JVM that
# starts once per job: /app/deltafunnel-app.jar without DuckDB's native libraries and this platform's library next to
# it, which DuckDB loads as it is instead of extracting 70 MB to a temporary file at every start (NativeLayout).
COPY --from=build /src/routes/target/deltafunnel-app.jar /tmp/deltafunnel-app.jar
RUN java -cp /tmp/deltafunnel-app.jar io.deltafunnel.routes.NativeLayout /tmp/deltafunnel-app.jar /app \
    && rm /tmp/deltafunnel-app.jar
# The AOT cache: a training job (200,000 generated rows, two runs, into the embedded endpoint) records at exit the
# classes it loaded, already parsed and linked, and the method profiles it gathered, into /app/deltafunnel-app.aot, so
# that a container's JVM maps them instead of loading the classes from the jar again, and compiles its hot code from
# the profiles sooner. The cache belongs to this jar at this path and this JVM; a JVM that cannot use it says so in
# an error line and runs without it.
RUN DELTAFUNNEL_SAMPLE_DIR=/tmp/training DELTAFUNNEL_SAMPLE_ROWS=200000 DELTAFUNNEL_RUNS=2 \
    DELTAFUNNEL_SCHEDULE_DELAY=10 DELTAFUNNEL_PROGRESS_IN_PLACE=false \
    java --sun-misc-unsafe-memory-access=allow -XX:AOTCacheOutput=/app/deltafunnel-app.aot \
      -jar /app/deltafunnel-app.jar > /tmp/training.log 2>&1 \
    || { tail -20 /tmp/training.log; exit 1; }; \
    rm -rf /tmp/training /tmp/training.log
# The sample Delta table is generated on first start into /app/data.
ENV DELTAFUNNEL_SAMPLE_DIR=/app/data/sample-orders
# --sun-misc-unsafe-memory-access=allow: Arrow's MemoryUtil uses sun.misc.Unsafe, which Java 24 and later warn about.
# -Xlog:aot*=error: Java 25.0.3 warns at every start that it cannot link one adapter of the cache (two lines; the
# rest of the cache is used); errors, such as a cache that cannot be mapped at all, are still printed.
ENTRYPOINT ["java", "-Xms512m", "-XX:+ExitOnOutOfMemoryError", "--sun-misc-unsafe-memory-access=allow", "-XX:AOTCache=/app/deltafunnel-app.aot", "-Xlog:aot*=error", "-jar", "/app/deltafunnel-app.jar"]
