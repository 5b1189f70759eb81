# The DeltaFunnel application, built from this repository.
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
RUN mvn -B -q -pl routes -am package -DskipTests

FROM eclipse-temurin:17-jre
WORKDIR /app
# One runnable jar: every dependency is inside (docs/application.md, "The single artifact").
COPY --from=build /src/routes/target/deltafunnel-app.jar /app/deltafunnel-app.jar
# Class-data sharing (AppCDS, docs/performance.md "The first run"): a small training job (20,000 generated rows, two
# runs, into the embedded endpoint) records the classes the job loads into /app/deltafunnel-app.jsa, so that a
# container's JVM maps them instead of loading, parsing and verifying them from the jar again. The archive belongs to
# this jar at this path and this JVM; a JVM that cannot use it says so in one warning line and runs without it.
RUN DELTAFUNNEL_SAMPLE_DIR=/tmp/training DELTAFUNNEL_SAMPLE_ROWS=20000 DELTAFUNNEL_RUNS=2 \
    DELTAFUNNEL_SCHEDULE_DELAY=10 DELTAFUNNEL_PROGRESS_IN_PLACE=false \
    java -XX:ArchiveClassesAtExit=/app/deltafunnel-app.jsa -jar /app/deltafunnel-app.jar > /tmp/training.log 2>&1 \
    || { tail -20 /tmp/training.log; exit 1; }; \
    rm -rf /tmp/training /tmp/training.log
# The sample Delta table is generated on first start into /app/data.
ENV DELTAFUNNEL_SAMPLE_DIR=/app/data/sample-orders
ENTRYPOINT ["java", "-Xms512m", "-XX:+ExitOnOutOfMemoryError", "-XX:SharedArchiveFile=/app/deltafunnel-app.jsa", "-jar", "/app/deltafunnel-app.jar"]
