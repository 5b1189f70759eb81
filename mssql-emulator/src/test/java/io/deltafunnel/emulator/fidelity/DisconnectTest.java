package io.deltafunnel.emulator.fidelity;

import java.time.Duration;

import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link DisconnectScenarios} against the emulator, with a rollback of about 1 s for the scenarios' transaction. */
class DisconnectTest extends DisconnectScenarios {
    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer(
            b -> b.rollbackDelayPerRow(Duration.ofSeconds(1).dividedBy(ROWS)));

    @Override
    protected ServerUnderTest server() {
        return SERVER;
    }
}
