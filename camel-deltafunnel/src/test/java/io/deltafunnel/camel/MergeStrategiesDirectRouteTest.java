package io.deltafunnel.camel;

/** Every test of {@link MergeStrategiesRouteTest} again with {@code bulkEncoder=direct} and no fallback. */
class MergeStrategiesDirectRouteTest extends MergeStrategiesRouteTest {

    @Override
    protected String encoderOptions() {
        return "&bulkEncoder=direct&bulkEncoderFallback=false";
    }
}
