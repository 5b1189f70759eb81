package io.deltafunnel.routes;

/** {@link CredentialLeakTest} with {@code bulkEncoder=direct} (the project's own TDS client parses the URL). */
class CredentialLeakDirectTest extends CredentialLeakTest {

    @Override
    protected String encoder() {
        return "direct";
    }
}
