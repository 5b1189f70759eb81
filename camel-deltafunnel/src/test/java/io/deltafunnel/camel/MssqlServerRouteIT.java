package io.deltafunnel.camel;

import io.deltafunnel.emulator.fidelity.SqlServerContainer;
import io.deltafunnel.emulator.fidelity.ServerUnderTest;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The end-to-end scenarios against a real SQL Server in Docker (image: {@code -Dmssql.image}, see
 * {@link SqlServerContainer}; one container shared by every *IT of the JVM). Skipped (not failed) where Docker is missing.
 */
@Testcontainers(disabledWithoutDocker = true)
class MssqlServerRouteIT extends AbstractMssqlScenarios {

    @Override
    protected ServerUnderTest server() {
        return SqlServerContainer.shared();
    }
}
