package io.deltafunnel.camel;

/** Every test of {@link SqlHookRouteTest} again with {@code bulkEncoder=direct} and no fallback. */
class SqlHookDirectRouteTest extends SqlHookRouteTest {

    @Override
    protected String encoderOptions() {
        return "&bulkEncoder=direct&bulkEncoderFallback=false";
    }
}
