package io.deltafunnel.emulator.fidelity;

import java.util.function.UnaryOperator;

import io.deltafunnel.emulator.MssqlEmulator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension owning one emulator for a test class: started before the first test, closed after the last.
 * Register it as {@code @RegisterExtension static final EmulatorServer SERVER = new EmulatorServer();}.
 */
public final class EmulatorServer implements ServerUnderTest, BeforeAllCallback, AfterAllCallback {
    private final UnaryOperator<MssqlEmulator.Builder> options;
    private MssqlEmulator emulator;

    public EmulatorServer() {
        this(UnaryOperator.identity());
    }

    /** {@code options} adjusts the builder (sink mode, strict encryption, ...) before the emulator starts. */
    public EmulatorServer(UnaryOperator<MssqlEmulator.Builder> options) {
        this.options = options;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        emulator = options.apply(MssqlEmulator.builder()).start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (emulator != null) {
            emulator.close();
            emulator = null;
        }
    }

    /** The running emulator (between beforeAll and afterAll). */
    public MssqlEmulator emulator() {
        if (emulator == null) {
            throw new IllegalStateException("the emulator runs only while its test class runs");
        }
        return emulator;
    }

    @Override
    public String jdbcUrl() {
        return emulator().jdbcUrl();
    }

    @Override
    public String host() {
        return "localhost";
    }

    @Override
    public int port() {
        return emulator().port();
    }

    @Override
    public String user() {
        return emulator().user();
    }

    @Override
    public String password() {
        return emulator().password();
    }

    @Override
    public String kind() {
        return "emulator";
    }
}
