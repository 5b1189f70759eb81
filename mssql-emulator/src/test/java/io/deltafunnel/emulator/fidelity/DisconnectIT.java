package io.deltafunnel.emulator.fidelity;

import org.testcontainers.junit.jupiter.Testcontainers;

/** {@link DisconnectScenarios} against SQL Server: asserts the eventual release (the rollback's length is not fixed). */
@Testcontainers(disabledWithoutDocker = true)
class DisconnectIT extends DisconnectScenarios {
    @Override
    protected ServerUnderTest server() {
        return SqlServerContainer.shared();
    }
}
