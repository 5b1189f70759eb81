package io.deltafunnel.emulator.fidelity;

import org.junit.jupiter.api.extension.RegisterExtension;

class SwitchedTableTest extends SwitchedTableScenarios {
    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer();

    @Override
    protected ServerUnderTest server() {
        return SERVER;
    }
}
