package io.deltafunnel.mssql.direct;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.deltafunnel.emulator.MssqlEmulator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension owning a PKCS12 trust store with the emulator's certificate for one test class: written into a
 * temporary directory before the first test, deleted after the last. Register it as
 * {@code @RegisterExtension static final EmulatorTrustStore TRUST = new EmulatorTrustStore();}.
 */
final class EmulatorTrustStore implements BeforeAllCallback, AfterAllCallback {
    /** The store's password (a test secret). */
    static final char[] PASSWORD = "trust-test".toCharArray();

    private Path dir;
    private Path file;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        dir = Files.createTempDirectory("emulator-trust");
        file = dir.resolve("emulator-trust.p12");
        MssqlEmulator.writeTrustStore(file, PASSWORD);
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);
    }

    /** The trust store file (between beforeAll and afterAll). */
    Path path() {
        if (file == null) {
            throw new IllegalStateException("the trust store exists only while its test class runs");
        }
        return file;
    }
}
