package io.deltafunnel.emulator.fidelity;

import org.testcontainers.junit.jupiter.Testcontainers;

@Testcontainers(disabledWithoutDocker = true)
class SwitchedTableIT extends SwitchedTableScenarios {
    @Override
    protected ServerUnderTest server() {
        return SqlServerContainer.shared();
    }
}
