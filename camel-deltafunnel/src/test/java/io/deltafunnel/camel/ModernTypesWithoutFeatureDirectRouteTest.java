package io.deltafunnel.camel;

/** {@link ModernTypesWithoutFeatureRouteTest} with the direct TDS writer ({@code bulkEncoder=direct}, no fallback). */
class ModernTypesWithoutFeatureDirectRouteTest extends ModernTypesWithoutFeatureRouteTest {

    @Override
    protected String encoderOptions() {
        return "&bulkEncoder=direct&bulkEncoderFallback=false";
    }
}
