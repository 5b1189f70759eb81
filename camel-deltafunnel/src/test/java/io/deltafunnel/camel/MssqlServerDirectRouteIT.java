package io.deltafunnel.camel;

import io.deltafunnel.emulator.fidelity.SqlServerContainer;
import io.deltafunnel.emulator.fidelity.ServerUnderTest;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * Every end-to-end producer scenario (all types and edge values, write modes, transactions, errors) with
 * {@code bulkEncoder=direct} and no fallback, against a real SQL Server in Docker (image: {@code -Dmssql.image}, see
 * {@link SqlServerContainer}; one container shared by every *IT of the JVM), over TLS. Skipped (not failed) where Docker is missing. Until this
 * has passed, the producer's default encoder stays {@code driver}.
 */
@Testcontainers(disabledWithoutDocker = true)
class MssqlServerDirectRouteIT extends AbstractMssqlScenarios {

    @Override
    protected ServerUnderTest server() {
        return SqlServerContainer.shared();
    }

    @Override
    protected String encoderOptions() {
        return "&bulkEncoder=direct&bulkEncoderFallback=false";
    }
}
