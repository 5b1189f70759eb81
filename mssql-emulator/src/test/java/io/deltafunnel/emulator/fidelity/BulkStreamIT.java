package io.deltafunnel.emulator.fidelity;

import org.testcontainers.junit.jupiter.Testcontainers;

@Testcontainers(disabledWithoutDocker = true)
class BulkStreamIT extends BulkStreamScenarios {
    @Override
    protected ServerUnderTest server() {
        return SqlServerContainer.shared();
    }
}
