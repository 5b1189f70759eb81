package io.deltafunnel.emulator.fidelity;

import org.testcontainers.junit.jupiter.Testcontainers;

@Testcontainers(disabledWithoutDocker = true)
class LockingIT extends LockingScenarios {
    @Override
    protected ServerUnderTest server() {
        return SqlServerContainer.shared();
    }
}
