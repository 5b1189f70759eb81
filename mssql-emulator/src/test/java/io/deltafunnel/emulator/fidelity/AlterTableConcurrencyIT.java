package io.deltafunnel.emulator.fidelity;

import org.testcontainers.junit.jupiter.Testcontainers;

@Testcontainers(disabledWithoutDocker = true)
class AlterTableConcurrencyIT extends AlterTableConcurrencyScenarios {
    @Override
    protected ServerUnderTest server() {
        return SqlServerContainer.shared();
    }
}
