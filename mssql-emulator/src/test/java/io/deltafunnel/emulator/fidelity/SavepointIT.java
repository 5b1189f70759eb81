package io.deltafunnel.emulator.fidelity;

import org.testcontainers.junit.jupiter.Testcontainers;

@Testcontainers(disabledWithoutDocker = true)
class SavepointIT extends SavepointScenarios {
    @Override
    protected ServerUnderTest server() {
        return SqlServerContainer.shared();
    }
}
