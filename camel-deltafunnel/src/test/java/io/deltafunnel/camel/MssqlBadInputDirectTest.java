package io.deltafunnel.camel;

/** Every test of {@link MssqlBadInputTest} again with {@code bulkEncoder=direct} and no fallback. */
class MssqlBadInputDirectTest extends MssqlBadInputTest {

    @Override
    protected String encoderOptions() {
        return "&bulkEncoder=direct&bulkEncoderFallback=false";
    }
}
