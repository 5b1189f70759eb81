package io.deltafunnel.camel;

/** Every test of {@link HistoryRouteTest} again with {@code bulkEncoder=direct} and no fallback. */
class HistoryDirectRouteTest extends HistoryRouteTest {

    @Override
    protected String encoderOptions() {
        return "&bulkEncoder=direct&bulkEncoderFallback=false";
    }
}
