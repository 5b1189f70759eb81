package io.deltafunnel.camel;

/** Every test of {@link RejectedRowsRouteTest} again with {@code bulkEncoder=direct} and no fallback. */
class RejectedRowsDirectRouteTest extends RejectedRowsRouteTest {

    @Override
    protected String encoderOptions() {
        return "&bulkEncoder=direct&bulkEncoderFallback=false";
    }
}
