package io.deltafunnel.camel;

/** Every test of {@link MssqlFaultInjectionTest} again with {@code bulkEncoder=direct} and no fallback. */
class MssqlFaultInjectionDirectTest extends MssqlFaultInjectionTest {

    @Override
    protected String encoderOptions() {
        return "&bulkEncoder=direct&bulkEncoderFallback=false";
    }
}
