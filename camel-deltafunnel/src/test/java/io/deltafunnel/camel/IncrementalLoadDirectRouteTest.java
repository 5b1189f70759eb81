package io.deltafunnel.camel;

/** Every test of {@link IncrementalLoadRouteTest} again with {@code bulkEncoder=direct} and no fallback. */
class IncrementalLoadDirectRouteTest extends IncrementalLoadRouteTest {

    @Override
    protected String encoderOptions() {
        return "&bulkEncoder=direct&bulkEncoderFallback=false";
    }
}
