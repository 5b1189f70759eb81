# The DeltaFunnel application, built from this repository.
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
RUN mvn -B -q -pl routes -am package -DskipTests

FROM eclipse-temurin:17-jre
WORKDIR /app
# One runnable jar: every dependency is inside (docs/application.md, "The single artifact").
COPY --from=build /src/routes/target/deltafunnel-app.jar /app/deltafunnel-app.jar
# The sample Delta table is generated on first start into /app/data.
ENV DELTAFUNNEL_SAMPLE_DIR=/app/data/sample-orders
ENTRYPOINT ["java", "-Xms512m", "-XX:+ExitOnOutOfMemoryError", "-jar", "/app/deltafunnel-app.jar"]
