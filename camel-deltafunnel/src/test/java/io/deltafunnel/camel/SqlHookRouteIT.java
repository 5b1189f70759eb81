package io.deltafunnel.camel;

import io.deltafunnel.emulator.fidelity.ServerUnderTest;
import io.deltafunnel.emulator.fidelity.SqlServerContainer;
import org.testcontainers.junit.jupiter.Testcontainers;

/** {@link SqlHookScenarios} against a real SQL Server in Docker; skipped (not failed) where Docker is missing. */
@Testcontainers(disabledWithoutDocker = true)
class SqlHookRouteIT extends SqlHookScenarios {

    @Override
    protected ServerUnderTest server() {
        return SqlServerContainer.shared();
    }
}
